import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnsweredAsUnknown } from './as-unknown.ts';
import { LOCAL_INTEGRATION, startTestServer, type TestServer } from './harness.ts';
import { connectPlayer, eventually, type GameSetup, newSession, setUpOperatorGame } from './play-fixtures.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * docs/contract.md §11, over rounds really played through the test operator's wallet and webhook
 * receiver: GET /v1/round/{roundId} (card, ticket, transactions, every wallet call attempt, every
 * delivery), the reconciliation list and POST /v1/round/{roundId}/resolve, and the replay link.
 */

let server: TestServer;
let operator: TestOperator;
let game: GameSetup;
let players = 0;
const sockets: Array<{ close(): void }> = [];
const RETRY_MS = 1000;

beforeAll(async () => {
  operator = await startTestOperator();
  server = await startTestServer({
    env: LOCAL_INTEGRATION,
    play: {
      walletTimeoutMs: 300,
      walletInFlightMs: 60_000,
      walletRetryDelaysMs: [RETRY_MS],
      tickMs: 600_000,
    },
  });
  // Every ticket wins: each round has a prize to pay.
  game = await setUpOperatorGame(server, operator, { prizedPercent: 1 });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.close();
  await operator?.close();
});

async function newPlayer() {
  const player = await connectPlayer(server.url, await newSession(server, game, `support-${++players}`));
  sockets.push(player);
  return player;
}

const play = () => server.running.app.services.play;

describe('GET /v1/round/{roundId}', () => {
  it('shows the card, the ticket, the transactions, every wallet call attempt and every delivery', async () => {
    const player = await newPlayer();
    const bought = await player.ask('buy');
    if (!bought.ok) throw new Error(JSON.stringify(bought));
    const roundId = bought.data.round.roundId;
    operator.failNext('prize', 'http500');
    await player.ask('reveal', { roundId });
    server.clock.advance(RETRY_MS + 1);
    await play().settleDue();

    const detail = await eventually(async () => {
      const answer = await server.call('GET', `/v1/round/${roundId}`, { token: game.tokens });
      return answer.body.data?.deliveries?.length === 2 && answer;
    });
    expect(detail.status).toBe(200);
    const round = detail.body.data;
    expect(round).toMatchObject({
      _id: roundId,
      profileId: game.profileId,
      gameId: game.gameId,
      gameModel: 'oxe-ganhei',
      currency: 'BRL',
      status: 'closed',
      flagged: false,
      resolution: null,
    });
    expect(round.card).toEqual(expect.any(Object));
    expect(round.ticket).toMatchObject({
      poolId: expect.any(String),
      poolNumber: 1,
      commitment: expect.stringMatching(/^[0-9a-f]{64}$/),
      seed: null,
      drawIndex: expect.any(Number),
      level: expect.any(Number),
    });
    expect(round.ticket.level).toBeGreaterThan(0);
    // The ladder's prizes, for drawing the card's prize spots: the round's prize is its level's.
    expect(round.prizeLevels.map((each: any) => each.level)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(round.prizeLevels[round.ticket.level - 1].prize).toBe(round.prize);
    const [bet, prize] = round.transactions;
    expect([bet.type, bet.status, prize.type, prize.status]).toEqual([
      'bet',
      'completed',
      'prize',
      'completed',
    ]);
    expect(
      round.walletCalls.map((call: any) => [
        call.transactionId,
        call.type,
        call.attempt,
        call.outcome,
        call.httpStatus,
      ]),
    ).toEqual([
      [bet._id, 'bet', 1, 'ok', null],
      [prize._id, 'prize', 1, 'unknown', null],
      [prize._id, 'prize', 2, 'ok', null],
    ]);
    expect(round.walletCalls[0].balance).toBe(bet.balanceAfter);
    expect(round.walletCalls[1].detail).toEqual(expect.any(String));
    expect(round.walletCalls[2].balance).toBe(prize.balanceAfter);
    // The webhook receiver's own record of the events is what the deliveries show.
    expect(round.deliveries.map((d: any) => [d.eventType, d.success, d.webhookId])).toEqual([
      ['open-round', true, game.webhookId],
      ['close-round', true, game.webhookId],
    ]);
    const received = operator.events
      .filter((event) => event.payload._id === roundId)
      .map((event) => event.id);
    expect(round.deliveries.map((d: any) => d.eventId).sort()).toEqual(received.sort());
  });

  it('is a 404 for an unknown round, and the same for another API client’s, on every route', async () => {
    const other = await server.newClient();
    const player = await newPlayer();
    const bought = await player.ask('buy');
    if (!bought.ok) throw new Error(JSON.stringify(bought));
    const roundId = bought.data.round.roundId;
    for (const [method, path, body] of [
      ['GET', '/v1/round/:id', undefined],
      ['POST', '/v1/round/:id/resolve', { resolution: 'paid', note: 'x' }],
      ['POST', '/v1/round/:id/replay', {}],
    ] as const) {
      const unknown = await server.call(method, path.replace(':id', 'no-such-round'), {
        token: game.tokens,
        body,
      });
      expect([path, unknown.status]).toEqual([path, 404]);
      const theirs = await server.call(method, path.replace(':id', roundId), { token: other.tokens, body });
      expectAnsweredAsUnknown(theirs, unknown, { theirs: roundId, unknown: 'no-such-round' });
    }
    await player.ask('reveal', { roundId });
  });
});

describe('flagged rounds', () => {
  it('lists a flagged round until it is resolved; bad input, another client or a second resolve change nothing', async () => {
    const player = await newPlayer();
    operator.failNext('bet', 'ok-then-hang');
    operator.failNext('rollback', 'decline');
    const bought = await player.ask('buy');
    expect(bought.ok).toBe(false);
    await play().settleDue();
    const listed = await server.call('GET', '/v1/reconciliation', { token: game.tokens });
    expect(listed.status).toBe(200);
    expect(listed.body.pagination.totalCount).toBe(1);
    const flagged = listed.body.data[0];
    expect(flagged.transactions.map((t: any) => [t.type, t.status])).toEqual([
      ['bet', 'failed'],
      ['rollback', 'declined'],
    ]);
    const roundId = flagged._id;
    const path = `/v1/round/${roundId}/resolve`;

    for (const body of [
      { resolution: 'refunded', note: 'x' },
      { resolution: 'paid', note: '  ' },
      { resolution: 'paid' },
    ]) {
      const bad = await server.call('POST', path, { token: game.tokens, body });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_ERROR');
    }
    const unsigned = await server.call('POST', path, {
      token: game.tokens,
      body: { resolution: 'paid', note: 'x' },
      sign: false,
    });
    expect(unsigned.status).toBe(401);
    expect((await server.call('GET', `/v1/round/${roundId}`, { token: game.tokens })).body.data.flagged).toBe(
      true,
    );

    const resolved = await server.call('POST', path, {
      token: game.tokens,
      body: { resolution: 'paid', note: 'returned the 2.00 by hand, ticket 77' },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toEqual({
      resolution: 'paid',
      note: 'returned the 2.00 by hand, ticket 77',
      resolvedAt: server.clock().toISOString(),
    });
    const after = await server.call('GET', '/v1/reconciliation', { token: game.tokens });
    expect(after.body.data).toEqual([]);
    expect(after.body.pagination.totalCount).toBe(0);
    const detail = (await server.call('GET', `/v1/round/${roundId}`, { token: game.tokens })).body.data;
    expect(detail).toMatchObject({ flagged: false, resolution: resolved.body.data });

    const again = await server.call('POST', path, {
      token: game.tokens,
      body: { resolution: 'written-off', note: 'x' },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CONFLICT');
    expect(
      (await server.call('GET', `/v1/round/${roundId}`, { token: game.tokens })).body.data.resolution,
    ).toEqual(resolved.body.data);

    const audit = await server.call('GET', '/v1/audit', { token: game.tokens });
    expect(audit.body.data[0]).toMatchObject({
      operation: 'POST /v1/round/:roundId/resolve',
      targetId: roundId,
    });
    expect(audit.body.data.filter((entry: any) => entry.operation.endsWith('/resolve'))).toHaveLength(1);
  });
});

describe('POST /v1/round/{roundId}/replay', () => {
  it('answers a read-only link that shows the round until it expires (REPLAY_TTL), then a 404', async () => {
    const player = await newPlayer();
    const bought = await player.ask('buy');
    if (!bought.ok) throw new Error(JSON.stringify(bought));
    const roundId = bought.data.round.roundId;
    await player.ask('reveal', { roundId });
    // The round's two events are delivered after the answer: both reads below must see them.
    await eventually(
      async () =>
        (await server.call('GET', `/v1/round/${roundId}`, { token: game.tokens })).body.data?.deliveries
          ?.length === 2,
    );
    const issued = await server.call('POST', `/v1/round/${roundId}/replay`, { token: game.tokens, body: {} });
    expect(issued.status).toBe(201);
    const { url, dataUrl, expireAt } = issued.body.data;
    expect(expireAt).toBe(new Date(server.clock().getTime() + 15 * 60_000).toISOString());
    expect(url.startsWith(`${server.url}/replay/`)).toBe(true);
    expect(dataUrl).toBe(`${server.url}/v1${url.slice(server.url.length)}`);
    const path = dataUrl.slice(server.url.length);

    const shown = await server.call('GET', path);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('cache-control')).toBe('no-store');
    const direct = await server.call('GET', `/v1/round/${roundId}`, { token: game.tokens });
    // Issue 22: the link shows only what support needs (the card, the prize, the price, the status
    // and the times), checked against an allow-list of every key at every depth; the player, the
    // wallet's and the receiver's answers stay in the signed-in details.
    const REPLAY_FIELDS = [
      '_id',
      'card',
      'createdAt',
      'currency',
      'endAt',
      'gameModel',
      'paidPrice',
      'prize',
      'prizeLevels',
      'status',
    ];
    const CARD_FIELDS = ['cells', 'cols', 'extras', 'model', 'rows', 'rule', 'winningCells', 'winningExtras'];
    const allowed = new Set([
      ...REPLAY_FIELDS,
      ...CARD_FIELDS.map((key) => `card.${key}`),
      ...['symbol', 'prizeLevel', 'number'].flatMap((key) => [`card.cells[].${key}`, `card.extras[].${key}`]),
      'prizeLevels[].level',
      'prizeLevels[].prize',
    ]);
    expect(keyPaths(shown.body.data).filter((key) => !allowed.has(key))).toEqual([]);
    expect(Object.keys(shown.body.data).sort()).toEqual(REPLAY_FIELDS);
    expect(shown.body.data).toEqual(
      Object.fromEntries(REPLAY_FIELDS.map((key) => [key, direct.body.data[key]])),
    );
    expect(shown.body.data.card).not.toBeNull();
    // The signed-in details keep what the link leaves out.
    expect(direct.body.data.user.credential).toMatch(/^support-/);
    expect(direct.body.data.walletCalls.length).toBeGreaterThan(0);
    expect(direct.body.data.deliveries[0]).toHaveProperty('responseBody');
    expect(JSON.stringify(shown.body)).not.toContain(direct.body.data.user.credential);
    // Read-only: the link is no token for the API.
    const token = decodeURIComponent(path.split('/').at(-1) ?? '');
    expect((await server.call('GET', '/v1/round', { token })).status).toBe(401);
    // An altered link is unknown.
    expect((await server.call('GET', `${path.slice(0, -4)}AAAA`)).status).toBe(404);

    // The page's own answer reads only the token's round and game, not the whole dossier.
    const rounds = server.running.app.services.rounds;
    expect(await rounds.replayCover(token)).toEqual({ gameLang: 'en' });
    expect(await rounds.replayCover(`${token.slice(0, -4)}AAAA`)).toBeUndefined();

    server.clock.advance(15 * 60_000 - 1);
    expect((await server.call('GET', path)).status).toBe(200);
    server.clock.advance(1);
    expect(await rounds.replayCover(token)).toBeUndefined();
    const expired = await server.call('GET', path);
    expect(expired.status).toBe(404);
    expect(expired.body.code).toBe('NOT_FOUND');
  });
});

/** Every key of a JSON value at every depth, as `a.b` and `list[].c`. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap((item) => keyPaths(item, `${prefix}[]`)))];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    return [path, ...keyPaths(inner, path)];
  });
}
