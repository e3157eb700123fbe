import { buyAnswerSchema, playStateSchema } from '@raspa/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetSettings } from './fleet-scenario.ts';
import { LOCAL_INTEGRATION, startTestServer, type TestServer } from './harness.ts';
import { connectPlayer, eventually, type GameSetup, seatPlayer, setUpOperatorGame } from './play-fixtures.ts';
import { RETRY_ONCE_IN_CI, startServiceProcess } from './service-process.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * Playing free cards (issue 26, docs/promotions.md): a card played without a bet and its prize sent
 * with its promotionId; a card used exactly once under 50 concurrent buys and across a SIGKILL;
 * expiry and cancellation while a card is in play. Both databases (the SIGKILL: PostgreSQL, below).
 */

let operator: TestOperator;
let server: TestServer;
let game: GameSetup;
const onPostgres = process.env.RASPA_TEST_STORE === 'postgres';
const HOUR = 3_600_000;

beforeAll(async () => {
  operator = await startTestOperator();
  // The ticker's idle close stays out of the way (a tick the tests never reach).
  server = await startTestServer({ env: LOCAL_INTEGRATION, play: { tickMs: 3_600_000 } });
  // Every card wins, so every reveal sends a /prize.
  game = await setUpOperatorGame(server, operator, { prizedPercent: 1 });
});
afterAll(async () => {
  await server?.close();
  await operator?.close();
});

const play = () => server.running.app.services.play;
const later = (ms: number) => new Date(server.clock().getTime() + ms).toISOString();

async function ok<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const answer = await server.call(method, path, { token: game.tokens, ...(body !== undefined && { body }) });
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** A promotion of the game giving each of `players` `cards` cards; its id. */
async function grant(players: string[], cards: number, expireInMs = HOUR): Promise<string> {
  const { promotionId } = await ok('POST', '/v1/promotion', {
    profileId: game.profileId,
    gameId: game.gameId,
    name: 'Welcome',
    cardsPerPlayer: cards,
    players,
    expireAt: later(expireInMs),
  });
  return promotionId;
}

const used = async (promotionId: string): Promise<number> =>
  (await ok('GET', `/v1/promotion/${promotionId}`)).used;

/** The wallet calls of one kind for a round. */
const callsOf = (kind: string, roundId: string) =>
  operator.calls.filter((call) => call.kind === kind && call.body.roundId === roundId);

/** Reveals the round and waits until its prize reached the wallet (every card wins here). */
async function revealPaid(sessionId: string, roundId: string) {
  const revealed = await play().reveal(sessionId, roundId);
  expect(revealed.ok).toBe(true);
  return eventually(() => callsOf('prize', roundId)[0]);
}

describe('a player with free cards', () => {
  it('plays them without a bet, the prize carrying the promotion, then buys', async () => {
    const { playerId, token } = await seatPlayer(server, game, 'free-two');
    const promotionId = await grant([playerId], 2);
    const tab = await connectPlayer(server.url, token);
    try {
      const state = await tab.ask('state');
      expect(state.ok && playStateSchema.parse(state.data).freeCards).toEqual({
        count: 2,
        expireAt: later(HOUR),
      });
      for (const left of [1, 0]) {
        const bought = await tab.ask('buy');
        if (!bought.ok) throw new Error(JSON.stringify(bought.error));
        const { round, freeCards } = buyAnswerSchema.parse(bought.data);
        expect(round.price).toBe(0);
        expect(freeCards.count).toBe(left);
        expect(callsOf('bet', round.roundId)).toEqual([]);
        expect((await tab.ask('reveal', { roundId: round.roundId })).ok).toBe(true);
        const prize = await eventually(() => callsOf('prize', round.roundId)[0]);
        expect(prize.body.promotionId).toBe(promotionId);
      }
      expect(await used(promotionId)).toBe(2);
      const state2 = await tab.ask('state');
      expect(state2.ok && state2.data.freeCards).toEqual({ count: 0, expireAt: null });

      // No card left: bought, with a /bet, and a prize without promotionId.
      const bought = await tab.ask('buy');
      if (!bought.ok) throw new Error(JSON.stringify(bought.error));
      const { round, freeCards } = buyAnswerSchema.parse(bought.data);
      expect(round.price).toBe(200);
      expect(freeCards).toEqual({ count: 0, expireAt: null });
      expect(callsOf('bet', round.roundId)).toHaveLength(1);
      await tab.ask('reveal', { roundId: round.roundId });
      const prize = await eventually(() => callsOf('prize', round.roundId)[0]);
      expect(prize.body).not.toHaveProperty('promotionId');
      expect(await used(promotionId)).toBe(2);
    } finally {
      tab.close();
    }
  });

  it('uses one card once under 50 concurrent buys', async () => {
    const { playerId, sessionId } = await seatPlayer(server, game, 'free-racer');
    const promotionId = await grant([playerId], 1);
    const results = await Promise.all(Array.from({ length: 50 }, () => play().buy(sessionId)));
    const opened = results.flatMap((result) => (result.ok ? [result.data.round] : []));
    const refused = results.flatMap((result) => (result.ok ? [] : [result.code]));
    // The card's round is live from the first commit on: every other buy meets it.
    expect(opened.map((round) => round.price)).toEqual([0]);
    expect(new Set(refused)).toEqual(new Set(['ROUND_IN_PROGRESS']));
    expect(await used(promotionId)).toBe(1);
    const [round] = opened;
    if (!round) throw new Error('no round opened');
    expect(callsOf('bet', round.roundId)).toEqual([]);
    await revealPaid(sessionId, round.roundId);
    // The next buy is bought.
    const next = await play().buy(sessionId);
    expect(next.ok && next.data.round.price).toBe(200);
    if (next.ok) await revealPaid(sessionId, next.data.round.roundId);
    expect(await used(promotionId)).toBe(1);
  });

  it('finishes a card in play when its promotion expires or is cancelled, and uses no other', async () => {
    const expiring = await seatPlayer(server, game, 'free-expiring');
    const cancelled = await seatPlayer(server, game, 'free-cancelled');
    const expiringId = await grant([expiring.playerId], 2, 10 * 60_000);
    const cancelledId = await grant([cancelled.playerId], 2);

    const first = await play().buy(expiring.sessionId);
    const second = await play().buy(cancelled.sessionId);
    if (!first.ok || !second.ok) throw new Error('a free card was not played');
    expect([first.data.round.price, second.data.round.price]).toEqual([0, 0]);

    server.clock.advance(10 * 60_000); // the first promotion ends at this instant
    expect((await ok('DELETE', `/v1/promotion/${cancelledId}`)).status).toBe('cancelled');

    // Both rounds finish, their prizes paid as the cards' (docs/promotions.md).
    for (const [seat, round, promotionId] of [
      [expiring, first.data.round, expiringId],
      [cancelled, second.data.round, cancelledId],
    ] as const) {
      const prize = await revealPaid(seat.sessionId, round.roundId);
      expect(prize.body.promotionId).toBe(promotionId);
      const state = await play().state(seat.sessionId);
      expect(state.ok && state.data.freeCards).toEqual({ count: 0, expireAt: null });
      // The card left is not used: the buy is bought.
      const next = await play().buy(seat.sessionId);
      expect(next.ok && next.data.round.price).toBe(200);
      if (next.ok) await revealPaid(seat.sessionId, next.data.round.roundId);
      expect(await used(promotionId)).toBe(1);
    }
  });
});

describe('a card of a replaced game version (docs/contract.md §14, our decisions)', () => {
  it('is played in a session of the next version at the same price, from its pool; not at another price', async () => {
    // A profile of its own: replacing its versions leaves the other tests' game alone.
    const v1 = await setUpOperatorGame(server, operator, { prizedPercent: 1 });
    const call = async (method: string, path: string, body?: unknown) => {
      const answer = await server.call(method, path, {
        token: v1.tokens,
        ...(body !== undefined && { body }),
      });
      if (answer.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(answer.body)}`);
      return answer.body.data;
    };
    const version = async (betPrice: number): Promise<GameSetup> => {
      const { id } = await call('POST', '/v1/game', {
        profileId: v1.profileId,
        gameModel: 'oxe-ganhei',
        lang: 'en',
        currency: 'BRL',
        rtp: 0.9,
        sampling: 100_001,
        prizedPercent: 1,
        betPrice,
        simulation: false,
        replacePreviousVersion: true,
      });
      return { ...v1, gameId: id };
    };
    const [kept, repriced] = await Promise.all([
      seatPlayer(server, v1, 'version-kept'),
      seatPlayer(server, v1, 'version-repriced'),
    ]);
    const { promotionId } = await call('POST', '/v1/promotion', {
      profileId: v1.profileId,
      gameId: v1.gameId,
      name: 'Welcome',
      cardsPerPlayer: 1,
      players: [kept.playerId, repriced.playerId],
      expireAt: later(HOUR),
    });

    // Version 2, same price: the card of version 1 is played there, a ticket of version 2's pool.
    const v2 = await version(2);
    const onV2 = await seatPlayer(server, v2, 'version-kept');
    const state = await play().state(onV2.sessionId);
    expect(state.ok && state.data.freeCards).toEqual({ count: 1, expireAt: later(HOUR) });
    const free = await play().buy(onV2.sessionId);
    if (!free.ok) throw new Error(JSON.stringify(free));
    expect(free.data.round.price).toBe(0);
    expect(callsOf('bet', free.data.round.roundId)).toEqual([]);
    const round = await call('GET', `/v1/round/${free.data.round.roundId}`);
    expect([round.gameId, round.promotionId]).toEqual([v2.gameId, promotionId]);
    const [pool] = await call('GET', `/v1/game/${v2.gameId}/pools`);
    expect(round.ticket.poolId).toBe(pool.poolId);
    const prize = await revealPaid(onV2.sessionId, free.data.round.roundId);
    expect(prize.body.promotionId).toBe(promotionId);

    // Version 3 costs more: a card worth 2 BRL does not buy a 5 BRL card there; it stays listed.
    const v3 = await version(5);
    const onV3 = await seatPlayer(server, v3, 'version-repriced');
    const priced = await play().state(onV3.sessionId);
    expect(priced.ok && priced.data.freeCards).toEqual({ count: 0, expireAt: null });
    const bought = await play().buy(onV3.sessionId);
    if (!bought.ok) throw new Error(JSON.stringify(bought));
    expect(bought.data.round.price).toBe(500);
    expect(callsOf('bet', bought.data.round.roundId)).toHaveLength(1);
    await revealPaid(onV3.sessionId, bought.data.round.roundId);
    expect((await call('GET', `/v1/promotion/${promotionId}`)).used).toBe(1);
    const left = await call('GET', `/v1/user/${repriced.playerId}/free-cards`);
    expect(left.freeCards).toEqual([expect.objectContaining({ promotionId, left: 1 })]);
  });
});

/**
 * SIGKILL between the card's use and its round's opening. They are one unit, so the kill is made
 * where the unit waits between them: the test holds a live round of the player in an uncommitted
 * transaction, so the service's round insert waits on the one-live-round index after its grant's
 * UPDATE ran. PostgreSQL only: SQLite runs a unit's statements in one synchronous turn, with no
 * wait between them to kill in (its transaction is all or nothing the same way).
 */
describe.runIf(onPostgres)('a SIGKILL between using a card and opening its round', RETRY_ONCE_IN_CI, () => {
  it('loses no card and uses none twice', async () => {
    const url = server.config.DATABASE_URL;
    if (!url) throw new Error('no DATABASE_URL');
    const { playerId, sessionId, token } = await seatPlayer(server, game, 'free-killed');
    const promotionId = await grant([playerId], 1);
    const service = await startServiceProcess({
      ...fleetSettings('rsp_free-cards-kill-api-key-0123456789'),
      DATABASE_URL: url,
      // Its secret.key: the pool's seed is sealed with it.
      DATA_DIR: server.config.DATA_DIR,
      WORKERS: '1',
      LOG_LEVEL: 'warn',
    });
    const blocker = new pg.Client({ connectionString: url });
    const watcher = new pg.Client({ connectionString: url });
    await Promise.all([blocker.connect(), watcher.connect()]);
    try {
      // The service's own process reads the real clock, this one the test clock: the session and
      // the promotion are made to hold for both.
      await watcher.query("UPDATE game_sessions SET expire_at = '2999-01-01T00:00:00.000Z' WHERE id = $1", [
        sessionId,
      ]);
      await watcher.query(
        "UPDATE promotions SET start_at = '2000-01-01T00:00:00.000Z', expire_at = '2999-01-01T00:00:00.000Z' WHERE id = $1",
        [promotionId],
      );
      const gameRow = await server.deps.store.games.findById(game.gameId);
      const at = server.clock().toISOString();
      await blocker.query('BEGIN');
      await blocker.query(
        `INSERT INTO rounds (id, client_id, profile_id, game_id, player_id, session_id, status, currency,
           paid_minor, prize_minor, created_at, last_action_at, reconciliation)
         VALUES ('blocking-round', $1, $2, $3, $4, $5, 'open', 'BRL', 200, 0, $6, $6, false)`,
        [gameRow?.clientId, game.profileId, game.gameId, playerId, sessionId, at],
      );
      const tab = await connectPlayer(service.url, token);
      void tab.ask('buy').catch(() => {});
      // The service's unit: its grant UPDATE done (the row lock held), its round insert waiting.
      const pid = await eventually(async () => {
        const waiting = await watcher.query(
          `SELECT a.pid FROM pg_stat_activity a WHERE a.datname = current_database()
             AND a.wait_event_type = 'Lock' AND a.query LIKE 'INSERT INTO rounds%'
             AND EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.granted
               AND l.relation = 'promotion_grants'::regclass AND l.mode = 'RowExclusiveLock')`,
        );
        return waiting.rows[0]?.pid as number | undefined;
      });
      expect(pid).toBeGreaterThan(0);
      service.child.kill('SIGKILL');
      await new Promise((resolve) => service.child.once('exit', resolve));
      tab.close();
      await blocker.query('ROLLBACK');
      // The killed unit left nothing: the card is still there.
      await eventually(async () => {
        const gone = await watcher.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
        return gone.rowCount === 0;
      });
      expect(await used(promotionId)).toBe(0);
      const rounds = await watcher.query('SELECT count(*)::int AS n FROM rounds WHERE promotion_id = $1', [
        promotionId,
      ]);
      expect(rounds.rows[0].n).toBe(0);

      // And it is played once.
      const bought = await play().buy(sessionId);
      expect(bought.ok && bought.data.round.price).toBe(0);
      expect(await used(promotionId)).toBe(1);
      if (bought.ok) await revealPaid(sessionId, bought.data.round.roundId);
      const again = await play().buy(sessionId);
      expect(again.ok && again.data.round.price).toBe(200);
      if (again.ok) await revealPaid(sessionId, again.data.round.roundId);
    } finally {
      if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
      await Promise.all([blocker.end(), watcher.end()]);
    }
    // The service's own process starts with tsx's loader: slow on a loaded 2-core machine.
  }, 120_000);
});
