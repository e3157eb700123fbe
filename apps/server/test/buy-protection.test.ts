import { PLAY_ERRORS, playStateSchema } from '@raspa/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_INTEGRATION, startTestServer, type TestServer, type TokenSet } from './harness.ts';
import {
  connectPlayer,
  type GameSetup,
  type Player,
  seatPlayer,
  setUpOperatorGame,
} from './play-fixtures.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * Player protection in the buy (CONTRACT §13, docs/player-protection.md), over the socket on either
 * database: each check refuses before the wallet is called, so nothing is charged and no round is
 * written. The clock is the test's (2026-03-01T12:00Z, a Sunday); it only moves forward.
 */
const onPostgres = process.env.RASPA_TEST_STORE === 'postgres';
/** Both servers of the two-instance case read the same database's sealed secrets. */
const SECRET_KEY = 'b1'.repeat(32);
const PRICE = 200; // betPrice 2 (BRL): minor units
const MINUTE = 60_000;

let operator: TestOperator;
let server: TestServer;
let apiKey: string;
let tokens: TokenSet;
/** A profile in São Paulo's zone (UTC−3), and a GB one. */
let game: GameSetup;
let gbGame: GameSetup;
const sockets: Player[] = [];

beforeAll(async () => {
  operator = await startTestOperator();
  server = await startTestServer({ env: { ...LOCAL_INTEGRATION, SECRET_KEY } });
  const client = await server.newClient();
  ({ apiKey, tokens } = client);
  game = await setUpOperatorGame(server, operator, {}, tokens);
  gbGame = await setUpOperatorGame(server, operator); // another client: one webhook per URL and client
  const zoned = await server.call('PUT', `/v1/profile/${game.profileId}`, {
    token: tokens,
    body: { timezone: 'America/Sao_Paulo' },
  });
  expect(zoned.status).toBe(200);
  const gb = await server.call('PUT', `/v1/profile/${gbGame.profileId}`, {
    token: gbGame.tokens,
    body: { jurisdiction: 'GB' },
  });
  expect(gb.status).toBe(200);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.close();
  await operator?.close();
});

interface Seated {
  playerId: string;
  sessionId: string;
  credential: string;
  socket: Player;
}

/** A player's new session on `setup`'s game, connected over the socket of `on` (default: the server). */
async function seat(setup: GameSetup, credential: string, on: TestServer = server): Promise<Seated> {
  // The other games' clients logged in once: their tests keep within their tokens' 2 hours.
  const seated = await seatPlayer(server, setup === game ? { ...setup, tokens } : setup, credential);
  const socket = await connectPlayer(on.url, seated.token);
  sockets.push(socket);
  return { ...seated, credential, socket };
}

/** Moves the clock, and logs in again: a token set lives 2 hours. */
async function advance(ms: number) {
  server.clock.advance(ms);
  tokens = (await server.call('POST', '/v1/auth/login', { body: { apiKey } })).body.data;
}

const buy = (player: Seated) => player.socket.ask('buy');

async function buyAndReveal(player: Seated) {
  const bought = await buy(player);
  if (!bought.ok) throw new Error(`buy: ${bought.error.code}`);
  const revealed = await player.socket.ask('reveal', { roundId: bought.data.round.roundId });
  if (!revealed.ok) throw new Error(`reveal: ${revealed.error.code}`);
  return revealed.data.round;
}

/** A promotion of one free card of `setup`'s game for `player`, for an hour. */
async function grantOneCard(setup: GameSetup, player: Seated) {
  const granted = await server.call('POST', '/v1/promotion', {
    token: setup === game ? tokens : setup.tokens, // as seat() does
    body: {
      profileId: setup.profileId,
      gameId: setup.gameId,
      name: 'One card',
      cardsPerPlayer: 1,
      players: [player.playerId],
      expireAt: new Date(server.clock().getTime() + 60 * MINUTE).toISOString(),
    },
  });
  expect(granted.status).toBe(201);
  return granted;
}

const putLimits = (player: Seated, body: unknown) =>
  server.call('PUT', `/v1/user/${player.playerId}/limits`, { token: tokens, body });
const money = (type: string, period: string, amount: number) => ({ type, period, currency: 'BRL', amount });

/** What the wallet saw and the store holds of the player: bets sent, rounds written. */
async function charged(player: Seated) {
  const bets = operator.calls.filter((c) => c.kind === 'bet' && c.body.credential === player.credential);
  const rounds = await server.deps.store.protection.sessionRounds(player.playerId, player.sessionId, '');
  return { bets: bets.length, rounds: rounds.length };
}

/** The buy is refused with `code` and moves nothing; answers the error. */
async function refused(player: Seated, code: string) {
  const before = await charged(player);
  const answer = await buy(player);
  expect(answer).toMatchObject({ ok: false, error: { code } });
  expect(await charged(player)).toEqual(before);
  if (answer.ok) throw new Error('bought');
  return answer.error;
}

describe('loss and wager limits', () => {
  it('a wager limit: the card reaching it passes, the next is refused naming the limit and its reset', async () => {
    const player = await seat(game, 'wager-edge');
    expect((await putLimits(player, { limits: [money('wager', 'day', 6)] })).status).toBe(200);
    for (let i = 0; i < 3; i++) await buyAndReveal(player);
    const error = await refused(player, 'LIMIT_REACHED');
    // Dated in the profile's zone: São Paulo's next midnight is 03:00Z.
    expect(error.message).toMatch(
      /^This card would take you past your daily wager limit of R\$\s?6\.00\. It resets on 3\/2\/26, 12:00\sAM\. Nothing was charged\.$/u,
    );
  });

  it('a loss limit: a card crossing it by one minor unit is refused, one reaching it passes', async () => {
    const short = await seat(game, 'loss-short');
    await putLimits(short, { limits: [money('loss', 'day', (PRICE - 1) / 100)] });
    await refused(short, 'LIMIT_REACHED');

    const exact = await seat(game, 'loss-exact');
    await putLimits(exact, { limits: [money('loss', 'day', PRICE / 100)] });
    const round = await buyAndReveal(exact);
    // Loss now PRICE − prize: the next card crosses the limit unless the prize paid its price back.
    if (round.prize < PRICE) await refused(exact, 'LIMIT_REACHED');
    else expect(await buy(exact)).toMatchObject({ ok: true });
  });

  it('a free card is not played by a player at a loss limit either: the limit pauses play, the card stays', async () => {
    const player = await seat(game, 'loss-free-card');
    await putLimits(player, { limits: [money('loss', 'day', (PRICE - 1) / 100)] });
    const granted = await grantOneCard(game, player);
    await refused(player, 'LIMIT_REACHED');
    const promotion = await server.call('GET', `/v1/promotion/${granted.body.data.promotionId}`, {
      token: tokens,
    });
    expect(promotion.body.data.used).toBe(0);
  });

  it('20 buys at once by a player one card short of a loss limit open one round', async () => {
    const player = await seat(game, 'loss-burst');
    await putLimits(player, { limits: [money('loss', 'day', PRICE / 100)] });
    const answers = await Promise.all(Array.from({ length: 20 }, () => buy(player)));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    for (const answer of answers.filter((a) => !a.ok))
      expect(['ROUND_IN_PROGRESS', 'LIMIT_REACHED']).toContain(answer.ok ? '' : answer.error.code);
    expect(await charged(player)).toEqual({ bets: 1, rounds: 1 });
  });

  it('a wallet’s own LIMIT_REACHED and PLAYER_EXCLUDED declines reach the player as those errors', async () => {
    const player = await seat(game, 'wallet-says');
    operator.failNext('bet', 'limit-reached');
    expect(await buy(player)).toEqual({
      ok: false,
      error: { code: 'LIMIT_REACHED', message: PLAY_ERRORS.LIMIT_REACHED.en },
    });
    operator.failNext('bet', 'excluded');
    expect(await buy(player)).toEqual({
      ok: false,
      error: { code: 'PLAYER_EXCLUDED', message: PLAY_ERRORS.PLAYER_EXCLUDED.en },
    });
  });
});

describe('exclusion', () => {
  it('set while the player plays refuses the next buy even where the session was not ended; lifted, the player buys again', async () => {
    const player = await seat(game, 'excluded-midway');
    await buyAndReveal(player); // this process knows no protection of the player: the insert checks
    // Written as another instance would, whose ending of the session never reached this process
    // (the API's exclusion also ends the session: test/session-end.test.ts): the insert refuses.
    await server.deps.store.protection.setExclusion({
      playerId: player.playerId,
      reason: 'operator',
      endsAt: null,
      createdAt: server.clock().toISOString(),
    });
    expect((await refused(player, 'PLAYER_EXCLUDED')).message).toBe(PLAY_ERRORS.PLAYER_EXCLUDED.en);
    const lifted = await server.call('DELETE', `/v1/user/${player.playerId}/exclusion`, { token: tokens });
    expect(lifted.status).toBe(200);
    await buyAndReveal(player);
  });
});

describe('the session’s time and reality checks', () => {
  it('SESSION_TIME_LIMIT past sessionMinutes of the session; a new session may buy', async () => {
    const player = await seat(game, 'session-time');
    await putLimits(player, { limits: [], sessionMinutes: 30 });
    await buyAndReveal(player);
    await advance(30 * MINUTE - 1);
    await buyAndReveal(player);
    await advance(1);
    await refused(player, 'SESSION_TIME_LIMIT');
    await buyAndReveal(await seat(game, 'session-time'));
  });

  it('REALITY_CHECK with the session’s figures until reality-check-ack; an early ack puts nothing off', async () => {
    const player = await seat(game, 'reality-check');
    await putLimits(player, { limits: [], realityCheckMinutes: 20 });
    const round = await buyAndReveal(player);
    const start = server.clock().getTime();
    const dueAt = new Date(start + 20 * MINUTE).toISOString();
    expect(await player.socket.ask('reality-check-ack')).toEqual({
      ok: true,
      data: { realityCheckDueAt: dueAt },
    });
    await advance(20 * MINUTE);
    const error = await refused(player, 'REALITY_CHECK');
    expect(error.realityCheck).toEqual({
      elapsedMinutes: 20,
      wagered: PRICE,
      won: round.prize,
      net: round.prize - PRICE,
    });
    const next = new Date(start + 40 * MINUTE).toISOString();
    expect(await player.socket.ask('reality-check-ack')).toEqual({
      ok: true,
      data: { realityCheckDueAt: next },
    });
    await buyAndReveal(player);
    expect(await player.socket.ask('reality-check-ack', { extra: true })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REQUEST' },
    });
  });
});

describe('a reality check of the profile, for a player without limits', () => {
  it('is due an interval after the session’s start with no read before, and answered the same way', async () => {
    const checked = await setUpOperatorGame(server, operator);
    const set = await server.call('PUT', `/v1/profile/${checked.profileId}`, {
      token: checked.tokens,
      body: { realityCheckMinutes: 15 },
    });
    expect(set.status).toBe(200);
    const player = await seat(checked, 'profile-check');
    const round = await buyAndReveal(player);
    await advance(15 * MINUTE);
    expect((await refused(player, 'REALITY_CHECK')).realityCheck).toEqual({
      elapsedMinutes: 15,
      wagered: PRICE,
      won: round.prize,
      net: round.prize - PRICE,
    });
    expect(await player.socket.ask('reality-check-ack')).toMatchObject({ ok: true });
    await buyAndReveal(player);
  });
});

describe('the jurisdiction’s minimum time between buys (GB)', () => {
  it('BUY_TOO_SOON with when to retry, until 5 s after the last buy', async () => {
    const player = await seat(gbGame, 'gb-pace');
    const round = await buyAndReveal(player);
    const retryAt = new Date(Date.parse(round.createdAt) + 5000).toISOString();
    expect(await refused(player, 'BUY_TOO_SOON')).toMatchObject({ retryAt });
    await advance(4999);
    expect(await refused(player, 'BUY_TOO_SOON')).toMatchObject({ retryAt });
    await advance(1);
    await buyAndReveal(player);
  });
});

describe('the session’s figures in the play state (GB)', () => {
  const figuresOf = async (player: Seated) => {
    const state = await player.socket.ask('state');
    if (!state.ok) throw new Error(`state: ${state.error.code}`);
    return playStateSchema.parse(state.data).session;
  };

  it('zeros for a fresh session; then bought and free cards, won and lost, as a reality check counts them', async () => {
    const player = await seat(gbGame, 'gb-figures');
    const startedAt = (await server.deps.store.sessions.findById(player.sessionId))?.createdAt;
    const asOf = () => server.clock().toISOString();
    expect(await figuresOf(player)).toEqual({ startedAt, asOf: asOf(), wagered: 0, won: 0, net: 0 });
    await grantOneCard(gbGame, player);
    const seen = { wagered: 0, won: 0, free: 0, lost: 0, prized: 0 };
    for (let i = 0; i < 30 && (seen.free === 0 || seen.lost === 0 || seen.prized === 0); i++) {
      const round = await buyAndReveal(player);
      seen.wagered += round.price;
      seen.won += round.prize;
      if (round.price === 0) seen.free++;
      else if (round.prize > 0) seen.prized++;
      else seen.lost++;
      await advance(5000); // GB's gap between buys
    }
    expect(seen.free).toBe(1);
    expect(seen.lost * seen.prized).toBeGreaterThan(0);
    // A card in play counts its price, not yet its prize.
    const open = await buy(player);
    if (!open.ok) throw new Error(`buy: ${open.error.code}`);
    const wagered = seen.wagered + PRICE;
    const figures = { wagered, won: seen.won, net: seen.won - wagered };
    expect(await figuresOf(player)).toEqual({ startedAt, asOf: asOf(), ...figures });
    expect(await player.socket.ask('reveal', { roundId: open.data.round.roundId })).toMatchObject({
      ok: true,
    });
    const won = seen.won + open.data.round.prize;
    const closed = { wagered, won, net: won - wagered };
    expect(await figuresOf(player)).toMatchObject(closed);
    // The reality check of the same session counts the same.
    const limits = await server.call('PUT', `/v1/user/${player.playerId}/limits`, {
      token: gbGame.tokens,
      body: { limits: [], realityCheckMinutes: 1 },
    });
    expect(limits.status).toBe(200);
    await advance(MINUTE);
    expect((await refused(player, 'REALITY_CHECK')).realityCheck).toMatchObject(closed);
  });

  it('none without a jurisdiction that shows them', async () => {
    expect(await figuresOf(await seat(game, 'no-figures'))).toBeNull();
  });
});

describe('periods', () => {
  it('a daily limit resets at midnight in the profile’s zone, across sessions', async () => {
    const player = await seat(game, 'zone-reset');
    await putLimits(player, { limits: [money('wager', 'day', PRICE / 100)] });
    await buyAndReveal(player);
    await refused(player, 'LIMIT_REACHED');
    // The next São Paulo midnight (03:00Z); the session (2 hours) has expired by then.
    const midnight = Date.parse('2026-03-02T03:00:00.000Z');
    await advance(midnight - 1 - server.clock().getTime());
    await refused(await seat(game, 'zone-reset'), 'LIMIT_REACHED');
    await advance(1);
    await buyAndReveal(await seat(game, 'zone-reset'));
  });
});

describe.skipIf(!onPostgres)('two instances on one PostgreSQL database', () => {
  it('share the usage, and a limit set through one is enforced by the other at its next buy', async () => {
    const other = await startTestServer({
      env: { ...LOCAL_INTEGRATION, SECRET_KEY, DATABASE_URL: server.config.DATABASE_URL ?? '' },
    });
    try {
      other.clock.set(server.clock());
      // The player buys on the other instance first: it knows no protection of the player.
      const there = await seat(game, 'two-instances', other);
      const here = await seat(game, 'two-instances');
      await buyAndReveal(there);
      // Set through this instance: two cards of wager, one already used.
      await putLimits(here, { limits: [money('wager', 'day', (2 * PRICE) / 100)] });
      await buyAndReveal(there);
      await refused(here, 'LIMIT_REACHED');
      expect(await buy(there)).toMatchObject({ ok: false, error: { code: 'LIMIT_REACHED' } });
    } finally {
      await other.close();
    }
  });
});
