import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnsweredAsUnknown } from './as-unknown.ts';
import { LOCAL_INTEGRATION, startTestServer, type TestServer, type TokenSet } from './harness.ts';
import { connectPlayer, eventually, type GameSetup, newSession, setUpOperatorGame } from './play-fixtures.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * POST /v1/webhook/{webhookId}/redeliver (docs/contract.md §11), against the test operator's real
 * webhook receiver on 127.0.0.1: the event goes out again with its own webhook-id and body, the
 * new attempt is in the log, the webhook's counters equal the log, and whatever may not be re-sent
 * (another client's webhook or event, an event still queued, a disabled webhook) changes nothing.
 */

let server: TestServer;
let operator: TestOperator;
let game: GameSetup;
let players = 0;
const sockets: Array<{ close(): void }> = [];
const RETRY_MS = 600_000;

beforeAll(async () => {
  operator = await startTestOperator();
  server = await startTestServer({
    env: LOCAL_INTEGRATION,
    play: { webhookScheduleMs: [RETRY_MS], tickMs: 600_000 },
  });
  game = await setUpOperatorGame(server, operator, { prizedPercent: 1 });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.close();
  await operator?.close();
});

/**
 * Plays one round to its end for the given game; its id, once both its events were answered and
 * the answers logged (the attempt is recorded after the receiver answers, not with it).
 */
async function playedRound(setup: GameSetup, answered = 2): Promise<string> {
  const player = await connectPlayer(server.url, await newSession(server, setup, `hook-${++players}`));
  sockets.push(player);
  const bought = await player.ask('buy');
  if (!bought.ok) throw new Error(JSON.stringify(bought));
  const roundId: string = bought.data.round.roundId;
  await player.ask('reveal', { roundId });
  await eventually(() => operator.events.filter((event) => event.payload._id === roundId).length >= answered);
  await eventually(
    async () =>
      (await log(setup.tokens, setup.webhookId)).data.filter((row: any) => row.payload._id === roundId)
        .length >= answered,
  );
  return roundId;
}

async function log(tokens: TokenSet, webhookId: string) {
  const answer = await server.call('GET', `/v1/webhook/${webhookId}?pageSize=100`, { token: tokens });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** The webhook's counters as GET /v1/webhook shows them equal its log's successes and failures. */
async function expectCountersEqualLog(tokens: TokenSet, webhookId: string) {
  const listed = await server.call('GET', '/v1/webhook', { token: tokens });
  const webhook = listed.body.data.find((hook: any) => hook.id === webhookId);
  const { data, pagination } = await log(tokens, webhookId);
  expect(pagination.totalCount).toBe(data.length);
  expect(webhook.successCount).toBe(data.filter((row: any) => row.success).length);
  expect(webhook.failureCount).toBe(data.filter((row: any) => !row.success).length);
  expect(webhook.lastTriggered).toBe(data[0].timestamp);
}

const redeliver = (tokens: TokenSet, webhookId: string, body: unknown, sign = true) =>
  server.call('POST', `/v1/webhook/${webhookId}/redeliver`, { token: tokens, body, sign });

/** A re-send refused with a 409 whose message says `why`, and nothing sent to the receiver. */
async function expectConflictUnsent(tokens: TokenSet, webhookId: string, eventId: string, why: string) {
  const received = operator.events.length;
  const refused = await redeliver(tokens, webhookId, { eventId });
  expect(refused.status).toBe(409);
  expect(refused.body.code).toBe('CONFLICT');
  expect(refused.body.messages[0]).toContain(why);
  expect(operator.events.length).toBe(received);
}

describe('POST /v1/webhook/{webhookId}/redeliver', () => {
  it('sends a delivered event again with its own webhook-id and body, as a new attempt in the log', async () => {
    const roundId = await playedRound(game);
    const before = await log(game.tokens, game.webhookId);
    const closeRow = before.data.find(
      (row: any) => row.payload._id === roundId && row.eventType === 'close-round',
    );
    expect(closeRow).toMatchObject({ success: true, retryCount: 0, eventId: expect.any(String) });
    const { eventId } = closeRow;
    const first = operator.events.find((event) => event.id === eventId);
    if (!first) throw new Error('the receiver never got the event');
    server.clock.advance(5000);

    const sent = await redeliver(game.tokens, game.webhookId, { eventId });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({
      webhookId: game.webhookId,
      eventId,
      eventType: 'close-round',
      success: true,
      responseCode: 200,
      retryCount: 1,
      timestamp: server.clock().toISOString(),
      errorMessage: null,
    });
    expect(sent.body.data.payload).toEqual(closeRow.payload);

    const again = operator.events.filter((event) => event.id === eventId);
    expect(again).toHaveLength(2);
    expect(again[1]?.raw).toBe(first.raw);
    expect(again[1]?.headers['webhook-id']).toBe(eventId);
    expect(Number(again[1]?.headers['webhook-timestamp'])).toBe(Math.floor(server.clock().getTime() / 1000));

    const after = await log(game.tokens, game.webhookId);
    expect(after.pagination.totalCount).toBe(before.pagination.totalCount + 1);
    expect(after.data[0]).toEqual(sent.body.data);
    await expectCountersEqualLog(game.tokens, game.webhookId);

    const audit = await server.call('GET', '/v1/audit', { token: game.tokens });
    expect(audit.body.data[0]).toMatchObject({
      operation: 'POST /v1/webhook/:webhookId/redeliver',
      targetId: game.webhookId,
    });
  });

  it('logs a failed re-send as failed, counted, and not retried', async () => {
    const roundId = await playedRound(game);
    const { data } = await log(game.tokens, game.webhookId);
    const openRow = data.find((row: any) => row.payload._id === roundId && row.eventType === 'open-round');
    operator.webhookAnswers(503);
    const sent = await redeliver(game.tokens, game.webhookId, { eventId: openRow.eventId });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({
      eventId: openRow.eventId,
      success: false,
      responseCode: 503,
      retryCount: 1,
      errorMessage: expect.any(String),
    });
    const rows = (await log(game.tokens, game.webhookId)).data.filter(
      (row: any) => row.eventId === openRow.eventId,
    );
    expect(rows.map((row: any) => row.success)).toEqual([false, true]);
    const pending = await server.call('GET', `/v1/webhook/${game.webhookId}?status=pending`, {
      token: game.tokens,
    });
    expect(pending.body.pagination.totalCount).toBe(0);
    // Nothing was queued for it: a pass of the dispatcher long after sends nothing.
    server.clock.advance(RETRY_MS * 2);
    expect(await server.running.app.services.webhookDelivery.dispatcher.runOnce()).toBe(0);
    await expectCountersEqualLog(game.tokens, game.webhookId);
  });

  it('refuses bad input, no signature, unknown ids and another client’s webhook or event, sending nothing', async () => {
    const other = await setUpOperatorGame(server, operator, { prizedPercent: 1 });
    const theirRound = await playedRound(other);
    const theirRow = (await log(other.tokens, other.webhookId)).data.find(
      (row: any) => row.payload._id === theirRound,
    );
    const mine = (await log(game.tokens, game.webhookId)).data[0];
    const received = operator.events.length;
    const logged = (await log(game.tokens, game.webhookId)).pagination.totalCount;

    for (const body of [{}, { eventId: '' }, { eventId: 7 }]) {
      const bad = await redeliver(game.tokens, game.webhookId, body);
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_ERROR');
      expect(bad.body.messages.join(' ')).toContain('eventId');
    }
    const unsigned = await redeliver(game.tokens, game.webhookId, { eventId: mine.eventId }, false);
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.code).toBe('INVALID_SIGNATURE');

    const theirWebhook = await redeliver(game.tokens, other.webhookId, { eventId: theirRow.eventId });
    const theirEvent = await redeliver(game.tokens, game.webhookId, { eventId: theirRow.eventId });
    expect(theirEvent.status).toBe(404);
    expect(theirEvent.body.code).toBe('NOT_FOUND');
    const unknownEvent = await redeliver(game.tokens, game.webhookId, { eventId: 'no-such-event' });
    expect(unknownEvent.status).toBe(404);
    const unknownHook = await redeliver(game.tokens, 'no-such-webhook', { eventId: theirRow.eventId });
    expect(unknownHook.status).toBe(404);
    expectAnsweredAsUnknown(theirWebhook, unknownHook, {
      theirs: other.webhookId,
      unknown: 'no-such-webhook',
    });

    expect(operator.events.length).toBe(received);
    expect((await log(game.tokens, game.webhookId)).pagination.totalCount).toBe(logged);
  });

  it('is a 409 for an event still waiting for a retry, which the queue then sends in its turn', async () => {
    // The open-round fails and waits RETRY_MS: the round's close-round waits behind it.
    operator.webhookAnswers(500);
    const roundId = await playedRound(game, 1);
    const pendingRow = await eventually(async () => {
      const pending = await server.call('GET', `/v1/webhook/${game.webhookId}?status=pending`, {
        token: game.tokens,
      });
      return pending.body.data.find((row: any) => row.payload._id === roundId);
    });
    await expectConflictUnsent(game.tokens, game.webhookId, pendingRow.eventId, 'queued');

    server.clock.advance(RETRY_MS);
    await server.running.app.services.webhookDelivery.dispatcher.runOnce();
    await eventually(() => operator.events.filter((event) => event.payload._id === roundId).length === 3);
    await expectCountersEqualLog(game.tokens, game.webhookId);
  });

  it('is a 409 for a disabled webhook', async () => {
    const gone = await setUpOperatorGame(server, operator, { prizedPercent: 1 });
    operator.webhookAnswers(410);
    const roundId = await playedRound(gone, 1);
    const row = await eventually(async () =>
      (await log(gone.tokens, gone.webhookId)).data.find((r: any) => r.payload._id === roundId),
    );
    const listed = await server.call('GET', '/v1/webhook', { token: gone.tokens });
    expect(listed.body.data[0].status).toBe('disabled');
    await expectConflictUnsent(gone.tokens, gone.webhookId, row.eventId, 'disabled');
    await expectCountersEqualLog(gone.tokens, gone.webhookId);
  });
});
