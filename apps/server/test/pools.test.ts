import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameRecord } from '../src/store/records.ts';
import { expectAnsweredAsUnknown } from './as-unknown.ts';
import { startTestServer, type TestServer, type TokenSet } from './harness.ts';
import { seatPlayer } from './play-fixtures.ts';
import { drawPoolTo } from './pool-fixtures.ts';

let server: TestServer;
let tokens: TokenSet;
let other: TokenSet;
let profileId: string;
let sessionId: string;
let player: { sessionId: string; playerId: string };
let gameId: string;
let freshGameId: string;

const SAMPLING = 100_001;
const HEX64 = /^[0-9a-f]{64}$/;

async function createGame(gameModel: string): Promise<string> {
  const created = await server.call('POST', '/v1/game', {
    token: tokens,
    body: {
      profileId,
      gameModel,
      lang: 'en',
      currency: 'BRL',
      rtp: 0.9,
      sampling: SAMPLING,
      prizedPercent: 0.5,
      betPrice: 1,
      simulation: false,
      replacePreviousVersion: false,
    },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return created.body.data.id;
}

async function buyAndReveal(): Promise<void> {
  const play = server.running.app.services.play;
  const bought = await play.buy(sessionId);
  if (!bought.ok) throw new Error(`buy refused: ${bought.code}`);
  const revealed = await play.reveal(sessionId, bought.data.round.roundId);
  if (!revealed.ok) throw new Error(`reveal refused: ${revealed.code}`);
}

const listPools = (id: string, token: TokenSet | string | null = tokens) =>
  server.call('GET', `/v1/game/${encodeURIComponent(id)}/pools`, { token });

beforeAll(async () => {
  server = await startTestServer({ play: { tickMs: 3_600_000 } });
  tokens = (await server.newClient()).tokens;
  other = (await server.newClient('Other operator')).tokens;
  const profile = await server.call('POST', '/v1/profile', {
    token: tokens,
    body: { name: 'Demo room', type: 'demo', currency: 'BRL' },
  });
  profileId = profile.body.data.profileId;
  gameId = await createGame('oxe-ganhei');
  freshGameId = await createGame('fera-sortuda');
  const seated = await seatPlayer(server, { tokens, profileId, gameId }, 'pool-player');
  sessionId = seated.sessionId;
  player = seated;
});
afterAll(() => server.close());

describe('GET /v1/game/{id}/pools', () => {
  it('lists no pool before the first ticket is drawn', async () => {
    expect(await listPools(freshGameId)).toMatchObject({
      status: 200,
      body: { status: 'success', data: [] },
    });
  });

  it('publishes the commitment of the running pool, never its seed', async () => {
    await buyAndReveal();
    server.clock.advance(1000);
    await buyAndReveal();
    const answer = await listPools(gameId);
    expect(answer.status).toBe(200);
    const current = await server.deps.store.pools.findCurrent(gameId);
    expect(answer.body).toEqual({
      status: 'success',
      data: [
        {
          poolId: current?.id,
          number: 1,
          sampling: SAMPLING,
          commitment: current?.commitment,
          draws: 2,
          startedAt: '2026-03-01T12:00:00.000Z',
          endedAt: null,
          seed: null,
        },
      ],
    });
    expect(answer.body.data[0].commitment).toMatch(HEX64);
    const sealed = current?.seedSealed ?? '';
    expect(JSON.stringify(answer.body)).not.toContain(sealed);
    expect(JSON.stringify(answer.body)).not.toContain(server.deps.secrets.open(sealed));
  });

  it('publishes the seed once the pool is used up, whose SHA-256 is the commitment; the next pool has a new seed', async () => {
    // Draw the rest of pool 1 as play would (the rounds themselves are the full-pool test's subject).
    const game = (await server.deps.store.games.findById(gameId)) as GameRecord;
    server.clock.advance(60_000);
    const ended = await drawPoolTo(server.deps, game, player, 0);
    expect(ended.endedAt).toBe('2026-03-01T12:01:01.000Z');
    server.clock.advance(60_000);
    await buyAndReveal();

    const answer = await listPools(gameId);
    expect(answer.status).toBe(200);
    const [first, second] = answer.body.data;
    expect(answer.body.data).toHaveLength(2);
    expect(first).toMatchObject({
      number: 1,
      sampling: SAMPLING,
      draws: SAMPLING,
      startedAt: '2026-03-01T12:00:00.000Z',
      endedAt: '2026-03-01T12:01:01.000Z',
      seed: expect.stringMatching(HEX64),
    });
    expect(createHash('sha256').update(Buffer.from(first.seed, 'hex')).digest('hex')).toBe(first.commitment);
    expect(second).toEqual({
      poolId: expect.any(String),
      number: 2,
      sampling: SAMPLING,
      commitment: expect.stringMatching(HEX64),
      draws: 1,
      startedAt: '2026-03-01T12:02:01.000Z',
      endedAt: null,
      seed: null,
    });
    expect(second.poolId).not.toBe(first.poolId);
    expect(second.commitment).not.toBe(first.commitment);
  });

  it('answers 401 without a valid bearer token', async () => {
    for (const token of [null, 'not-a-token']) {
      const answer = await listPools(gameId, token);
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ status: 'error', code: 'UNAUTHORIZED' });
    }
  });

  it("answers 404 for an unknown game, and the same for another API client's", async () => {
    const unknown = await listPools('no-such-game');
    expect(unknown).toMatchObject({
      status: 404,
      body: { status: 'error', code: 'NOT_FOUND', messages: ['game no-such-game was not found'] },
    });
    expectAnsweredAsUnknown(await listPools(gameId, other), unknown, {
      theirs: gameId,
      unknown: 'no-such-game',
    });
  });

  it('answers 400 for an id too long to be one', async () => {
    expect(await listPools('x'.repeat(101))).toMatchObject({
      status: 400,
      body: { status: 'error', code: 'VALIDATION_ERROR', messages: ['id: must be at most 100 characters'] },
    });
  });

  it('is in the OpenAPI document with its Pool schema', async () => {
    const document = (await server.call('GET', '/v1/openapi.json')).body;
    const operation = document.paths['/v1/game/{id}/pools'].get;
    expect(operation.security).toEqual([{ bearer: [] }]);
    expect(operation.parameters).toContainEqual(expect.objectContaining({ in: 'path', name: 'id' }));
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '401', '404', '500']);
    expect(operation.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PoolList',
    });
    const pool = document.components.schemas.Pool;
    expect(Object.keys(pool.properties).sort()).toEqual(
      ['commitment', 'draws', 'endedAt', 'number', 'poolId', 'sampling', 'seed', 'startedAt'].sort(),
    );
    expect(pool.required.sort()).toEqual(Object.keys(pool.properties).sort());
    expect(JSON.stringify(pool.properties.seed)).toContain('null');
  });
});

describe('a block whose every index was drawn but never closed', () => {
  it('is closed by the next process to take it over, so the pool ends and play goes on', async () => {
    const endGameId = await createGame('bumba-meu-green');
    const seated = await seatPlayer(server, { tokens, profileId, gameId: endGameId }, 'pool-orphan-player');
    const play = server.running.app.services.play;
    const { store } = server.deps;
    const game = (await store.games.findById(endGameId)) as GameRecord;
    const bought = await play.buy(seated.sessionId); // starts the pool
    if (!bought.ok) throw new Error(`buy refused: ${bought.code}`);
    await play.reveal(seated.sessionId, bought.data.round.roundId);
    // Another process draws every ticket left and dies before closing its last block (lease expired).
    const pool = await drawPoolTo(server.deps, game, seated, 0, { dieBeforeClose: true });
    expect((await store.pools.findById(pool.id))?.endedAt).toBeNull();
    expect(await store.pools.listBlocks(pool.id)).toHaveLength(1);

    // Before the fix this buy waited a lease and a half for an index, then failed.
    const next = await play.buy(seated.sessionId);
    expect(next.ok).toBe(true);
    const ended = await store.pools.findById(pool.id);
    expect(ended).toMatchObject({ draws: SAMPLING, seedHex: expect.stringMatching(HEX64) });
    expect(await store.pools.listBlocks(pool.id)).toEqual([]);
    const pools = await store.pools.listByGame(endGameId);
    expect(pools.map((each) => each.number)).toEqual([1, 2]);
  });
});

describe('the last tickets of a pool', () => {
  it('are given back by a process whose players stopped buying, and at a clean stop, for another to draw at once', async () => {
    const endGameId = await createGame('frevo-da-sorte');
    const seated = await seatPlayer(server, { tokens, profileId, gameId: endGameId }, 'pool-end-player');
    const play = server.running.app.services.play;
    const { store } = server.deps;
    const game = (await store.games.findById(endGameId)) as GameRecord;
    const buy = async () => {
      const bought = await play.buy(seated.sessionId);
      if (!bought.ok) throw new Error(`buy refused: ${bought.code}`);
      await play.reveal(seated.sessionId, bought.data.round.roundId);
    };
    await buy(); // starts the pool
    // An end-of-pool block: 16 tickets left, so this process takes 2 (an eighth of them).
    const pool = await drawPoolTo(server.deps, game, seated, 16);
    await buy();
    const held = (await store.pools.listBlocks(pool.id)).filter((block) => block.owner !== 'fixture');
    expect(held).toEqual([expect.objectContaining({ first: SAMPLING - 16, end: SAMPLING - 14 })]);
    expect(Date.parse(held[0]?.expiresAt ?? '')).toBeGreaterThan(server.clock().getTime());

    // Its player has just bought: the block stays.
    expect(await play.giveBackIdleBlocks()).toBe(0);
    server.clock.advance(2_000);
    expect(await play.giveBackIdleBlocks()).toBe(1);
    const now = server.clock().toISOString();
    expect(
      (await store.pools.listBlocks(pool.id)).find((block) => block.first === SAMPLING - 16)?.expiresAt,
    ).toBe(now);
    // Another process now takes it over, with the index already drawn, without waiting for its lease.
    const taken = await store.pools.takeBlock(pool.id, 'another', 8, now, '9999-12-31T23:59:59.999Z');
    expect(taken).toMatchObject({ first: SAMPLING - 16, end: SAMPLING - 14, drawn: [SAMPLING - 16] });

    // A clean stop gives back every block it holds, busy or not (the last test here: play stops).
    await buy();
    const mine = (await store.pools.listBlocks(pool.id)).filter(
      (block) => !['fixture', 'another'].includes(block.owner),
    );
    expect(mine).toEqual([expect.objectContaining({ first: SAMPLING - 14, end: SAMPLING - 12 })]);
    expect(mine[0]?.expiresAt).not.toBe(now);
    await play.stop();
    expect(
      (await store.pools.listBlocks(pool.id)).find((block) => block.first === SAMPLING - 14)?.expiresAt,
    ).toBe(server.clock().toISOString());
  });
});
