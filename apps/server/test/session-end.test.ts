import {
  type Ack,
  type BuyAnswer,
  DEFAULT_PLAY_RULES,
  HISTORY_ROUNDS,
  PLAY_ERRORS,
  type PlayRound,
  type PlayState,
  playStateSchema,
  type SessionEndedEvent,
} from '@raspa/core';
import { createAdapter as createPostgresAdapter } from '@socket.io/postgres-adapter';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../src/store/postgres/database.ts';
import { expectAnsweredAsUnknown } from './as-unknown.ts';
import { LOCAL_INTEGRATION, startTestServer, type TestServer, type TokenSet } from './harness.ts';
import {
  connectPlayer,
  type GameSetup,
  type Player,
  seatPlayer,
  setUpOperatorGame,
} from './play-fixtures.ts';
import { createTestDatabase } from './postgres-database.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * Ending sessions, the player's history and the play rules in the state (issue 25, CONTRACT §13,
 * docs/player-protection.md), over real HTTP and real sockets on either database; on PostgreSQL
 * also an exclusion made on one instance ending a socket on another.
 */
let server: TestServer;
let operator: TestOperator;
let game: GameSetup;
let other: TokenSet;
let players = 0;
const sockets: Player[] = [];

beforeAll(async () => {
  operator = await startTestOperator();
  server = await startTestServer({ env: LOCAL_INTEGRATION, play: { tickMs: 60_000 } });
  game = await setUpOperatorGame(server, operator);
  ({ tokens: other } = await server.newClient('Other operator'));
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => {
  await server.close();
  await operator.close();
});

type Seat = Awaited<ReturnType<typeof seatPlayer>>;

/** A new player of the game with one session. */
const newSeat = (setup: Pick<GameSetup, 'tokens' | 'profileId' | 'gameId'> = game, at = server) =>
  seatPlayer(at, setup, `ending-${++players}`);

async function connect(seat: Seat, url = server.url): Promise<Player & { ended: Promise<unknown[]> }> {
  const player = await connectPlayer(url, seat.token);
  sockets.push(player);
  // Both the event and the disconnect, in the order they came.
  const ended = new Promise<unknown[]>((resolve) => {
    const seen: unknown[] = [];
    player.socket.on('session-ended', (event: SessionEndedEvent) => seen.push(event));
    player.socket.on('disconnect', () => resolve([...seen, 'disconnect']));
  });
  return { ...player, ended };
}

/** The connect_error a new connection with the token gets (undefined: it connected). */
async function connectError(token: string, url = server.url): Promise<string | undefined> {
  try {
    sockets.push(await connectPlayer(url, token));
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const endSession = (sessionId: string, token = game.tokens) =>
  server.call('DELETE', `/v1/game/session/${sessionId}`, { token });
const liveSessions = (userId: string, query = '', token = game.tokens) =>
  server.call('GET', `/v1/user/${userId}/sessions${query}`, { token });

const endedWith = (code: 'SESSION_ENDED' | 'PLAYER_EXCLUDED') => [
  { code, message: PLAY_ERRORS[code].en },
  'disconnect',
];

describe('DELETE /v1/game/session/{sessionId}', () => {
  it('tells the live socket session-ended and closes it; the next connect and buy are refused', async () => {
    const seat = await newSeat();
    const player = await connect(seat);
    // A request first, so this process keeps the session in its records' cache.
    expect((await player.ask('state')).ok).toBe(true);

    const ended = await endSession(seat.sessionId);
    expect(ended).toMatchObject({ status: 200, body: { status: 'success' } });
    expect(await player.ended).toEqual(endedWith('SESSION_ENDED'));

    expect(await connectError(seat.token)).toBe('SESSION_ENDED');
    const buy = await server.running.app.services.play.buy(seat.sessionId);
    expect(buy).toEqual({ ok: false, code: 'SESSION_ENDED' });
    expect(await server.deps.store.rounds.findLiveRound(seat.playerId)).toBeUndefined();
    expect((await liveSessions(seat.playerId)).body.data).toEqual([]);

    // Ending it again answers the same and changes nothing; each answered DELETE is audited.
    expect((await endSession(seat.sessionId)).status).toBe(200);
    expect((await server.deps.store.sessions.findById(seat.sessionId))?.endCode).toBe('SESSION_ENDED');
    const audit = await server.call('GET', '/v1/audit', { token: game.tokens });
    const entries = audit.body.data.filter((entry: any) => entry.targetId === seat.sessionId);
    expect(entries.map((entry: any) => entry.operation).sort()).toEqual([
      'DELETE /v1/game/session/:sessionId',
      'DELETE /v1/game/session/:sessionId',
      'POST /v1/game/session',
    ]);
  });

  it('is kept by the round’s insert where its word never came: the buy is refused, no bet sent, nothing written', async () => {
    const seat = await newSeat();
    const player = await connect(seat);
    expect((await player.ask('state')).ok).toBe(true); // this process keeps the session
    // Ended as another process would, whose word to this one was lost (a dropped NOTIFY).
    expect(
      await server.deps.store.sessions.end(seat.sessionId, 'SESSION_ENDED', new Date().toISOString()),
    ).toBe(true);
    const betsBefore = operator.calls.filter((c) => c.kind === 'bet').length;

    const buy = await player.ask('buy');
    expect(buy).toMatchObject({ ok: false, error: { code: 'SESSION_ENDED' } });
    expect(operator.calls.filter((c) => c.kind === 'bet')).toHaveLength(betsBefore);
    expect(await server.deps.store.rounds.findLiveRound(seat.playerId)).toBeUndefined();
    // Known ended here from then on, without another insert.
    expect(await player.ask('state')).toMatchObject({ ok: false, error: { code: 'SESSION_ENDED' } });
  });

  it('answers 404 for an unknown session and the same for another client’s, 401 without a token, 400 for a bad id', async () => {
    const seat = await newSeat();
    const unknown = await endSession('nope');
    expect(unknown.status).toBe(404);
    expectAnsweredAsUnknown(await endSession(seat.sessionId, other), unknown, {
      theirs: seat.sessionId,
      unknown: 'nope',
    });
    expect((await server.call('DELETE', `/v1/game/session/${seat.sessionId}`)).status).toBe(401);
    expect((await endSession('x'.repeat(300))).status).toBe(400);
    // None of them ended it.
    expect(await connectError(seat.token)).toBeUndefined();
  });
});

describe('a buy in flight when its session is ended (issue 32)', () => {
  it('is answered with its round before the socket closes, and the round ends by the idle close', async () => {
    const seat = await newSeat();
    const player = await connect(seat);
    const order: string[] = [];
    player.socket.on('session-ended', () => order.push('session-ended'));
    player.socket.on('disconnect', () => order.push('disconnect'));
    // The bet is held at the wallet: the round and its bet are committed, the answer not yet.
    const bet = operator.holdNext('bet');
    // Noted in the acknowledgement itself: a promise's callback would run after the events that
    // arrived with it.
    const bought = new Promise<Ack<BuyAnswer>>((resolve) =>
      player.socket.emit('buy', (answer: Ack<BuyAnswer>) => {
        order.push('buy answered');
        resolve(answer);
      }),
    );
    await bet.arrived;
    expect((await endSession(seat.sessionId)).status).toBe(200);
    // Ended and known here: a new request is refused at once, while the socket waits for the buy.
    expect(await player.ask('state')).toMatchObject({ ok: false, error: { code: 'SESSION_ENDED' } });
    expect(order).toEqual([]);

    bet.answer();
    const answer = await bought;
    expect(await player.ended).toEqual(endedWith('SESSION_ENDED'));
    expect(order).toEqual(['buy answered', 'session-ended', 'disconnect']);
    if (!answer.ok) throw new Error(JSON.stringify(answer));
    const { roundId } = answer.data.round;
    expect(answer.data.round).toMatchObject({ status: 'open', price: 200 });
    expect((await server.deps.store.rounds.findRound(roundId))?.status).toBe('open');

    // No page can reveal it now: the idle close ends it like any other, and pays a won prize.
    server.clock.advance(server.config.ROUND_IDLE_TIMEOUT * 1000 + 1_000);
    expect(await server.running.app.services.play.closeIdleRounds()).toBeGreaterThanOrEqual(1);
    const closed = await server.deps.store.rounds.findRound(roundId);
    expect(closed?.status).toBe('closed');
    const prizes = operator.moves.filter((move) => move.roundId === roundId && move.kind === 'prize');
    expect(prizes.map((move) => move.cents)).toEqual(closed?.prizeMinor ? [closed.prizeMinor] : []);
  });
});

describe('an exclusion', () => {
  it('ends every live session of the player, and only theirs', async () => {
    const seat = await newSeat();
    const second = await seatPlayer(server, game, `ending-${players}`); // the same player, a second session
    expect(second.playerId).toBe(seat.playerId);
    const bystander = await newSeat();
    const tabs = [await connect(seat), await connect(seat), await connect(second)];
    const theirs = await connect(bystander);

    const excluded = await server.call('POST', `/v1/user/${seat.playerId}/exclusion`, {
      token: game.tokens,
      body: { until: null, reason: 'operator' },
    });
    expect(excluded.status).toBe(201);
    for (const tab of tabs) expect(await tab.ended).toEqual(endedWith('PLAYER_EXCLUDED'));
    expect(await connectError(seat.token)).toBe('PLAYER_EXCLUDED');
    expect(await connectError(second.token)).toBe('PLAYER_EXCLUDED');
    expect((await liveSessions(seat.playerId)).body.data).toEqual([]);

    expect((await theirs.ask('state')).ok).toBe(true);
    expect(theirs.socket.connected).toBe(true);
  });
});

describe('GET /v1/user/{userId}/sessions', () => {
  it('lists the live sessions, newest first, paged', async () => {
    const seat = await newSeat();
    const credential = `ending-${players}`;
    server.clock.advance(1_000);
    const second = await seatPlayer(server, game, credential);
    server.clock.advance(1_000);
    const third = await seatPlayer(server, game, credential);
    await endSession(second.sessionId);

    const listed = await liveSessions(seat.playerId);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((session: any) => session.id)).toEqual([third.sessionId, seat.sessionId]);
    expect(listed.body.data[0]).toEqual({
      id: third.sessionId,
      gameId: game.gameId,
      createdAt: expect.any(String),
      expireAt: expect.any(String),
      status: 'live',
    });
    expect(listed.body.pagination).toEqual({ pageIndex: 1, pageSize: 20, totalCount: 2 });
    const paged = await liveSessions(seat.playerId, '?pageIndex=2&pageSize=1');
    expect(paged.body.data.map((session: any) => session.id)).toEqual([seat.sessionId]);
    expect(paged.body.pagination).toEqual({ pageIndex: 2, pageSize: 1, totalCount: 2 });
  });

  it('refuses bad input: a page size out of range, an unknown or another client’s player', async () => {
    const seat = await newSeat();
    const bad = await liveSessions(seat.playerId, '?pageSize=101');
    expect(bad.status).toBe(400);
    expect(bad.body.messages).toEqual([expect.stringMatching(/^pageSize: /)]);
    const unknown = await liveSessions('nope');
    expect(unknown.status).toBe(404);
    expectAnsweredAsUnknown(await liveSessions(seat.playerId, '', other), unknown, {
      theirs: seat.playerId,
      unknown: 'nope',
    });
  });
});

describe('the history request', () => {
  it('answers the player’s last 10 rounds of this game with their cards, newest first', async () => {
    const seat = await newSeat();
    // The same player at another game of the profile: not in this game's history.
    const otherGame = await seatPlayer(
      server,
      { ...game, gameId: await gameOfProfile('frevo-da-sorte') },
      `ending-${players}`,
    );
    const player = await connect(seat);
    expect(await player.ask('history')).toEqual({ ok: true, data: { rounds: [] } });

    const played: PlayRound[] = [];
    for (let i = 0; i < HISTORY_ROUNDS + 2; i++) {
      server.clock.advance(1_000);
      const bought = await player.ask('buy');
      if (!bought.ok) throw new Error(JSON.stringify(bought));
      const revealed = await player.ask('reveal', { roundId: bought.data.round.roundId });
      if (!revealed.ok) throw new Error(JSON.stringify(revealed));
      played.push(revealed.data.round);
    }
    const away = await connect(otherGame);
    server.clock.advance(1_000);
    const awayRound = await away.ask('buy');
    expect(awayRound.ok).toBe(true);

    const history = await player.ask('history', {});
    if (!history.ok) throw new Error(JSON.stringify(history));
    const rounds = history.data.rounds as PlayRound[];
    expect(rounds).toEqual(played.slice(-HISTORY_ROUNDS).reverse());
    expect(rounds[0]).toMatchObject({ status: 'closed', price: 200, card: played.at(-1)?.card });

    const bad = await player.ask('history', { last: 20 });
    expect(bad).toEqual({
      ok: false,
      error: { code: 'INVALID_REQUEST', message: PLAY_ERRORS.INVALID_REQUEST.en },
    });
  });
});

/** A new active game of `gameModel` in the test's profile. */
async function gameOfProfile(gameModel: string): Promise<string> {
  const created = await server.call('POST', '/v1/game', {
    token: game.tokens,
    body: {
      profileId: game.profileId,
      gameModel,
      lang: 'en',
      currency: 'BRL',
      rtp: 0.9,
      sampling: 100_001,
      prizedPercent: 0.5,
      betPrice: 2,
      simulation: false,
      replacePreviousVersion: true,
    },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return created.body.data.id;
}

describe('the play rules in the state', () => {
  const stateWith = async (fields: Record<string, unknown>): Promise<PlayState['rules']> => {
    const changed = await server.call('PUT', `/v1/profile/${game.profileId}`, {
      token: game.tokens,
      body: fields,
    });
    expect(changed.status).toBe(200);
    const player = await connect(await newSeat());
    const state = await player.ask('state');
    if (!state.ok) throw new Error(JSON.stringify(state));
    return playStateSchema.parse(state.data).rules;
  };

  it('are the jurisdiction’s, with the game’s RTP and the profile’s responsible-gaming link', async () => {
    const link = 'https://casa.example/jogo-responsavel';
    // No jurisdiction: the game as it always was.
    expect(await stateWith({ jurisdiction: null, responsibleGamingUrl: null })).toEqual({
      ...DEFAULT_PLAY_RULES,
      rtp: 0.9,
      responsibleGamingUrl: null,
    });
    expect(await stateWith({ jurisdiction: 'GB', responsibleGamingUrl: link })).toMatchObject({
      minMsBetweenBuys: 5_000,
      revealAll: false,
      showElapsedTime: true,
      showNetPosition: true,
      showRtp: false,
      responsibleGamingUrl: link,
    });
    expect(await stateWith({ jurisdiction: 'BR' })).toMatchObject({
      minMsBetweenBuys: 0,
      revealAll: true,
      showRtp: true,
      ageNotice: 18,
      showResponsibleGamingLink: true,
      defaultRealityCheckMinutes: 60,
      rtp: 0.9,
      responsibleGamingUrl: link,
    });
    await stateWith({ jurisdiction: null, responsibleGamingUrl: null });
  });
});

describe.runIf(process.env.RASPA_TEST_STORE === 'postgres')(
  'two instances on one PostgreSQL database',
  () => {
    it('an exclusion made on one ends the player’s live socket on the other', async () => {
      const database = await createTestDatabase();
      const pools = [createPool(database.url, { max: 2 }), createPool(database.url, { max: 2 })];
      const [a, b] = await Promise.all(
        pools.map((pool) =>
          startTestServer({
            env: { ...LOCAL_INTEGRATION, DATABASE_URL: database.url },
            play: { tickMs: 60_000 },
            start: { socketAdapter: createPostgresAdapter(pool), releasePendingAtStart: false },
          }),
        ),
      );
      if (!a || !b) throw new Error('two instances');
      try {
        const setup = await setUpOperatorGame(a, operator);
        const seat = await newSeat(setup, a);
        const player = await connect(seat, b.url);
        expect((await player.ask('state')).ok).toBe(true);

        const excluded = await a.call('POST', `/v1/user/${seat.playerId}/exclusion`, {
          token: setup.tokens,
          body: { until: null, reason: 'self' },
        });
        expect(excluded.status).toBe(201);
        expect(await player.ended).toEqual(endedWith('PLAYER_EXCLUDED'));
        expect(await b.running.app.services.play.buy(seat.sessionId)).toEqual({
          ok: false,
          code: 'PLAYER_EXCLUDED',
        });
        expect(await connectError(seat.token, b.url)).toBe('PLAYER_EXCLUDED');
      } finally {
        for (const socket of sockets.splice(0)) socket.close();
        await Promise.all([a.close(), b.close()]);
        await Promise.all(pools.map((pool) => pool.end()));
        await database.drop();
      }
    });
  },
);
