import {
  buildLadder,
  GAME_MODELS,
  type GameModel,
  gameCreateData,
  gameFigures,
  type Ladder,
} from '@raspa/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnsweredAsUnknown } from './as-unknown.ts';
import { startTestServer, type TestServer, type TokenSet } from './harness.ts';

let server: TestServer;
let tokens: TokenSet;
let other: TokenSet;

const config = {
  gameModel: 'oxe-ganhei',
  lang: 'pt',
  currency: 'BRL',
  rtp: 0.9,
  sampling: 1_000_000,
  prizedPercent: 0.3,
  betPrice: 2,
  simulation: false,
  replacePreviousVersion: false,
} as const;

function ladderOf(input: {
  gameModel: GameModel;
  currency: string;
  rtp: number;
  sampling: number;
  prizedPercent: number;
  betPrice: number;
}): Ladder {
  const built = buildLadder(input);
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.ladder;
}

async function newProfile(token: TokenSet = tokens, currency = 'BRL'): Promise<string> {
  const answer = await server.call('POST', '/v1/profile', {
    token,
    body: { name: 'Games', type: 'demo', currency },
  });
  if (answer.status !== 201) throw new Error(JSON.stringify(answer.body));
  return answer.body.data.profileId;
}

async function listGames(profileId: string, token: TokenSet = tokens) {
  const answer = await server.call('GET', `/v1/game?profileId=${profileId}`, { token });
  expect(answer.status).toBe(200);
  return answer.body.data as Array<{ id: string; gameModel: string; version: number; active: boolean }>;
}

const versions = (games: Awaited<ReturnType<typeof listGames>>) =>
  games.map((game) => `${game.gameModel} v${game.version} ${game.active ? 'active' : 'inactive'}`);

beforeAll(async () => {
  server = await startTestServer();
  tokens = (await server.newClient()).tokens;
  other = (await server.newClient('Other operator')).tokens;
});
afterAll(() => server.close());

describe('POST /v1/game', () => {
  it('simulates: answers the whole game info with null id and version, and stores nothing', async () => {
    const profileId = await newProfile();
    const answer = await server.call('POST', '/v1/game', {
      token: tokens,
      body: { ...config, profileId, simulation: true },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      status: 'success',
      data: gameCreateData(ladderOf(config), { id: null, version: null, active: false }),
    });
    expect(await listGames(profileId)).toEqual([]);
  });

  it('stores version 1, active, with the ladder of buildLadder in the answer', async () => {
    const profileId = await newProfile();
    const answer = await server.call('POST', '/v1/game', { token: tokens, body: { ...config, profileId } });
    expect(answer.status).toBe(201);
    const id = answer.body.data.id;
    expect(id).toEqual(expect.any(String));
    expect(answer.body).toEqual({
      status: 'success',
      data: gameCreateData(ladderOf(config), { id, version: 1, active: true }),
    });
    expect(Object.keys(answer.body.data).sort()).toEqual(
      [
        'active',
        'gameModel',
        'id',
        'levels',
        'totalAmount',
        'totalDistribuitionAmount',
        'totalLevels',
        'totalPrized',
        'version',
      ].sort(),
    );
    expect(versions(await listGames(profileId))).toEqual(['oxe-ganhei v1 active']);
  });

  it('refuses a second version with 409 unless replacePreviousVersion, and then keeps the old one inactive', async () => {
    const profileId = await newProfile();
    const first = await server.call('POST', '/v1/game', { token: tokens, body: { ...config, profileId } });
    const refused = await server.call('POST', '/v1/game', {
      token: tokens,
      body: { ...config, profileId, rtp: 0.8 },
    });
    expect(refused).toMatchObject({
      status: 409,
      body: {
        status: 'error',
        code: 'CONFLICT',
        messages: [
          `profile ${profileId} already has an active oxe-ganhei game (version 1); send replacePreviousVersion: true to replace it`,
        ],
      },
    });
    expect(versions(await listGames(profileId))).toEqual(['oxe-ganhei v1 active']);

    const replaced = await server.call('POST', '/v1/game', {
      token: tokens,
      body: { ...config, profileId, rtp: 0.8, replacePreviousVersion: true },
    });
    expect(replaced.status).toBe(201);
    expect(replaced.body.data).toEqual(
      gameCreateData(ladderOf({ ...config, rtp: 0.8 }), {
        id: replaced.body.data.id,
        version: 2,
        active: true,
      }),
    );
    const games = await listGames(profileId);
    expect(versions(games)).toEqual(['oxe-ganhei v1 inactive', 'oxe-ganhei v2 active']);
    expect(games.map((game) => game.id)).toEqual([first.body.data.id, replaced.body.data.id]);
    expect(games.map((game) => (game as unknown as { rtp: number }).rtp)).toEqual([0.9, 0.8]);
  });

  it('counts versions per model: another model starts at version 1 beside the first', async () => {
    const profileId = await newProfile();
    await server.call('POST', '/v1/game', { token: tokens, body: { ...config, profileId } });
    const train = await server.call('POST', '/v1/game', {
      token: tokens,
      body: { ...config, profileId, gameModel: 'trem-de-ouro-v2' },
    });
    expect(train.body.data).toMatchObject({ gameModel: 'trem-de-ouro-v2', version: 1, active: true });
    expect(versions(await listGames(profileId))).toEqual([
      'oxe-ganhei v1 active',
      'trem-de-ouro-v2 v1 active',
    ]);
  });

  it('lets exactly one of two simultaneous first versions through', async () => {
    const profileId = await newProfile();
    const answers = await Promise.all(
      [0.8, 0.9].map((rtp) =>
        server.call('POST', '/v1/game', { token: tokens, body: { ...config, profileId, rtp } }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(versions(await listGames(profileId))).toEqual(['oxe-ganhei v1 active']);
  });

  it('works in minor units of the currency: JPY has none', async () => {
    const profileId = await newProfile(tokens, 'JPY');
    const body = { ...config, profileId, currency: 'JPY', betPrice: 300 };
    const answer = await server.call('POST', '/v1/game', { token: tokens, body });
    expect(answer.status).toBe(201);
    expect(answer.body.data.totalAmount).toBe(300_000_000);
    expect(answer.body.data).toEqual(
      gameCreateData(ladderOf(body), { id: answer.body.data.id, version: 1, active: true }),
    );
    const refused = await server.call('POST', '/v1/game', {
      token: tokens,
      body: { ...body, betPrice: 300.5, simulation: true },
    });
    expect(refused.body.messages).toEqual(['betPrice: 300.5 has too many decimals: JPY allows no decimals']);
  });

  it('refuses a body with every field missing, naming each one', async () => {
    const answer = await server.call('POST', '/v1/game', { token: tokens, body: {} });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      status: 'error',
      code: 'VALIDATION_ERROR',
      messages: [
        'profileId is required',
        'gameModel is required',
        'lang is required',
        'currency is required',
        'rtp is required',
        'sampling is required',
        'prizedPercent is required',
        'betPrice is required',
        'simulation is required',
        'replacePreviousVersion is required',
      ],
    });
  });

  const impossible = { ...config, sampling: 100_001, prizedPercent: 1, betPrice: 0.01 };
  const impossibleProblem = buildLadder(impossible);

  it.each([
    [{ gameModel: 'bingo' }, [`gameModel: must be one of ${GAME_MODELS.join(', ')}`]],
    [{ lang: 'fr' }, ['lang: must be pt, en or es']],
    [{ currency: 'brl' }, ['currency: must be an ISO 4217 code in capitals, e.g. BRL']],
    [{ rtp: '0.9' }, ['rtp: must be a number']],
    [{ rtp: 0.96 }, ['rtp: must be a number between 0.50 and 0.95']],
    [{ rtp: 0.49 }, ['rtp: must be a number between 0.50 and 0.95']],
    [{ rtp: 0.9123456 }, ['rtp: may have at most 6 decimals']],
    [{ sampling: 100_000 }, ['sampling: must be a whole number above 100000 and at most 100,000,000']],
    [{ sampling: 200_000.5 }, ['sampling: must be a whole number above 100000 and at most 100,000,000']],
    [{ sampling: 100_000_001 }, ['sampling: must be a whole number above 100000 and at most 100,000,000']],
    [{ prizedPercent: 0.19 }, ['prizedPercent: must be a number between 0.20 and 1.00']],
    [{ prizedPercent: 1.01 }, ['prizedPercent: must be a number between 0.20 and 1.00']],
    [{ betPrice: 0 }, ['betPrice: must be a positive number']],
    [{ betPrice: 100_001 }, ['betPrice: must be at most 100000']],
    [{ betPrice: 2.555 }, ['betPrice: 2.555 has too many decimals: BRL allows at most 2 decimals']],
    [{ simulation: 'no' }, ['simulation: must be true or false']],
    [{ replacePreviousVersion: 1 }, ['replacePreviousVersion: must be true or false']],
    [
      { rtp: 0.9123456, betPrice: 2.555 },
      [
        'rtp: may have at most 6 decimals',
        'betPrice: 2.555 has too many decimals: BRL allows at most 2 decimals',
      ],
    ],
    [impossible, [`ladder: ${impossibleProblem.ok ? '' : impossibleProblem.problems[0]?.message}`]],
  ])('refuses %o with 400 and stores nothing', async (change, messages) => {
    const profileId = await newProfile();
    const answer = await server.call('POST', '/v1/game', {
      token: tokens,
      body: { ...config, ...change, profileId },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 'error', code: 'VALIDATION_ERROR', messages });
    expect(await listGames(profileId)).toEqual([]);
  });

  it('refuses a currency its profile’s wallet does not take', async () => {
    const created = await server.call('POST', '/v1/profile', {
      token: tokens,
      body: { name: 'Reais only', type: 'demo', currencies: ['BRL'] },
    });
    const profileId = created.body.data.profileId;
    const answer = await server.call('POST', '/v1/game', {
      token: tokens,
      body: { ...config, profileId, currency: 'USD' },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        code: 'VALIDATION_ERROR',
        messages: [
          `currency: USD is not one of the currencies of profile ${profileId} (BRL), which its wallet takes`,
        ],
      },
    });
    expect(await listGames(profileId)).toEqual([]);
  });

  it('answers 400 for an unknown profile, and the same for another client’s, storing nothing', async () => {
    const theirs = await newProfile(other);
    const unknown = await server.call('POST', '/v1/game', {
      token: tokens,
      body: { ...config, profileId: 'no-such-profile' },
    });
    expect(unknown).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', messages: ['profileId: profile no-such-profile was not found'] },
    });
    for (const simulation of [false, true]) {
      const answer = await server.call('POST', '/v1/game', {
        token: tokens,
        body: { ...config, profileId: theirs, simulation },
      });
      expectAnsweredAsUnknown(answer, unknown, { theirs, unknown: 'no-such-profile' });
    }
    expect(await listGames(theirs, other)).toEqual([]);
  });

  it('refuses a missing token with 401 and a missing or wrong signature with 401 INVALID_SIGNATURE', async () => {
    const profileId = await newProfile();
    const body = { ...config, profileId };
    expect(await server.call('POST', '/v1/game', { body })).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
    expect(await server.call('POST', '/v1/game', { token: tokens, body, sign: false })).toMatchObject({
      status: 401,
      body: { code: 'INVALID_SIGNATURE' },
    });
    expect(
      await server.call('POST', '/v1/game', { token: tokens, body, sign: 'ab'.repeat(64) }),
    ).toMatchObject({
      status: 401,
      body: { code: 'INVALID_SIGNATURE' },
    });
    expect(await listGames(profileId)).toEqual([]);
  });
});

describe('GET /v1/game', () => {
  it('lists every version with every field of the spec’s list item', async () => {
    const profileId = await newProfile();
    const created = await server.call('POST', '/v1/game', {
      token: tokens,
      body: { ...config, profileId, lang: 'es', prizedPercent: 0.25, betPrice: 1.5 },
    });
    const ladder = ladderOf({ ...config, prizedPercent: 0.25, betPrice: 1.5 });
    const answer = await server.call('GET', `/v1/game?profileId=${profileId}`, { token: tokens });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'success',
      data: [
        {
          id: created.body.data.id,
          gameModel: 'oxe-ganhei',
          lang: 'es',
          currency: 'BRL',
          rtp: 0.9,
          maxBetPrize: gameFigures(ladder).maxBetPrize,
          sampling: 1_000_000,
          prizedPercent: 0.25,
          betPrice: 1.5,
          version: 1,
          active: true,
          mediaUrl: `${server.url}/media/covers/oxe-ganhei.svg`,
          levels: gameFigures(ladder).levels,
        },
      ],
    });
    expect(answer.body.data[0].levels).toHaveLength(8);
  });

  it('answers an empty list for a profile without games', async () => {
    const profileId = await newProfile();
    expect((await server.call('GET', `/v1/game?profileId=${profileId}`, { token: tokens })).body).toEqual({
      status: 'success',
      data: [],
    });
  });

  it('needs profileId (400), the caller’s own profile (400, as unknown) and a token (401)', async () => {
    expect(await server.call('GET', '/v1/game', { token: tokens })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', messages: ['profileId is required'] },
    });
    expect(await server.call('GET', '/v1/game?profileId=', { token: tokens })).toMatchObject({
      status: 400,
      body: { messages: ['profileId: must not be empty'] },
    });
    const theirs = await newProfile(other);
    const unknown = await server.call('GET', '/v1/game?profileId=nope', { token: tokens });
    expect(unknown).toMatchObject({
      status: 400,
      body: { messages: ['profileId: profile nope was not found'] },
    });
    expectAnsweredAsUnknown(
      await server.call('GET', `/v1/game?profileId=${theirs}`, { token: tokens }),
      unknown,
      { theirs, unknown: 'nope' },
    );
    expect(await server.call('GET', `/v1/game?profileId=${theirs}`)).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
  });
});

describe('PUT /v1/game/{id}', () => {
  async function twoVersions() {
    const profileId = await newProfile();
    const v1 = await server.call('POST', '/v1/game', { token: tokens, body: { ...config, profileId } });
    const v2 = await server.call('POST', '/v1/game', {
      token: tokens,
      body: { ...config, profileId, replacePreviousVersion: true },
    });
    return { profileId, v1: v1.body.data.id as string, v2: v2.body.data.id as string };
  }

  it('deactivates, and activating one version deactivates the other', async () => {
    const { profileId, v1, v2 } = await twoVersions();
    const off = await server.call('PUT', `/v1/game/${v2}`, {
      token: tokens,
      body: { active: false, profileId },
    });
    expect(off).toMatchObject({ status: 200, body: { status: 'success' } });
    expect(off.body).toEqual({ status: 'success' });
    expect(versions(await listGames(profileId))).toEqual([
      'oxe-ganhei v1 inactive',
      'oxe-ganhei v2 inactive',
    ]);

    await server.call('PUT', `/v1/game/${v1}`, { token: tokens, body: { active: true, profileId } });
    expect(versions(await listGames(profileId))).toEqual(['oxe-ganhei v1 active', 'oxe-ganhei v2 inactive']);

    await server.call('PUT', `/v1/game/${v2}`, { token: tokens, body: { active: true, profileId } });
    expect(versions(await listGames(profileId))).toEqual(['oxe-ganhei v1 inactive', 'oxe-ganhei v2 active']);

    const again = await server.call('PUT', `/v1/game/${v2}`, {
      token: tokens,
      body: { active: true, profileId },
    });
    expect(again.status).toBe(200);
    expect(versions(await listGames(profileId))).toEqual(['oxe-ganhei v1 inactive', 'oxe-ganhei v2 active']);
  });

  it('touches only the same model: another model’s active version stays active', async () => {
    const { profileId, v1 } = await twoVersions();
    await server.call('POST', '/v1/game', {
      token: tokens,
      body: { ...config, profileId, gameModel: 'fera-sortuda' },
    });
    await server.call('PUT', `/v1/game/${v1}`, { token: tokens, body: { active: true, profileId } });
    expect(versions(await listGames(profileId))).toEqual([
      'fera-sortuda v1 active',
      'oxe-ganhei v1 active',
      'oxe-ganhei v2 inactive',
    ]);
  });

  it('creates the next version without replacePreviousVersion once no version is active', async () => {
    const { profileId, v2 } = await twoVersions();
    await server.call('PUT', `/v1/game/${v2}`, { token: tokens, body: { active: false, profileId } });
    const v3 = await server.call('POST', '/v1/game', { token: tokens, body: { ...config, profileId } });
    expect(v3.body.data).toMatchObject({ version: 3, active: true });
    expect(versions(await listGames(profileId))).toEqual([
      'oxe-ganhei v1 inactive',
      'oxe-ganhei v2 inactive',
      'oxe-ganhei v3 active',
    ]);
  });

  it('answers 404 for an unknown game and the same for another client’s, 400 for the wrong profile; nothing changes', async () => {
    const { profileId, v2 } = await twoVersions();
    const unknown = await server.call('PUT', '/v1/game/no-such-game', {
      token: tokens,
      body: { active: false, profileId },
    });
    expect(unknown).toMatchObject({
      status: 404,
      body: { status: 'error', code: 'NOT_FOUND', messages: ['game no-such-game was not found'] },
    });
    expectAnsweredAsUnknown(
      await server.call('PUT', `/v1/game/${v2}`, { token: other, body: { active: false, profileId } }),
      unknown,
      { theirs: v2, unknown: 'no-such-game' },
    );
    const elsewhere = await newProfile();
    expect(
      await server.call('PUT', `/v1/game/${v2}`, {
        token: tokens,
        body: { active: false, profileId: elsewhere },
      }),
    ).toMatchObject({
      status: 400,
      body: {
        code: 'VALIDATION_ERROR',
        messages: [`profileId: game ${v2} is not a game of profile ${elsewhere}`],
      },
    });
    expect(versions(await listGames(profileId))).toEqual(['oxe-ganhei v1 inactive', 'oxe-ganhei v2 active']);
  });

  it('validates the body and needs a signature; nothing changes', async () => {
    const { profileId, v2 } = await twoVersions();
    expect(await server.call('PUT', `/v1/game/${v2}`, { token: tokens, body: {} })).toMatchObject({
      status: 400,
      body: { messages: ['active is required', 'profileId is required'] },
    });
    expect(
      await server.call('PUT', `/v1/game/${v2}`, { token: tokens, body: { active: 'false', profileId } }),
    ).toMatchObject({ status: 400, body: { messages: ['active: must be true or false'] } });
    expect(
      await server.call('PUT', `/v1/game/${v2}`, {
        token: tokens,
        body: { active: false, profileId },
        sign: false,
      }),
    ).toMatchObject({ status: 401, body: { code: 'INVALID_SIGNATURE' } });
    expect(await server.call('PUT', `/v1/game/${v2}`, { body: { active: false, profileId } })).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
    expect(versions(await listGames(profileId))).toEqual(['oxe-ganhei v1 inactive', 'oxe-ganhei v2 active']);
  });
});

describe('GET /media/covers/{model}.svg', () => {
  it.each(GAME_MODELS)('serves the cover of %s as SVG with a long cache', async (model) => {
    const response = await fetch(`${server.url}/media/covers/${model}.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(response.headers.get('cache-control')).toBe('public, max-age=2592000');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const svg = await response.text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="600" height="400"/);
    expect(svg).toContain('<title id="t">');
    expect(svg).not.toMatch(/<script|on\w+=/i);
  });

  it('gives each model its own picture', async () => {
    const bodies = await Promise.all(
      GAME_MODELS.map(async (model) => (await fetch(`${server.url}/media/covers/${model}.svg`)).text()),
    );
    expect(new Set(bodies).size).toBe(GAME_MODELS.length);
  });

  it('answers 404 with the error envelope for anything else', async () => {
    for (const path of ['/media/covers/bingo.svg', '/media/covers/..%2Fcover-url.ts', '/media/covers/']) {
      const answer = await server.call('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
    }
  });

  it('is where the game list’s mediaUrl points', async () => {
    const profileId = await newProfile();
    await server.call('POST', '/v1/game', {
      token: tokens,
      body: { ...config, profileId, gameModel: 'frevo-da-sorte' },
    });
    const [game] = (await server.call('GET', `/v1/game?profileId=${profileId}`, { token: tokens })).body.data;
    const cover = await fetch(game.mediaUrl);
    expect(cover.status).toBe(200);
    expect(await cover.text()).toContain('Frevo da Sorte');
  });
});
