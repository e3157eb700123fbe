import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_GAME, DEMO_PLAYER, setUpDemo } from '../src/demo/setup.ts';
import { SESSION_TTL_SECONDS } from '../src/services/session-service.ts';
import { expectAnsweredAsUnknown } from './as-unknown.ts';
import { type DatabaseSnapshots, databaseSnapshots } from './database-snapshot.ts';
import { startTestServer, type TestServer, type TokenSet } from './harness.ts';

let server: TestServer;
let mine: { apiKey: string; tokens: TokenSet };
let theirs: { apiKey: string; tokens: TokenSet };
let db: DatabaseSnapshots;

const game = {
  gameModel: 'oxe-ganhei',
  lang: 'pt',
  currency: 'BRL',
  rtp: 0.9,
  sampling: 1_000_000,
  prizedPercent: 0.3,
  betPrice: 2,
  simulation: false,
  replacePreviousVersion: false,
};

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
/**
 * The stored sessions, as a digest: no repository lists them (a session is found only by its id or
 * token), so this one check of "nothing written" reads the table itself, on either adapter.
 */
const storedSessions = () => db.snapshot();
const sessions = () => server.running.app.services.sessions;

/** A profile with an active oxe-ganhei game and a logged-in player, for one API client. */
async function operatorSetUp(token: TokenSet = mine.tokens) {
  const profile = await server.call('POST', '/v1/profile', {
    token,
    body: { name: 'Sessions', type: 'demo' },
  });
  const profileId: string = profile.body.data.profileId;
  const created = await server.call('POST', '/v1/game', { token, body: { ...game, profileId } });
  const login = await server.call('POST', '/v1/user/auth', {
    token,
    body: { profileId, credential: 'player-1', credentialType: 'username' },
  });
  return {
    profileId,
    gameId: created.body.data.id as string,
    userId: login.body.data.userId as string,
    userToken: login.body.data.userToken as string,
  };
}

const startSession = (body: unknown, token: TokenSet = mine.tokens) =>
  server.call('POST', '/v1/game/session', { token, body });

const tokenOf = (gameUrl: string) => new URL(gameUrl).searchParams.get('token') ?? '';

async function relogIn(client: { apiKey: string; tokens: TokenSet }) {
  const login = await server.call('POST', '/v1/auth/login', { body: { apiKey: client.apiKey } });
  client.tokens = login.body.data;
}

beforeAll(async () => {
  server = await startTestServer();
  mine = await server.newClient();
  theirs = await server.newClient('Other operator');
  db = await databaseSnapshots(server, (table) => table !== 'game_sessions');
});
afterAll(async () => {
  await db.close();
  await server.close();
});

describe('POST /v1/game/session', () => {
  it('starts a session on a game by id: 201 with a gameUrl carrying a one-session token', async () => {
    const setUp = await operatorSetUp();
    const answer = await startSession({ userToken: setUp.userToken, gameId: setUp.gameId });
    expect(answer.status).toBe(201);
    const { sessionId, gameUrl } = answer.body.data;
    expect(answer.body).toEqual({
      status: 'success',
      data: {
        sessionId: expect.any(String),
        gameUrl: expect.stringMatching(
          new RegExp(`^${server.url}/play/${sessionId}\\?token=ses_[\\w-]{43}$`),
        ),
        expireAt: new Date(server.clock().getTime() + SESSION_TTL_SECONDS * 1000).toISOString(),
      },
    });
    expect(SESSION_TTL_SECONDS).toBe(7200);
    const stored = await server.deps.store.sessions.findById(sessionId);
    expect(stored).toMatchObject({
      playerId: setUp.userId,
      gameId: setUp.gameId,
      profileId: setUp.profileId,
      lang: 'pt',
      returnUrl: null,
      tokenHash: sha256(tokenOf(gameUrl)),
    });
    expect(JSON.stringify(stored)).not.toContain(tokenOf(gameUrl));
  });

  it('starts a session on the active version by profileId and gameModel, with lang and returnUrl', async () => {
    const setUp = await operatorSetUp();
    const v2 = await server.call('POST', '/v1/game', {
      token: mine.tokens,
      body: { ...game, profileId: setUp.profileId, replacePreviousVersion: true },
    });
    const answer = await startSession({
      userToken: setUp.userToken,
      profileId: setUp.profileId,
      gameModel: 'oxe-ganhei',
      lang: 'es',
      returnUrl: 'https://casino.example/lobby?from=raspa',
    });
    expect(answer.status).toBe(201);
    const live = await sessions().resolveSessionToken(tokenOf(answer.body.data.gameUrl));
    expect(live?.game.id).toBe(v2.body.data.id);
    expect(live?.session).toMatchObject({ lang: 'es', returnUrl: 'https://casino.example/lobby?from=raspa' });
  });

  it('accepts profileId and gameModel beside gameId when they agree, and refuses them when not', async () => {
    const setUp = await operatorSetUp();
    const agreeing = await startSession({
      userToken: setUp.userToken,
      gameId: setUp.gameId,
      profileId: setUp.profileId,
      gameModel: 'oxe-ganhei',
    });
    expect(agreeing.status).toBe(201);
    expect(
      await startSession({ userToken: setUp.userToken, gameId: setUp.gameId, gameModel: 'fera-sortuda' }),
    ).toMatchObject({
      status: 400,
      body: { messages: [`gameModel: game ${setUp.gameId} is a oxe-ganhei game`] },
    });
  });

  it('refuses an expired userToken with 401 (the access token being fresh)', async () => {
    const setUp = await operatorSetUp();
    server.clock.advance(2 * 3600_000);
    // The API clients' access tokens expire too: log in again, so only the userToken is stale.
    await relogIn(mine);
    await relogIn(theirs);
    const before = await storedSessions();
    expect(await startSession({ userToken: setUp.userToken, gameId: setUp.gameId })).toMatchObject({
      status: 401,
      body: {
        status: 'error',
        code: 'UNAUTHORIZED',
        messages: ['userToken is unknown or has expired; log the player in again with POST /v1/user/auth'],
      },
    });
    expect(await storedSessions()).toBe(before);
    const fresh = await server.call('POST', '/v1/user/auth', {
      token: mine.tokens,
      body: { profileId: setUp.profileId, credential: 'player-1', credentialType: 'username' },
    });
    expect(fresh.body.data.userId).toBe(setUp.userId);
    expect((await startSession({ userToken: fresh.body.data.userToken, gameId: setUp.gameId })).status).toBe(
      201,
    );
  });

  it('refuses an unknown userToken with 401', async () => {
    const setUp = await operatorSetUp();
    expect(await startSession({ userToken: 'usr_not-a-token', gameId: setUp.gameId })).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
  });

  it('refuses an inactive game with 409, by id and by model, and starts nothing', async () => {
    const setUp = await operatorSetUp();
    await server.call('PUT', `/v1/game/${setUp.gameId}`, {
      token: mine.tokens,
      body: { active: false, profileId: setUp.profileId },
    });
    const before = await storedSessions();
    expect(await startSession({ userToken: setUp.userToken, gameId: setUp.gameId })).toMatchObject({
      status: 409,
      body: {
        status: 'error',
        code: 'CONFLICT',
        messages: [`an inactive game cannot start a session: game ${setUp.gameId} (version 1) is inactive`],
      },
    });
    expect(
      await startSession({ userToken: setUp.userToken, profileId: setUp.profileId, gameModel: 'oxe-ganhei' }),
    ).toMatchObject({
      status: 409,
      body: {
        code: 'CONFLICT',
        messages: [
          `an inactive game cannot start a session: no oxe-ganhei version of profile ${setUp.profileId} is active`,
        ],
      },
    });
    expect(await storedSessions()).toBe(before);
  });

  it('answers across API clients as for unknown ones: their player, their game, their profile', async () => {
    const mineSetUp = await operatorSetUp(mine.tokens);
    const theirSetUp = await operatorSetUp(theirs.tokens);
    const before = await storedSessions();
    const unknownToken = await startSession({ userToken: 'no-such-token', gameId: mineSetUp.gameId });
    expect(unknownToken).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    expectAnsweredAsUnknown(
      await startSession({ userToken: theirSetUp.userToken, gameId: mineSetUp.gameId }),
      unknownToken,
      { theirs: theirSetUp.userToken, unknown: 'no-such-token' },
    );
    const unknownGame = await startSession({ userToken: mineSetUp.userToken, gameId: 'no-such-game' });
    expect(unknownGame).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expectAnsweredAsUnknown(
      await startSession({ userToken: mineSetUp.userToken, gameId: theirSetUp.gameId }),
      unknownGame,
      { theirs: theirSetUp.gameId, unknown: 'no-such-game' },
    );
    const byProfile = (profileId: string) =>
      startSession({ userToken: mineSetUp.userToken, profileId, gameModel: 'oxe-ganhei' });
    const unknownProfile = await byProfile('no-such-profile');
    expect(unknownProfile).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expectAnsweredAsUnknown(await byProfile(theirSetUp.profileId), unknownProfile, {
      theirs: theirSetUp.profileId,
      unknown: 'no-such-profile',
    });
    expect(await storedSessions()).toBe(before);
  });

  it('refuses a game of another of the caller’s profiles with 400', async () => {
    const first = await operatorSetUp();
    const second = await operatorSetUp();
    expect(await startSession({ userToken: first.userToken, gameId: second.gameId })).toMatchObject({
      status: 400,
      body: {
        code: 'VALIDATION_ERROR',
        messages: [`gameId: game ${second.gameId} is not a game of the player's profile`],
      },
    });
    expect(
      await startSession({
        userToken: first.userToken,
        profileId: second.profileId,
        gameModel: 'oxe-ganhei',
      }),
    ).toMatchObject({
      status: 400,
      body: {
        messages: [`profileId: the player of this userToken is not a player of profile ${second.profileId}`],
      },
    });
    expect(await startSession({ userToken: first.userToken, gameId: 'no-such-game' })).toMatchObject({
      status: 400,
      body: { messages: ['gameId: game no-such-game was not found'] },
    });
    expect(
      await startSession({
        userToken: first.userToken,
        profileId: first.profileId,
        gameModel: 'fera-sortuda',
      }),
    ).toMatchObject({
      status: 400,
      body: {
        messages: [
          `gameModel: profile ${first.profileId} has no fera-sortuda game; create one with POST /v1/game`,
        ],
      },
    });
  });

  it.each([
    [{ gameId: 'g' }, ['userToken is required']],
    [{}, ['userToken is required']],
    [
      { userToken: 't' },
      [
        'profileId: is required when gameId is not given (the profile’s active version of gameModel is played)',
        'gameModel: is required when gameId is not given (the profile’s active version of gameModel is played)',
      ],
    ],
    [
      { userToken: 't', profileId: 'p' },
      [
        'gameModel: is required when gameId is not given (the profile’s active version of gameModel is played)',
      ],
    ],
    [{ userToken: 't', gameId: 'g', lang: 'fr' }, ['lang: must be pt, en or es']],
    [
      { userToken: 't', gameId: 'g', returnUrl: 'javascript:alert(1)' },
      ['returnUrl: must be an http(s) URL'],
    ],
    [
      { userToken: 't', profileId: 'p', gameModel: 'bingo' },
      [expect.stringMatching(/^gameModel: must be one of /)],
    ],
  ])('refuses %o with 400', async (body, messages) => {
    const before = await storedSessions();
    const answer = await startSession(body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 'error', code: 'VALIDATION_ERROR', messages });
    expect(await storedSessions()).toBe(before);
  });

  it('needs a signature and a token (401); nothing is started', async () => {
    const setUp = await operatorSetUp();
    const before = await storedSessions();
    const body = { userToken: setUp.userToken, gameId: setUp.gameId };
    expect(
      await server.call('POST', '/v1/game/session', { token: mine.tokens, body, sign: false }),
    ).toMatchObject({
      status: 401,
      body: { code: 'INVALID_SIGNATURE' },
    });
    expect(await server.call('POST', '/v1/game/session', { body })).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
    expect(await storedSessions()).toBe(before);
  });
});

describe('resolveSessionToken', () => {
  it('gives the live session with its player, game and profile, until it expires', async () => {
    const setUp = await operatorSetUp();
    const started = await startSession({ userToken: setUp.userToken, gameId: setUp.gameId });
    const token = tokenOf(started.body.data.gameUrl);
    const live = await sessions().resolveSessionToken(token);
    expect(live).toMatchObject({
      session: { id: started.body.data.sessionId, expireAt: started.body.data.expireAt, lang: 'pt' },
      player: { id: setUp.userId, credential: 'player-1', credentialType: 'username' },
      game: { id: setUp.gameId, gameModel: 'oxe-ganhei', version: 1, active: true },
      profile: { id: setUp.profileId, type: 'demo', currency: 'BRL' },
    });
    expect(live?.game.ladder.levels).toHaveLength(8);
    expect(await sessions().resolveSessionToken(`${token}x`)).toBeUndefined();
    expect(await sessions().resolveSessionToken('')).toBeUndefined();

    server.clock.advance(SESSION_TTL_SECONDS * 1000 - 1);
    expect((await sessions().resolveSessionToken(token))?.session.id).toBe(started.body.data.sessionId);
    server.clock.advance(1);
    expect(await sessions().resolveSessionToken(token)).toBeUndefined();
    await relogIn(mine);
    await relogIn(theirs);
  });
});

describe('setUpDemo', () => {
  it('on an empty database creates the demo client, profile, game, player and a ready gameUrl; once', async () => {
    const fresh = await startTestServer();
    try {
      const services = fresh.running.app.services;
      const demo = await setUpDemo(services, fresh.deps, 'demo-key-of-enough-length');
      expect(demo).toMatchObject({ apiKey: 'demo-key-of-enough-length', email: 'demo@raspa.local' });
      const live = demo && (await services.sessions.resolveSessionToken(tokenOf(demo.game.gameUrl)));
      expect(demo?.game.gameUrl.startsWith(`${fresh.url}/play/${demo?.game.sessionId}?token=`)).toBe(true);
      expect(live).toMatchObject({
        session: { id: demo?.game.sessionId, lang: 'pt', expireAt: demo?.game.expireAt },
        player: { id: demo?.game.userId, credential: DEMO_PLAYER, credentialType: 'username' },
        game: { id: demo?.game.gameId, gameModel: 'oxe-ganhei', active: true, version: 1 },
        profile: { id: demo?.game.profileId, type: 'demo', currency: 'BRL', allowedOrigins: [] },
      });

      // The integrator sees the same through the API with the demo key.
      const login = await fresh.call('POST', '/v1/auth/login', {
        body: { apiKey: 'demo-key-of-enough-length' },
      });
      const games = await fresh.call('GET', `/v1/game?profileId=${demo?.game.profileId}`, {
        token: login.body.data,
      });
      expect(games.body.data).toMatchObject([
        {
          id: demo?.game.gameId,
          gameModel: DEMO_GAME.gameModel,
          lang: 'pt',
          currency: 'BRL',
          rtp: 0.9,
          sampling: 1_000_000,
          prizedPercent: 0.3,
          betPrice: 2,
          version: 1,
          active: true,
        },
      ]);
      const players = await fresh.call('GET', `/v1/user?profileId=${demo?.game.profileId}`, {
        token: login.body.data,
      });
      expect(players.body.data).toMatchObject([{ _id: demo?.game.userId, credential: DEMO_PLAYER }]);

      expect(await setUpDemo(services, fresh.deps, undefined)).toBeUndefined();
    } finally {
      await fresh.close();
    }
  });
});
