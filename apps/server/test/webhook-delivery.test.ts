import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RoundView, roundView } from '../src/schemas/round.ts';
import { openConfiguredStore } from '../src/store/open-store.ts';
import type { DeliveryRecord, WebhookEvent } from '../src/store/records.ts';
import type { Store, Transaction, UnitOptions } from '../src/store/store.ts';
import { createDeliveryAttempt, openTarget } from '../src/webhooks/attempt.ts';
import { STARTING_WINDOW, STEP_MS } from '../src/webhooks/delivery-window.ts';
import {
  createWebhookDispatcher,
  DEFAULT_RETRY_SCHEDULE,
  type DispatcherOptions,
} from '../src/webhooks/dispatch.ts';
import { createWebhookOutbox } from '../src/webhooks/enqueue.ts';
import { createWebhookSender } from '../src/webhooks/post.ts';
import { createWebhookDelivery } from '../src/webhooks/wiring.ts';
import {
  canonicalForTest,
  LOCAL_INTEGRATION,
  signForTest,
  startTestServer,
  type TestServer,
  type TokenSet,
} from './harness.ts';
import { type LedgerFixtures, ledgerFixtures, type Seat } from './ledger-fixtures.ts';
import { eventually } from './play-fixtures.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

// ---- a webhook receiver on 127.0.0.1: records every request, answers as each path is told ----

interface Received {
  path: string;
  /** The sender's port: which connection it came on. */
  socket: number | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}
interface Reply {
  status: number;
  body?: string;
  delayMs?: number;
  /** Never answers (the connection stays open until the sender gives up or the receiver closes). */
  hold?: boolean;
  /** Answers once this settles (an event of the test, not a delay: a delay races a loaded machine). */
  after?: Promise<unknown>;
  headers?: Record<string, string>;
}
/** How a path answers its n-th request (0-based). */
type Behaviour = (n: number) => Reply;

async function startReceiver() {
  const received: Received[] = [];
  const timeline: string[] = [];
  const behaviours = new Map<string, Behaviour>();
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      const n = received.filter((r) => r.path === path).length;
      received.push({
        path,
        socket: req.socket.remotePort,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      timeline.push(`in ${path}`);
      const reply: Reply = behaviours.get(path)?.(n) ?? { status: 200, body: 'ok' };
      const send = () => {
        timeline.push(`out ${path}`);
        if (res.destroyed) return;
        res.writeHead(reply.status, reply.headers);
        res.end(reply.body ?? '');
      };
      if (reply.hold) return;
      if (reply.after) void reply.after.then(send);
      else if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url,
    received,
    timeline,
    at: (path: string) => received.filter((r) => r.path === path),
    on: (path: string, behaviour: Behaviour) => void behaviours.set(path, behaviour),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

let server: TestServer;
let fixtures: LedgerFixtures;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** Webhooks made by a test: their leftover queue is dropped after it, so tests stay independent. */
const made: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ env: LOCAL_INTEGRATION });
  fixtures = ledgerFixtures(server);
  receiver = await startReceiver();
});
afterEach(async () => {
  for (const id of made.splice(0)) await server.deps.store.outbox.dropQueued(id);
});
afterAll(async () => {
  await receiver.close();
  await server.close();
});

// ---- helpers ----

interface Operator {
  clientId: string;
  apiKey: string;
  tokens: TokenSet;
  seat: Seat;
}
interface Hook {
  id: string;
  path: string;
  token: string;
}

async function newOperator(): Promise<Operator> {
  const { clientId, apiKey, tokens } = await server.newClient();
  return { clientId, apiKey, tokens, seat: await fixtures.seat(clientId) };
}

let hooks = 0;
async function newHook(
  operator: Operator,
  behaviour?: Behaviour,
  eventTriggers: WebhookEvent[] = ['open-round', 'close-round'],
  delivery?: { mode: 'single' | 'batch'; maxEvents?: number; maxWaitMs?: number },
): Promise<Hook> {
  const path = `/hook/${++hooks}`;
  if (behaviour) receiver.on(path, behaviour);
  const token = randomUUID();
  const answer = await server.call('POST', '/v1/webhook', {
    token: operator.tokens,
    body: { url: `${receiver.url}${path}`, eventTriggers, signatureToken: token, delivery },
  });
  expect(answer.status).toBe(201);
  const id: string = answer.body.data.webhookId;
  made.push(id);
  return { id, path, token };
}

const nowIso = () => server.clock().toISOString();

/** A closed round written by the fixtures, and its payload as the events carry it. */
async function newRound(operator: Operator): Promise<{ roundId: string; payload: RoundView }> {
  const { roundId } = await fixtures.round(operator.seat, { at: nowIso(), prizeMinor: 1000 });
  const page = await server.deps.store.ledger.listRounds(
    {
      clientId: operator.clientId,
      profileId: null,
      playerId: null,
      roundId,
      type: null,
      status: null,
      from: null,
      before: null,
    },
    { pageIndex: 1, pageSize: 1 },
  );
  const detail = page.items[0];
  if (!detail) throw new Error('round not written');
  return { roundId, payload: roundView(detail) };
}

const outbox = () => createWebhookOutbox(server.deps);

/** Queues one event of a round in its own transaction (as the play loop does). */
const enqueueEvent = (
  operator: Operator,
  round: { roundId: string; payload: RoundView },
  eventType: WebhookEvent,
) =>
  server.deps.store.transaction((tx) =>
    outbox().enqueue(tx, {
      clientId: operator.clientId,
      roundId: round.roundId,
      eventType,
      payload: round.payload,
    }),
  );

/** Queues an event for a new round of `operator`. */
async function queueRound(operator: Operator, eventType: WebhookEvent = 'close-round') {
  const round = await newRound(operator);
  return { ...round, ids: await enqueueEvent(operator, round, eventType) };
}

/** A time-out far above any answer here, even on a loaded machine (tests of the time-out set their own). */
const TEST_TIMEOUT_MS = 10_000;
const dispatcher = (options: DispatcherOptions = {}) =>
  createWebhookDispatcher(server.deps, { timeoutMs: TEST_TIMEOUT_MS, ...options });

/** The log of a webhook, oldest first. */
async function log(hook: Hook): Promise<DeliveryRecord[]> {
  const page = await server.deps.store.webhooks.listDeliveries(
    hook.id,
    { status: null, from: null, before: null },
    { pageIndex: 1, pageSize: 100 },
  );
  return page.items.reverse();
}

const eventStatus = async (id: string | undefined) =>
  (await server.deps.store.outbox.findById(id ?? ''))?.status;
/** The status of each event, in order. */
const eventStatuses = (ids: readonly (string | undefined)[]) => Promise.all(ids.map(eventStatus));
const webhookOf = async (id: string) => (await server.deps.store.outbox.findById(id))?.webhookId;

/** Queues a round's open-round and close-round, each in its own transaction (as the play loop). */
async function queueOpenAndClose(operator: Operator, round: { roundId: string; payload: RoundView }) {
  const opened = await enqueueEvent(operator, round, 'open-round');
  return [...opened, ...(await enqueueEvent(operator, round, 'close-round'))];
}

/** Queues `count` rounds one after the other (their order is the webhooks' order). */
async function queueRounds(operator: Operator, count: number) {
  const rounds = [];
  for (let i = 0; i < count; i++) rounds.push(await queueRound(operator));
  return rounds;
}

/** The webhook as GET /v1/webhook shows it (logging in again: tests move the clock by days). */
async function listed(operator: Operator, hook: Hook) {
  if (operator.tokens.expireAt <= nowIso()) {
    const login = await server.call('POST', '/v1/auth/login', { body: { apiKey: operator.apiKey } });
    operator.tokens = login.body.data;
  }
  const answer = await server.call('GET', '/v1/webhook', { token: operator.tokens });
  expect(answer.status).toBe(200);
  return answer.body.data.find((w: { id: string }) => w.id === hook.id);
}

/**
 * Resolves once `check` holds, or after `fallbackMs` (below the dispatcher's time-out) if it never
 * does: a receiver's answer that waits for it cannot hang a test whose sender is wrong; the test's
 * assertions then fail instead.
 */
function once(check: () => boolean, fallbackMs = TEST_TIMEOUT_MS / 2): Promise<void> {
  return eventually(check, fallbackMs).then(
    () => {},
    () => {},
  );
}

// ---- tests ----

describe('queueing (the outbox)', () => {
  it('queues one event per active, live webhook subscribed to it, and only the client’s own', async () => {
    const op = await newOperator();
    const opens = await newHook(op, undefined, ['open-round']);
    const closes = await newHook(op, undefined, ['close-round']);
    const both = await newHook(op);
    const disabled = await newHook(op);
    await server.deps.store.webhooks.setStatus(disabled.id, 'disabled');
    const deleted = await newHook(op);
    expect((await server.call('DELETE', `/v1/webhook/${deleted.id}`, { token: op.tokens })).status).toBe(200);
    const someoneElse = await newOperator();
    const theirs = await newHook(someoneElse);

    const opened = await queueRound(op, 'open-round');
    expect(await Promise.all(opened.ids.map(webhookOf))).toEqual([opens.id, both.id]);
    const closed = await queueRound(op, 'close-round');
    expect(await Promise.all(closed.ids.map(webhookOf))).toEqual([closes.id, both.id]);

    const event = await server.deps.store.outbox.findById(opened.ids[0] ?? '');
    expect(event).toEqual({
      seq: expect.any(Number),
      id: opened.ids[0],
      webhookId: opens.id,
      roundId: opened.roundId,
      eventType: 'open-round',
      payload: opened.payload,
      status: 'queued',
      attempts: 0,
      nextAttemptAt: nowIso(),
      firstFailureAt: null,
      createdAt: nowIso(),
    });
    expect(new Set([...opened.ids, ...closed.ids]).size).toBe(4);

    expect(await dispatcher().runOnce()).toBe(4);
    expect(receiver.at(theirs.path)).toEqual([]);
    expect(receiver.at(disabled.path)).toEqual([]);
    expect(receiver.at(deleted.path)).toEqual([]);
    expect(receiver.at(both.path).map((r) => JSON.parse(r.body).event)).toEqual([
      'open-round',
      'close-round',
    ]);
  });

  it('leaves no event when the round’s transaction rolls back', async () => {
    const op = await newOperator();
    const hook = await newHook(op);
    const round = await newRound(op);
    let queued: string[] = [];
    await expect(
      server.deps.store.transaction(async (tx) => {
        queued = await outbox().enqueue(tx, {
          clientId: op.clientId,
          roundId: round.roundId,
          eventType: 'close-round',
          payload: round.payload,
        });
        throw new Error('the wallet said no');
      }),
    ).rejects.toThrow('the wallet said no');
    expect(queued).toHaveLength(1);
    expect(await server.deps.store.outbox.findById(queued[0] ?? '')).toBeUndefined();
    expect(await server.deps.store.outbox.queuedHead(hook.id, [], 1)).toEqual([]);
    expect(await dispatcher().runOnce()).toBe(0);
    expect(receiver.at(hook.path)).toEqual([]);
  });

  it('nudges the dispatcher once the transaction has committed, never when it rolls back', async () => {
    const op = await newOperator();
    await newHook(op);
    const round = await newRound(op);
    let nudges = 0;
    const nudged = createWebhookOutbox({ ...server.deps, nudge: () => nudges++ });
    const event = {
      clientId: op.clientId,
      roundId: round.roundId,
      eventType: 'close-round',
      payload: round.payload,
    } as const;
    await server.deps.store.transaction(async (tx) => {
      expect(await nudged.enqueue(tx, event)).toHaveLength(1);
      expect(nudges).toBe(0);
    });
    expect(nudges).toBe(1);
    await expect(
      server.deps.store.transaction(async (tx) => {
        await nudged.enqueue(tx, event);
        throw new Error('the wallet said no');
      }),
    ).rejects.toThrow('the wallet said no');
    expect(nudges).toBe(1);
  });

  it('queues one event per subscribed webhook in one statement: ids id, id.2, in creation order', async () => {
    const op = await newOperator();
    const first = await newHook(op, undefined, ['close-round']);
    const second = await newHook(op, undefined, ['close-round']);
    const round = await newRound(op);
    const enqueue = (eventType: 'open-round' | 'close-round') =>
      server.deps.store.transaction((tx) =>
        outbox().enqueue(tx, {
          clientId: op.clientId,
          roundId: round.roundId,
          eventType,
          payload: round.payload,
        }),
      );
    expect(await enqueue('open-round')).toEqual([]);
    const closed = await enqueue('close-round');
    expect(closed).toHaveLength(2);
    expect(closed[1]).toBe(`${closed[0]}.2`);
    const events = await Promise.all(closed.map((id) => server.deps.store.outbox.findById(id)));
    expect(events.map((event) => event?.webhookId)).toEqual([first.id, second.id]);
    for (const event of events) expect(event?.payload).toEqual(round.payload);
  });
});

describe('a delivery', () => {
  it('posts {event, payload} as canonical JSON with both signatures, and logs it', async () => {
    const op = await newOperator();
    const hook = await newHook(op, () => ({ status: 200, body: '{"received":true}' }));
    const { ids, payload } = await queueRound(op, 'close-round');

    expect(await dispatcher().runOnce()).toBe(1);

    const [request] = receiver.at(hook.path);
    if (!request) throw new Error('nothing received');
    expect(JSON.parse(request.body)).toEqual({ event: 'close-round', payload });
    expect(Object.keys(JSON.parse(request.body))).toEqual(['event', 'payload']);
    expect(request.body).toBe(canonicalForTest({ event: 'close-round', payload }));
    const { headers } = request;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toBe('Raspa-Webhooks/1');
    // x-signed-request: HMAC-SHA512 hex of the canonical body, computed here without our modules.
    const sha512 = createHmac('sha512', Buffer.from(hook.token, 'utf8')).update(request.body).digest('hex');
    expect(headers['x-signed-request']).toBe(sha512);
    expect(headers['x-signed-request']).toBe(signForTest(JSON.parse(request.body), hook.token));
    // Standard Webhooks: id = event id, timestamp = the injected clock, v1 = base64 HMAC-SHA256.
    expect(headers['webhook-id']).toBe(ids[0]);
    const timestamp = String(Math.floor(server.clock().getTime() / 1000));
    expect(headers['webhook-timestamp']).toBe(timestamp);
    const sha256 = createHmac('sha256', Buffer.from(hook.token, 'utf8'))
      .update(`${ids[0]}.${timestamp}.${request.body}`)
      .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${sha256}`);

    expect(await log(hook)).toEqual([
      {
        id: expect.any(String),
        webhookId: hook.id,
        eventId: ids[0],
        eventType: 'close-round',
        payload,
        responseCode: 200,
        responseBody: '{"received":true}',
        success: true,
        status: 'success',
        durationMs: expect.any(Number),
        timestamp: nowIso(),
        retryCount: 0,
        errorMessage: null,
        batchId: null,
      },
    ]);
    expect(await eventStatus(ids[0])).toBe('delivered');
    expect(await listed(op, hook)).toMatchObject({
      status: 'active',
      successCount: 1,
      failureCount: 0,
      lastTriggered: nowIso(),
    });
    const logs = await server.call('GET', `/v1/webhook/${hook.id}`, { token: op.tokens });
    expect(logs.status).toBe(200);
    expect(logs.body.data).toEqual([
      expect.objectContaining({ eventType: 'close-round', payload, responseCode: 200, success: true }),
    ]);
    expect(await dispatcher().runOnce()).toBe(0);
  });

  it('retries a failing receiver on the schedule until it recovers; log and counters agree', async () => {
    const op = await newOperator();
    const replies: Reply[] = [
      { status: 500, body: 'x'.repeat(5000) },
      { status: 503, body: 'busy' },
      { status: 204 },
    ];
    const hook = await newHook(op, (n) => replies[n] ?? { status: 200 });
    const { ids } = await queueRound(op);
    const worker = dispatcher();
    const statuses = async () => (await log(hook)).map((row) => row.status);

    const first = nowIso();
    expect(await worker.runOnce()).toBe(1);
    expect(await statuses()).toEqual(['pending']);
    expect((await log(hook))[0]).toMatchObject({
      responseCode: 500,
      success: false,
      retryCount: 0,
      errorMessage: 'the receiver answered 500',
    });
    expect((await log(hook))[0]?.responseBody).toBe('x'.repeat(2048));
    expect(await server.deps.store.outbox.findById(ids[0] ?? '')).toMatchObject({
      status: 'queued',
      attempts: 1,
      firstFailureAt: first,
      nextAttemptAt: new Date(server.clock().getTime() + 5 * SECOND).toISOString(),
    });

    // Not before the first step of the schedule (5 s) has passed.
    expect(await worker.runOnce()).toBe(0);
    server.clock.advance(5 * SECOND - 1);
    expect(await worker.runOnce()).toBe(0);
    server.clock.advance(1);
    const second = nowIso();
    expect(await worker.runOnce()).toBe(1);
    expect(await statuses()).toEqual(['failed', 'pending']);

    // Then the second step (5 min).
    server.clock.advance(DEFAULT_RETRY_SCHEDULE[1] ?? 0);
    server.clock.advance(-1);
    expect(await worker.runOnce()).toBe(0);
    server.clock.advance(1);
    const third = nowIso();
    expect(await worker.runOnce()).toBe(1);
    expect(await statuses()).toEqual(['failed', 'failed', 'success']);

    expect(receiver.at(hook.path).map((r) => r.headers['webhook-id'])).toEqual([ids[0], ids[0], ids[0]]);
    expect(receiver.at(hook.path).map((r) => r.headers['webhook-timestamp'])).toEqual(
      [first, second, third].map((iso) => String(Date.parse(iso) / 1000)),
    );
    expect((await log(hook)).map((row) => [row.retryCount, row.responseCode, row.timestamp])).toEqual([
      [0, 500, first],
      [1, 503, second],
      [2, 204, third],
    ]);
    expect(await eventStatus(ids[0])).toBe('delivered');
    expect(await listed(op, hook)).toMatchObject({ successCount: 1, failureCount: 2, lastTriggered: third });
    const page = await server.call('GET', `/v1/webhook/${hook.id}`, { token: op.tokens });
    expect(page.body.pagination).toEqual({
      pageIndex: 1,
      pageSize: 20,
      totalCount: 3,
      successCount: 1,
      failureCount: 2,
    });
  });

  it('410 Gone disables the webhook at once and drops its queue', async () => {
    const op = await newOperator();
    const hook = await newHook(op, () => ({ status: 410, body: 'gone' }));
    const events = (await queueRounds(op, 3)).map((q) => q.ids[0]);

    expect(await dispatcher().runOnce()).toBe(1);
    expect(await eventStatuses(events)).toEqual(['failed', 'dropped', 'dropped']);
    expect(await log(hook)).toEqual([
      expect.objectContaining({
        responseCode: 410,
        status: 'failed',
        errorMessage: 'the receiver answered 410 Gone: the webhook is disabled',
      }),
    ]);
    expect(await listed(op, hook)).toMatchObject({ status: 'disabled', failureCount: 1, successCount: 0 });
    expect((await queueRound(op)).ids).toEqual([]); // a disabled webhook gets no new events
    server.clock.advance(DAY);
    expect(await dispatcher().runOnce()).toBe(0);
    expect(receiver.at(hook.path)).toHaveLength(1);
  });

  it('a receiver slower than the time-out is a failure with no response code', async () => {
    const op = await newOperator();
    // The receiver never answers: runOnce can only come back through the sender's own time-out.
    const hook = await newHook(op, () => ({ status: 200, hold: true }));
    const { ids } = await queueRound(op);
    expect(await dispatcher({ timeoutMs: 150 }).runOnce()).toBe(1);
    expect(receiver.timeline).not.toContain(`out ${hook.path}`);
    const [row] = await log(hook);
    expect(row).toMatchObject({
      responseCode: null,
      responseBody: '',
      success: false,
      status: 'pending',
      errorMessage: 'no answer within 150 ms',
    });
    expect(row?.durationMs).toBeGreaterThanOrEqual(140);
    expect(await eventStatus(ids[0])).toBe('queued');
  });

  it('a redirect is a failure and is not followed', async () => {
    const op = await newOperator();
    const target = `/moved-${hooks}`;
    const hook = await newHook(op, () => ({
      status: 302,
      headers: { location: `${receiver.url}${target}` },
    }));
    await queueRound(op);
    expect(await dispatcher().runOnce()).toBe(1);
    expect(await log(hook)).toEqual([
      expect.objectContaining({
        responseCode: 302,
        success: false,
        status: 'pending',
        errorMessage: 'the receiver answered 302; redirects are not followed',
      }),
    ]);
    expect(receiver.at(target)).toEqual([]);
  });

  it('an unreachable receiver is a failure that says why', async () => {
    const op = await newOperator();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const answer = await server.call('POST', '/v1/webhook', {
      token: op.tokens,
      body: {
        url: `http://127.0.0.1:${port}/nobody`,
        eventTriggers: ['close-round'],
        signatureToken: randomUUID(),
      },
    });
    const hook: Hook = { id: answer.body.data.webhookId, path: '/nobody', token: '' };
    made.push(hook.id);
    await queueRound(op);
    expect(await dispatcher().runOnce()).toBe(1);
    expect(await log(hook)).toEqual([
      expect.objectContaining({
        responseCode: null,
        status: 'pending',
        errorMessage: 'could not reach the receiver: ECONNREFUSED',
      }),
    ]);
  });

  it('checks the address again at each connection when private addresses are not allowed', async () => {
    const op = await newOperator();
    const hook = await newHook(op);
    await queueRound(op);
    expect(await dispatcher({ allowPrivate: false }).runOnce()).toBe(1);
    expect(await log(hook)).toEqual([
      expect.objectContaining({
        responseCode: null,
        status: 'pending',
        errorMessage:
          'the url was refused: 127.0.0.1 is a loopback address; set OUTBOUND_ALLOW_PRIVATE=true for local integration',
      }),
    ]);
    expect(receiver.at(hook.path)).toEqual([]);
  });

  it('a signatureToken that cannot be unsealed is a logged failure, not a crash', async () => {
    const op = await newOperator();
    // Stored with a token sealed under another server key.
    const hook: Hook = { id: server.deps.newId(), path: `/hook/${++hooks}`, token: '' };
    await server.deps.store.webhooks.insert({
      id: hook.id,
      clientId: op.clientId,
      url: `${receiver.url}${hook.path}`,
      eventTriggers: ['open-round', 'close-round'],
      tokenSealed: 'v1.AAAA.AAAA.AAAA',
      status: 'active',
      createdAt: nowIso(),
      lastTriggered: null,
      successCount: 0,
      failureCount: 0,
      delivery: { mode: 'single', maxEvents: 100, maxWaitMs: 250 },
      deletedAt: null,
    });
    made.push(hook.id);
    await queueRound(op);
    expect(await dispatcher().runOnce()).toBe(1);
    expect(await log(hook)).toEqual([
      expect.objectContaining({
        responseCode: null,
        status: 'pending',
        errorMessage: 'the webhook’s signatureToken cannot be read (was the server key changed?)',
      }),
    ]);
    expect(receiver.at(hook.path)).toEqual([]);
  });

  it('drops the queue of a webhook deleted or disabled before its events went out', async () => {
    const op = await newOperator();
    const deleted = await newHook(op);
    const disabled = await newHook(op);
    const queued = (await queueRounds(op, 2)).flatMap((q) => q.ids);
    expect(queued).toHaveLength(4);
    expect((await server.call('DELETE', `/v1/webhook/${deleted.id}`, { token: op.tokens })).status).toBe(200);
    await server.deps.store.webhooks.setStatus(disabled.id, 'disabled');
    expect(await dispatcher().runOnce()).toBe(0);
    expect(await eventStatuses(queued)).toEqual(['dropped', 'dropped', 'dropped', 'dropped']);
    expect(receiver.at(deleted.path)).toEqual([]);
    expect(receiver.at(disabled.path)).toEqual([]);
    expect(await log(deleted)).toEqual([]);
  });
});

describe('order and independence', () => {
  it('sends each webhook its events in round order, later ones waiting while an early one is retried', async () => {
    const op = await newOperator();
    const hook = await newHook(op, (n) => (n === 0 ? { status: 500 } : { status: 200 }));
    const rounds = await queueRounds(op, 3);
    const worker = dispatcher();

    expect(await worker.runOnce()).toBe(1);
    expect(await eventStatuses(rounds.map((r) => r.ids[0]))).toEqual(['queued', 'queued', 'queued']);
    server.clock.advance(5 * SECOND);
    expect(await worker.runOnce()).toBe(3);
    const seen = receiver.at(hook.path).map((r) => JSON.parse(r.body).payload._id);
    expect(seen).toEqual([rounds[0]?.roundId, rounds[0]?.roundId, rounds[1]?.roundId, rounds[2]?.roundId]);
    expect(await eventStatuses(rounds.map((r) => r.ids[0]))).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('after a 2xx, sends several events at once; a round’s close-round waits for its open-round', async () => {
    const op = await newOperator();
    // The five sent together (after the first) are answered only once all five have arrived: the
    // order in the timeline below does not depend on how fast the machine is.
    let together = 0;
    let allFive: Promise<void> | undefined;
    const hook = await newHook(op, (n) => {
      if (n < 1 || n > 5) return { status: 200 };
      together++;
      allFive ??= once(() => together === 5);
      return { status: 200, after: allFive };
    });
    const rounds = await queueRounds(op, 5);
    const both = await newRound(op);
    for (const eventType of ['open-round', 'close-round'] as const) {
      await server.deps.store.transaction((tx) =>
        outbox().enqueue(tx, {
          clientId: op.clientId,
          roundId: both.roundId,
          eventType,
          payload: both.payload,
        }),
      );
    }

    expect(await dispatcher({ inFlightPerWebhook: 8 }).runOnce()).toBe(7);
    const [inn, out] = [`in ${hook.path}`, `out ${hook.path}`];
    const timeline = receiver.timeline.filter((entry) => entry.endsWith(hook.path));
    // The first alone; after its 2xx the four other rounds and the open-round together.
    expect(timeline.slice(0, 7)).toEqual([inn, out, inn, inn, inn, inn, inn]);
    const seen = receiver.at(hook.path).map((r) => JSON.parse(r.body));
    expect(seen.map((body) => body.payload._id)).toEqual([
      ...rounds.map((r) => r.roundId),
      both.roundId,
      both.roundId,
    ]);
    expect(seen.at(-1)?.event).toBe('close-round');
    expect(timeline.lastIndexOf(inn)).toBeGreaterThan(timeline.indexOf(out, 2));
    expect(new Set(receiver.at(hook.path).map((r) => r.socket)).size).toBeGreaterThan(1);
    expect(await eventStatuses(rounds.map((r) => r.ids[0]))).toEqual(Array(5).fill('delivered'));
  });

  it('starts nothing after a failure that came in while the queue was being read', async () => {
    const op = await newOperator();
    // The store read that follows the third round's 2xx is held until the open-round of `both`
    // has failed: its close-round, read earlier and held, must then stay queued.
    let reading = false;
    let failedSeen = false;
    let bothId = '';
    const hook = await newHook(op, () => {
      const body = JSON.parse(receiver.received.at(-1)?.body ?? '{}');
      const bothOpens = body.event === 'open-round' && body.payload?._id === bothId;
      return bothOpens ? { status: 500, after: once(() => reading) } : { status: 200 };
    });
    const [first] = await queueRounds(op, 1);
    const both = await newRound(op);
    bothId = both.roundId;
    const bothIds = await queueOpenAndClose(op, both);
    const [last] = await queueRounds(op, 1);
    const { store } = server.deps;
    let reads = 0;
    const slowStore: typeof store = {
      ...store,
      outbox: {
        ...store.outbox,
        async queuedHead(webhookId, skip, limit) {
          const events = await store.outbox.queuedHead(webhookId, skip, limit);
          if (webhookId === hook.id && ++reads === 3) {
            reading = true;
            await once(() => failedSeen);
          }
          return events;
        },
      },
    };
    const worker = createWebhookDispatcher(
      { ...server.deps, store: slowStore },
      {
        timeoutMs: TEST_TIMEOUT_MS,
        inFlightPerWebhook: 8,
        onSettled: (result) => {
          if (result === 'failed') failedSeen = true;
        },
      },
    );

    expect(await worker.runOnce()).toBe(3);
    expect(
      receiver.at(hook.path).map((r) => `${JSON.parse(r.body).event} ${JSON.parse(r.body).payload._id}`),
    ).toEqual(
      expect.arrayContaining([
        `close-round ${first?.roundId}`,
        `open-round ${both.roundId}`,
        `close-round ${last?.roundId}`,
      ]),
    );
    expect(receiver.at(hook.path)).toHaveLength(3);
    expect(await eventStatuses([...bothIds, first?.ids[0], last?.ids[0]])).toEqual([
      'queued',
      'queued',
      'delivered',
      'delivered',
    ]);
  });

  it('with inFlightPerWebhook 1, sends one event at a time', async () => {
    const op = await newOperator();
    const hook = await newHook(op, () => ({ status: 200, delayMs: 20 }));
    const rounds = await queueRounds(op, 4);
    expect(await dispatcher({ inFlightPerWebhook: 1 }).runOnce()).toBe(4);
    const timeline = receiver.timeline.filter((entry) => entry.endsWith(hook.path));
    expect(timeline).toEqual(
      Array(4)
        .fill([`in ${hook.path}`, `out ${hook.path}`])
        .flat(),
    );
    expect(receiver.at(hook.path).map((r) => JSON.parse(r.body).payload._id)).toEqual(
      rounds.map((r) => r.roundId),
    );
  });

  /** Requests of `path` the receiver holds now (received, not yet answered), and the most it held. */
  function heldAtOnce(path: string): { now: number; most: number } {
    let now = 0;
    let most = 0;
    for (const entry of receiver.timeline) {
      if (entry === `in ${path}`) most = Math.max(most, ++now);
      else if (entry === `out ${path}`) now--;
    }
    return { now, most };
  }

  /**
   * A webhook whose 2nd to (holding + 1)-th requests are answered only once `holding` wait at once
   * (or after `once`'s fallback, if the sender never sends that many together); the rest at once.
   */
  async function hookHolding(op: Operator, holding: number) {
    const path = `/hook/${hooks + 1}`;
    // Latched: the last to arrive sees them all and answers at once, before the others look again.
    let reached = false;
    const allHeld = () => {
      reached ||= heldAtOnce(path).now >= holding;
      return reached;
    };
    return newHook(op, (n) =>
      n >= 1 && n <= holding ? { status: 200, after: once(allHeld) } : { status: 200 },
    );
  }

  it('widens the window past 32 towards its cap while the queue’s head is late (delivery-window.ts)', async () => {
    const op = await newOperator();
    const wanted = STARTING_WINDOW + 16;
    const hook = await hookHolding(op, wanted);
    await queueRounds(op, 1 + wanted);
    server.clock.advance(3 * STEP_MS); // every event three steps late: a window of 8 × 32, capped
    expect(await dispatcher({ inFlightPerWebhook: 64 }).runOnce()).toBe(1 + wanted);
    expect(heldAtOnce(hook.path).most).toBe(wanted);
    expect(await log(hook)).toHaveLength(1 + wanted);
  });

  it('keeps 32 in flight while the queue’s head is on time, whatever the cap', async () => {
    const op = await newOperator();
    // 31 held at once release them: the first event may still hold its place while it is recorded.
    const hook = await hookHolding(op, STARTING_WINDOW - 1);
    await queueRounds(op, 1 + STARTING_WINDOW + 16);
    expect(await dispatcher({ inFlightPerWebhook: 64 }).runOnce()).toBe(1 + STARTING_WINDOW + 16);
    expect(heldAtOnce(hook.path).most).toBeGreaterThanOrEqual(STARTING_WINDOW - 1);
    expect(heldAtOnce(hook.path).most).toBeLessThanOrEqual(STARTING_WINDOW);
  });

  it('serves two webhooks independently and in parallel', async () => {
    const op = await newOperator();
    // The slow one answers only once the healthy one has had both its events: "slow" is an order of
    // events here, not a delay that a loaded machine could outlast.
    let healthyPath = '';
    const slowFailing = await newHook(op, () => ({
      status: 500,
      after: once(() => receiver.at(healthyPath).length === 2),
    }));
    const healthy = await newHook(op);
    healthyPath = healthy.path;
    const rounds = await queueRounds(op, 2);

    expect(await dispatcher().runOnce()).toBe(3);
    expect(receiver.at(healthy.path)).toHaveLength(2);
    expect(receiver.at(slowFailing.path)).toHaveLength(1);
    // Both of the healthy webhook's events went out while the slow one was still answering.
    const slowAnswered = receiver.timeline.indexOf(`out ${slowFailing.path}`);
    const healthyDone = receiver.timeline.lastIndexOf(`out ${healthy.path}`);
    expect(healthyDone).toBeLessThan(slowAnswered);
    expect(await Promise.all(rounds.map((r) => eventStatuses(r.ids)))).toEqual([
      ['queued', 'delivered'],
      ['queued', 'delivered'],
    ]);
    expect(await listed(op, healthy)).toMatchObject({ status: 'active', successCount: 2, failureCount: 0 });
    expect(await listed(op, slowFailing)).toMatchObject({
      status: 'active',
      successCount: 0,
      failureCount: 1,
    });
  });
});

describe('giving up', () => {
  it('gives an event up after the last step of the schedule', async () => {
    const op = await newOperator();
    const hook = await newHook(op, () => ({ status: 500 }));
    const [first, second] = (await queueRounds(op, 2)).map((q) => q.ids[0]);
    const worker = dispatcher({ schedule: [1000, 2000] });

    expect(await worker.runOnce()).toBe(1);
    server.clock.advance(1000);
    expect(await worker.runOnce()).toBe(1);
    server.clock.advance(2000);
    // The third attempt of the first event fails for good; the second event is then tried at once.
    expect(await worker.runOnce()).toBe(2);
    expect(await eventStatus(first)).toBe('failed');
    expect((await server.deps.store.outbox.findById(first ?? ''))?.attempts).toBe(3);
    expect((await log(hook)).map((row) => [row.eventId, row.status, row.retryCount])).toEqual([
      [first, 'failed', 0],
      [first, 'failed', 1],
      [first, 'failed', 2],
      [second, 'pending', 0],
    ]);
    expect(await listed(op, hook)).toMatchObject({ status: 'active', failureCount: 4 });
  });

  it('gives an event up once its first failure is older than giveUpAfterMs', async () => {
    const op = await newOperator();
    const hook = await newHook(op, () => ({ status: 500 }));
    const { ids } = await queueRound(op);
    const worker = dispatcher({ schedule: [3 * DAY, 3 * DAY, 3 * DAY], disableAfterMs: 30 * DAY });
    expect(await worker.runOnce()).toBe(1);
    server.clock.advance(3 * DAY);
    expect(await worker.runOnce()).toBe(1);
    expect(await eventStatus(ids[0])).toBe('queued');
    server.clock.advance(3 * DAY);
    expect(await worker.runOnce()).toBe(1); // 6 days after the first failure: given up
    expect(await eventStatus(ids[0])).toBe('failed');
    expect((await log(hook)).map((row) => row.status)).toEqual(['failed', 'failed', 'failed']);
    expect(await listed(op, hook)).toMatchObject({ status: 'active' });
  });

  it('disables a webhook that has failed for 5 days in a row; a success restarts the count', async () => {
    const op = await newOperator();
    let recovered = false;
    const failing = await newHook(op, () => ({ status: 500 }));
    const flaky = await newHook(op, () => ({ status: recovered ? 200 : 500 }));
    const worker = dispatcher({ schedule: [MINUTE] });
    const day = async () => {
      await queueRound(op);
      await worker.runOnce();
      server.clock.advance(MINUTE);
      await worker.runOnce();
    };

    await day(); // day 0: both fail, twice
    for (let d = 1; d <= 4; d++) {
      server.clock.advance(DAY - MINUTE);
      recovered = d === 3;
      await day();
    }
    expect(await listed(op, failing)).toMatchObject({ status: 'active', failureCount: 10 });

    server.clock.advance(DAY - 2 * MINUTE); // a minute short of 5 days since the first failure
    recovered = false;
    const [onFailing, onFlaky] = (await queueRound(op)).ids;
    const waiting = (await queueRound(op)).ids[0];
    expect(await worker.runOnce()).toBe(2);
    expect(await listed(op, failing)).toMatchObject({ status: 'active', failureCount: 11 });
    expect(await eventStatus(onFailing)).toBe('queued');

    // 5 days: its retry fails and it is disabled. The flaky one gives its event up and moves on to the next.
    server.clock.advance(MINUTE);
    expect(await worker.runOnce()).toBe(3);
    expect(await listed(op, failing)).toMatchObject({
      status: 'disabled',
      failureCount: 12,
      successCount: 0,
    });
    expect(await eventStatuses([onFailing, waiting])).toEqual(['failed', 'dropped']);
    expect((await log(failing)).slice(-2)).toEqual([
      expect.objectContaining({ status: 'failed', eventId: onFailing, retryCount: 0 }),
      expect.objectContaining({ status: 'failed', eventId: onFailing, retryCount: 1 }),
    ]);
    // The flaky one succeeded on day 3, so it has failed for 2 days only: still active.
    expect(await listed(op, flaky)).toMatchObject({ status: 'active' });
    expect(await eventStatus(onFlaky)).toBe('failed'); // its single retry is spent
  });
});

describe('running', () => {
  it('delivers as soon as the round commits once started, and stop() waits for the delivery in flight', async () => {
    const op = await newOperator();
    const hook = await newHook(op, () => ({ status: 200, delayMs: 100 }));
    const delivery = createWebhookDelivery(server.deps, { timeoutMs: 2000 });
    delivery.dispatcher.start();
    const round = await newRound(op);
    const [id] = await server.deps.store.transaction((tx) =>
      delivery.outbox.enqueue(tx, {
        clientId: op.clientId,
        roundId: round.roundId,
        eventType: 'open-round',
        payload: round.payload,
      }),
    );
    await eventually(() => receiver.at(hook.path).length === 1);
    await delivery.dispatcher.stop();
    expect(await eventStatus(id)).toBe('delivered');
  });

  it('survives a restart: a committed event is delivered by a new dispatcher over a new connection', async () => {
    const op = await newOperator();
    const hook = await newHook(op);
    const { ids } = await queueRound(op); // committed; nothing sent (no dispatcher running)

    const reopened = openConfiguredStore(server.config);
    try {
      const restarted = createWebhookDispatcher({ ...server.deps, store: reopened }, { timeoutMs: 2000 });
      restarted.start();
      await eventually(() => receiver.at(hook.path).length === 1);
      await restarted.stop();
      expect((await reopened.outbox.findById(ids[0] ?? ''))?.status).toBe('delivered');
    } finally {
      await reopened.close();
    }
    expect(await eventStatus(ids[0])).toBe('delivered');
    expect(await log(hook)).toEqual([expect.objectContaining({ eventId: ids[0], status: 'success' })]);
  });
});

/** Each unit's delivery writes (event ids per call), as the store's units ran them. */
interface RecordedUnit {
  delivered: string[][];
  marked: string[][];
  failed: string[][];
}

/** The store, recording what each unit writes of the deliveries; `gate`: what a unit waits for first. */
function recordingUnits(base: Store, gate: () => Promise<void> = async () => {}) {
  const units: RecordedUnit[] = [];
  const store = new Proxy(base, {
    get(target, key, receiver) {
      if (key !== 'transaction') return Reflect.get(target, key, receiver);
      return async (work: (tx: Transaction) => Promise<unknown>, options?: UnitOptions) => {
        await gate();
        const unit: RecordedUnit = { delivered: [], marked: [], failed: [] };
        units.push(unit);
        return base.transaction(
          (tx) =>
            work({
              ...tx,
              webhooks: {
                ...tx.webhooks,
                recordAttempts: (attempts) => {
                  unit.delivered.push(attempts.map((a) => a.eventId));
                  return tx.webhooks.recordAttempts(attempts);
                },
              },
              outbox: {
                ...tx.outbox,
                markDeliveredMany: (marked) => {
                  unit.marked.push(marked.map((m) => m.id));
                  return tx.outbox.markDeliveredMany(marked);
                },
                failMany: (failed) => {
                  unit.failed.push(failed.map((f) => f.id));
                  return tx.outbox.failMany(failed);
                },
              },
            }),
          options,
        );
      };
    },
  }) as Store;
  return { store, units };
}

describe('recording in batches', () => {
  it('records the successes answered meanwhile in one unit: log rows, events and counters together', async () => {
    const op = await newOperator();
    const hook = await newHook(op);
    const rounds = await queueRounds(op, 7);
    const events = await Promise.all(
      rounds.map(async (r) => {
        const event = await server.deps.store.outbox.findById(r.ids[0] ?? '');
        if (!event) throw new Error('event not queued');
        return event;
      }),
    );
    // Units that wait until every attempt has been answered: the first write is held while the
    // other answers come in.
    let answers = 0;
    const allAnswered = once(() => answers === events.length);
    const base = server.deps.store;
    const { store, units } = recordingUnits(base, () => allAnswered);
    const sender = createWebhookSender({
      timeoutMs: TEST_TIMEOUT_MS,
      connections: events.length,
      maxBodyBytes: 2048,
      policy: { lookup: server.deps.resolveHost, allowPrivate: () => true },
    });
    const deliver = createDeliveryAttempt({
      ...server.deps,
      store,
      sender,
      policy: { schedule: DEFAULT_RETRY_SCHEDULE, giveUpAfterMs: DAY, disableAfterMs: DAY },
    });
    const webhook = await base.webhooks.findById(hook.id);
    if (!webhook) throw new Error('webhook not made');
    const target = openTarget(server.deps.secrets, webhook);
    try {
      const results = await Promise.all(
        events.map((event) => deliver.single(target, event, () => answers++)),
      );
      expect(results).toEqual(Array(events.length).fill(true));
    } finally {
      await sender.close();
    }

    // The first write took what had been answered by then; the rest went in one more unit.
    expect(units.length).toBeLessThanOrEqual(2);
    for (const unit of units) {
      expect(unit.delivered).toHaveLength(1);
      expect(unit.marked).toEqual(unit.delivered);
    }
    expect(units.flatMap((unit) => unit.delivered.flat()).sort()).toEqual(events.map((e) => e.id).sort());
    expect(await eventStatuses(events.map((e) => e.id))).toEqual(Array(events.length).fill('delivered'));
    const logged = await log(hook);
    expect(logged.map((d) => [d.eventId, d.status, d.retryCount]).sort()).toEqual(
      events.map((e) => [e.id, 'success', 0]).sort(),
    );
    expect(await listed(op, hook)).toMatchObject({ successCount: events.length, failureCount: 0 });
  });
});

describe('batches (a batch webhook, issue 35)', () => {
  const BOTH: WebhookEvent[] = ['open-round', 'close-round'];
  async function queueBoth(operator: Operator) {
    const round = await newRound(operator);
    return { roundId: round.roundId, ids: await queueOpenAndClose(operator, round) };
  }
  const batches = (hook: Hook) =>
    receiver.at(hook.path).map((r) => ({
      id: r.headers['webhook-id'],
      events: (JSON.parse(r.body) as { events: { id: string; event: string; payload: { _id: string } }[] })
        .events,
    }));

  it('sends an idle event alone, coalesces the burst that comes while it is in flight, in round order', async () => {
    const op = await newOperator();
    let release: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hook = await newHook(op, (n) => (n === 0 ? { status: 200, after: first } : { status: 200 }), BOTH, {
      mode: 'batch',
    });
    const alone = await queueBoth(op);
    const worker = dispatcher();
    const run = worker.runOnce();
    await eventually(() => receiver.at(hook.path).length === 1);
    const burst = [];
    for (let i = 0; i < 10; i++) burst.push(await queueBoth(op));
    release();
    await run;

    const sent = batches(hook);
    // The first request: the idle webhook's queue (one round's two events); the burst in one more.
    expect(sent.length).toBeLessThan(1 + burst.length * 2);
    expect(sent[0]?.events.map((e) => e.id)).toEqual(alone.ids);
    const all = sent.flatMap((batch) => batch.events.map((e) => e.id));
    const expected = [alone, ...burst].flatMap((round) => round.ids);
    expect([...all].sort()).toEqual([...expected].sort());
    expect(new Set(all).size).toBe(all.length);
    for (const round of [alone, ...burst])
      expect(all.indexOf(round.ids[1] ?? '')).toBeGreaterThan(all.indexOf(round.ids[0] ?? ''));
    // Headers over the whole body, the batch's own id; each event logged with it, counters per event.
    for (const [i, request] of receiver.at(hook.path).entries()) {
      expect(request.headers['webhook-id']).not.toBe(sent[i]?.events[0]?.id);
      const mac = createHmac('sha256', Buffer.from(hook.token, 'utf8'))
        .update(`${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.body}`)
        .digest('base64');
      expect(request.headers['webhook-signature']).toBe(`v1,${mac}`);
    }
    const logged = await log(hook);
    expect(logged).toHaveLength(expected.length);
    const batchOf = new Map(sent.flatMap((batch) => batch.events.map((e) => [e.id, batch.id] as const)));
    for (const row of logged)
      expect(row).toMatchObject({ status: 'success', batchId: batchOf.get(row.eventId) });
    expect(await listed(op, hook)).toMatchObject({ successCount: expected.length, failureCount: 0 });
  });

  it('a failed batch is retried on the schedule until the receiver recovers; 410 disables', async () => {
    const op = await newOperator();
    const hook = await newHook(op, (n) => (n === 0 ? { status: 500 } : { status: 200 }), BOTH, {
      mode: 'batch',
    });
    const rounds = [await queueBoth(op), await queueBoth(op)];
    const ids = rounds.flatMap((round) => round.ids);
    const { store, units } = recordingUnits(server.deps.store);
    const worker = createWebhookDispatcher({ ...server.deps, store }, { timeoutMs: TEST_TIMEOUT_MS });
    expect(await worker.runOnce()).toBe(1);
    expect((await log(hook)).map((row) => row.status)).toEqual(Array(4).fill('pending'));
    // The failed batch is written as a batch: its four log rows in one call, its events in another.
    expect(units).toEqual([{ delivered: [ids], marked: [], failed: [ids] }]);
    server.clock.advance(5 * SECOND);
    expect(await worker.runOnce()).toBe(1);
    expect(await eventStatuses(ids)).toEqual(Array(4).fill('delivered'));
    const rows = await log(hook);
    expect(rows.map((row) => [row.status, row.retryCount])).toEqual([
      ...Array(4).fill(['failed', 0]),
      ...Array(4).fill(['success', 1]),
    ]);
    expect(new Set(rows.map((row) => row.batchId)).size).toBe(2);
    expect(await listed(op, hook)).toMatchObject({ successCount: 4, failureCount: 4 });

    const other = await newOperator();
    const gone = await newHook(other, () => ({ status: 410 }), BOTH, { mode: 'batch' });
    const more = (await queueBoth(other)).ids;
    expect(await dispatcher().runOnce()).toBe(1);
    expect(await eventStatuses(more)).toEqual(['failed', 'failed']);
    expect(await listed(other, gone)).toMatchObject({ status: 'disabled', failureCount: 2, successCount: 0 });
    expect(receiver.at(gone.path)).toHaveLength(1);
  });
});
