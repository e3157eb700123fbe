import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOW_HINT } from '../src/outbound/address-policy.ts';
import type { HostLookup } from '../src/outbound/host-resolution.ts';
import { ApiError } from '../src/services/api-error.ts';
import { createWebhookService } from '../src/services/webhook-service.ts';
import type { DeliveryAttempt, WebhookEvent, WebhookRecord } from '../src/store/records.ts';
import { expectAnsweredAsUnknown } from './as-unknown.ts';
import { startTestServer, type TestServer, type TokenSet } from './harness.ts';
import { outboxEvent, seedRound, seedSeat } from './store-contract/fixtures.ts';

let server: TestServer;
let mine: TokenSet;
let mineId: string;
let theirs: TokenSet;

beforeAll(async () => {
  server = await startTestServer();
  const a = await server.newClient('Casa A');
  mine = a.tokens;
  mineId = a.clientId;
  theirs = (await server.newClient('Casa B')).tokens;
});
afterAll(() => server.close());

const TOKEN = '9b2f3c4d-1e5a-4b6c-8d7e-0f1a2b3c4d5e';
let urls = 0;
const freshUrl = () => `https://hooks.example/raspa/${++urls}`;
const hook = (url = freshUrl()) => ({
  url,
  eventTriggers: ['open-round', 'close-round'],
  signatureToken: TOKEN,
});

const register = (body: unknown, token: TokenSet = mine) =>
  server.call('POST', '/v1/webhook', { token, body });
const listWebhooks = async (token: TokenSet = mine) =>
  (await server.call('GET', '/v1/webhook', { token })).body.data as { id: string; url: string }[];
async function registered(token: TokenSet = mine, url = freshUrl()): Promise<string> {
  const answer = await register(hook(url), token);
  expect(answer.status).toBe(201);
  return answer.body.data.webhookId;
}

/** A round as a close-round event carries it. */
const ROUND_PAYLOAD = {
  _id: 'round-1',
  user: {
    _id: 'user-1',
    credential: 'ana@example.test',
    credentialType: 'email',
    balance: 1012.5,
    betWins: 1,
    totalBets: 1,
  },
  prize: 25,
  paidPrice: 12.5,
  status: 'closed',
  transactions: [
    {
      _id: 'tx-1',
      amount: -12.5,
      type: 'bet',
      currency: 'BRL',
      balanceBefore: 1000,
      balanceAfter: 987.5,
      status: 'completed',
    },
    {
      _id: 'tx-2',
      amount: 25,
      type: 'prize',
      currency: 'BRL',
      balanceBefore: 987.5,
      balanceAfter: 1012.5,
      status: 'completed',
    },
  ],
  createdAt: '2026-02-28T00:00:00.000Z',
  endAt: '2026-02-28T00:00:02.000Z',
};

function attempt(
  webhookId: string,
  fields: Partial<DeliveryAttempt> & Pick<DeliveryAttempt, 'eventId' | 'timestamp'>,
): DeliveryAttempt {
  return {
    id: server.deps.newId(),
    webhookId,
    eventType: 'close-round',
    retryCount: 0,
    responseCode: 200,
    responseBody: 'ok',
    success: true,
    durationMs: 120,
    errorMessage: null,
    willRetry: false,
    ...fields,
  };
}

/** Queues a real outbox event (on a round of `mine`): a log row shows its event's payload. */
async function queued(webhookId: string, eventId: string, eventType: WebhookEvent): Promise<void> {
  const store = server.deps.store;
  const client = await store.clients.findClientById(mineId);
  if (!client) throw new Error('the test client is missing');
  const round = await seedRound(store, await seedSeat(store, { client }));
  await store.outbox.insert(
    outboxEvent(webhookId, round.id, { id: eventId, eventType, payload: ROUND_PAYLOAD }),
  );
}

describe('webhooks repository: the delivery log and the counters agree', () => {
  const newWebhook = async (): Promise<WebhookRecord> => {
    const webhook: WebhookRecord = {
      id: server.deps.newId(),
      clientId: mineId,
      url: `https://repo.example/${server.deps.newId()}`,
      eventTriggers: ['close-round'],
      tokenSealed: server.deps.secrets.seal(TOKEN),
      status: 'active',
      createdAt: '2026-03-01T12:00:00.000Z',
      lastTriggered: null,
      successCount: 0,
      failureCount: 0,
      delivery: { mode: 'single', maxEvents: 100, maxWaitMs: 250 },
      deletedAt: null,
    };
    await server.deps.store.webhooks.insert(webhook);
    return webhook;
  };
  const repo = () => server.deps.store.webhooks;
  const allLog = (webhookId: string) =>
    repo().listDeliveries(
      webhookId,
      { status: null, from: null, before: null },
      { pageIndex: 1, pageSize: 100 },
    );

  it('records retries: pending until the next attempt, each retry closing the pending row', async () => {
    const { id } = await newWebhook();
    const first = await repo().recordAttempt(
      attempt(id, {
        eventId: 'e1',
        timestamp: '2026-03-01T10:00:00.000Z',
        success: false,
        responseCode: null,
        responseBody: '',
        errorMessage: 'timed out after 15 s',
        willRetry: true,
      }),
    );
    expect(first).toMatchObject({ status: 'pending', retryCount: 0, success: false });
    const second = await repo().recordAttempt(
      attempt(id, {
        eventId: 'e1',
        timestamp: '2026-03-01T10:00:05.000Z',
        success: false,
        responseCode: 503,
        willRetry: true,
        retryCount: 1,
      }),
    );
    expect(second).toMatchObject({ status: 'pending', retryCount: 1 });
    const third = await repo().recordAttempt(
      attempt(id, { eventId: 'e1', timestamp: '2026-03-01T10:05:05.000Z', retryCount: 2 }),
    );
    expect(third).toMatchObject({ status: 'success', retryCount: 2, success: true });
    const other = await repo().recordAttempt(
      attempt(id, {
        eventId: 'e2',
        timestamp: '2026-03-01T10:06:00.000Z',
        success: false,
        responseCode: 410,
        willRetry: false,
      }),
    );
    expect(other).toMatchObject({ status: 'failed', retryCount: 0 });
    const log = await allLog(id);
    expect(log.items.map((row) => [row.eventId, row.status, row.retryCount])).toEqual([
      ['e2', 'failed', 0],
      ['e1', 'success', 2],
      ['e1', 'failed', 1],
      ['e1', 'failed', 0],
    ]);
    expect(log.items[3]).toMatchObject({
      responseCode: null,
      responseBody: '',
      errorMessage: 'timed out after 15 s',
    });
    expect(await repo().findById(id)).toMatchObject({
      successCount: 1,
      failureCount: 3,
      lastTriggered: '2026-03-01T10:06:00.000Z',
    });
    expect(log).toMatchObject({ totalCount: 4, successCount: 1, failureCount: 3 });
  });

  it('keeps lastTriggered at the latest attempt even when an earlier one is recorded late', async () => {
    const { id } = await newWebhook();
    await repo().recordAttempt(attempt(id, { eventId: 'a', timestamp: '2026-03-01T10:00:00.000Z' }));
    await repo().recordAttempt(attempt(id, { eventId: 'b', timestamp: '2026-03-01T09:00:00.000Z' }));
    expect((await repo().findById(id))?.lastTriggered).toBe('2026-03-01T10:00:00.000Z');
  });

  it('is one transaction: a failing insert leaves counters and earlier rows untouched', async () => {
    const { id } = await newWebhook();
    const pending = await repo().recordAttempt(
      attempt(id, { eventId: 'e', timestamp: '2026-03-01T10:00:00.000Z', success: false, willRetry: true }),
    );
    const clash = attempt(id, {
      id: pending.id,
      eventId: 'e',
      timestamp: '2026-03-01T10:00:05.000Z',
      retryCount: 1,
    });
    await expect(repo().recordAttempt(clash)).rejects.toThrow();
    expect(await repo().findById(id)).toMatchObject({
      successCount: 0,
      failureCount: 1,
      lastTriggered: '2026-03-01T10:00:00.000Z',
    });
    expect((await allLog(id)).items).toMatchObject([{ id: pending.id, status: 'pending' }]);
    await expect(
      repo().recordAttempt(
        attempt('no-such-webhook', { eventId: 'e', timestamp: '2026-03-01T10:00:00.000Z' }),
      ),
    ).rejects.toThrow();
  });

  it('insertDelivery writes the row as given and leaves the counters alone', async () => {
    const { id } = await newWebhook();
    const row = {
      ...attempt(id, { eventId: 'x', timestamp: '2026-03-01T11:00:00.000Z' }),
      status: 'success' as const,
      retryCount: 0,
    };
    const { willRetry: _, ...delivery } = row;
    await repo().insertDelivery(delivery);
    // No outbox event 'x': the row has no payload to show.
    expect((await allLog(id)).items).toEqual([{ ...delivery, batchId: null, payload: null }]);
    expect(await repo().findById(id)).toMatchObject({
      successCount: 0,
      failureCount: 0,
      lastTriggered: null,
    });
  });

  it('agrees with its log after any sequence of attempts (property)', async () => {
    const step = fc.record({
      event: fc.constantFrom('e1', 'e2', 'e3'),
      success: fc.boolean(),
      willRetry: fc.boolean(),
      seconds: fc.nat(86_400),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
        const { id } = await newWebhook();
        const attempts = new Map<string, number>();
        for (const s of steps) {
          const retryCount = attempts.get(s.event) ?? 0;
          attempts.set(s.event, retryCount + 1);
          await repo().recordAttempt(
            attempt(id, {
              eventId: s.event,
              retryCount,
              success: s.success,
              willRetry: s.willRetry,
              timestamp: new Date(Date.UTC(2026, 2, 1) + s.seconds * 1000).toISOString(),
            }),
          );
        }
        const log = await allLog(id);
        const webhook = await repo().findById(id);
        expect(webhook?.successCount).toBe(log.items.filter((row) => row.success).length);
        expect(webhook?.failureCount).toBe(log.items.filter((row) => !row.success).length);
        expect(log.successCount + log.failureCount).toBe(log.totalCount);
        expect(log.totalCount).toBe(steps.length);
        const latest =
          log.items
            .map((row) => row.timestamp)
            .sort()
            .at(-1) ?? null;
        expect(webhook?.lastTriggered).toBe(latest);
        for (const event of ['e1', 'e2', 'e3']) {
          const rows = log.items.filter((row) => row.eventId === event);
          expect(rows.map((row) => row.retryCount).sort((x, y) => x - y)).toEqual(
            rows.map((_, index) => index),
          );
          expect(rows.filter((row) => row.status === 'pending').length).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('setStatus disables a webhook', async () => {
    const id = await registered();
    await repo().setStatus(id, 'disabled');
    expect((await listWebhooks()).find((webhook) => webhook.id === id)).toMatchObject({ status: 'disabled' });
  });
});

describe('POST /v1/webhook', () => {
  it('registers a webhook, keeps the token sealed and lists it with the spec’s fields and its delivery', async () => {
    server.clock.advance(1000);
    const url = freshUrl();
    const answer = await register(hook(url));
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ status: 'success', data: { webhookId: expect.any(String) } });
    const id = answer.body.data.webhookId;
    expect((await listWebhooks()).find((webhook) => webhook.id === id)).toEqual({
      id,
      url,
      eventTriggers: ['open-round', 'close-round'],
      signatureToken: TOKEN,
      status: 'active',
      createdAt: server.clock().toISOString(),
      lastTriggered: null,
      failureCount: 0,
      successCount: 0,
      delivery: { mode: 'single', maxEvents: 100, maxWaitMs: 250 },
    });
    const stored = await server.deps.store.webhooks.findById(id);
    expect(stored?.tokenSealed).not.toContain(TOKEN);
    expect(server.deps.secrets.open(stored?.tokenSealed ?? '')).toBe(TOKEN);
  });

  it('keeps the URL as new URL writes it and one event list as given', async () => {
    const answer = await register({
      url: 'HTTPS://Norm.Example:443',
      eventTriggers: ['close-round'],
      signatureToken: TOKEN,
    });
    expect(answer.status).toBe(201);
    expect((await listWebhooks()).find((webhook) => webhook.id === answer.body.data.webhookId)).toMatchObject(
      {
        url: 'https://norm.example/',
        eventTriggers: ['close-round'],
      },
    );
  });

  it.each([
    [{ ...hook(), url: undefined }, ['url is required']],
    [{ ...hook(), url: 'ftp://hooks.example/x' }, ['url: must be an http(s) URL']],
    [{ ...hook(), url: 'hooks.example/x' }, ['url: must be an http(s) URL']],
    [{ ...hook(), url: 42 }, ['url: must be an http(s) URL']],
    [
      { ...hook(), url: `https://hooks.example/${'x'.repeat(2048)}` },
      ['url: must be at most 2048 characters'],
    ],
    [{ ...hook(), eventTriggers: undefined }, ['eventTriggers is required']],
    [{ ...hook(), eventTriggers: 'open-round' }, ['eventTriggers: must be a list of events']],
    [{ ...hook(), eventTriggers: [] }, ['eventTriggers: must list at least one event']],
    [
      { ...hook(), eventTriggers: ['open-round', 'win'] },
      ['eventTriggers.1: must be open-round, close-round or anchor'],
    ],
    [
      { ...hook(), eventTriggers: ['close-round', 'close-round'] },
      ['eventTriggers: must not list an event twice'],
    ],
    [{ ...hook(), signatureToken: undefined }, ['signatureToken is required']],
    [
      { ...hook(), signatureToken: 'not-a-uuid' },
      ['signatureToken: must be a UUID, e.g. 9b2f3c4d-1e5a-4b6c-8d7e-0f1a2b3c4d5e'],
    ],
    [{}, ['url is required', 'eventTriggers is required', 'signatureToken is required']],
    [{ ...hook(), delivery: 'batch' }, ['delivery: must be an object: {mode, maxEvents, maxWaitMs}']],
    [{ ...hook(), delivery: {} }, ['delivery.mode is required']],
    [{ ...hook(), delivery: { mode: 'bulk' } }, ['delivery.mode: must be single or batch']],
    [
      { ...hook(), delivery: { mode: 'batch', maxEvents: 501 } },
      ['delivery.maxEvents: must be a whole number from 1 to 500'],
    ],
    [
      { ...hook(), delivery: { mode: 'batch', maxEvents: 0 } },
      ['delivery.maxEvents: must be a whole number from 1 to 500'],
    ],
    [
      { ...hook(), delivery: { mode: 'batch', maxWaitMs: 2.5 } },
      ['delivery.maxWaitMs: must be a whole number of milliseconds from 0 to 5000'],
    ],
    [
      { ...hook(), delivery: { mode: 'batch', maxWaitMs: 5001 } },
      ['delivery.maxWaitMs: must be a whole number of milliseconds from 0 to 5000'],
    ],
  ])('refuses %o and changes nothing', async (body, messages) => {
    const before = (await listWebhooks()).length;
    expect(await register(body)).toMatchObject({
      status: 400,
      body: { status: 'error', code: 'VALIDATION_ERROR', messages },
    });
    expect((await listWebhooks()).length).toBe(before);
  });

  it('takes a batch delivery, its limits defaulted, and lists it', async () => {
    const given = await register({ ...hook(), delivery: { mode: 'batch', maxEvents: 500, maxWaitMs: 0 } });
    const defaulted = await register({ ...hook(), delivery: { mode: 'batch' } });
    const listed = await listWebhooks();
    const delivery = (id: string) => (listed.find((w) => w.id === id) as { delivery?: unknown })?.delivery;
    expect(delivery(given.body.data.webhookId)).toEqual({ mode: 'batch', maxEvents: 500, maxWaitMs: 0 });
    expect(delivery(defaulted.body.data.webhookId)).toEqual({
      mode: 'batch',
      maxEvents: 100,
      maxWaitMs: 250,
    });
  });

  it('answers 409 for a URL the client already has, also spelled differently; another client may use it', async () => {
    const url = freshUrl();
    const id = await registered(mine, url);
    const before = (await listWebhooks()).length;
    expect(await register(hook(url))).toEqual({
      status: 409,
      body: {
        status: 'error',
        code: 'CONFLICT',
        messages: [`a webhook for ${url} is already registered (webhookId ${id})`],
      },
      headers: expect.anything(),
    });
    expect(
      await register(hook(url.replace('https://hooks.example', 'HTTPS://HOOKS.EXAMPLE:443'))),
    ).toMatchObject({ status: 409 });
    expect((await listWebhooks()).length).toBe(before);
    expect(await register(hook(url), theirs)).toMatchObject({ status: 201 });
  });

  it('lets a deleted webhook’s URL be registered again', async () => {
    const url = freshUrl();
    const id = await registered(mine, url);
    await server.call('DELETE', `/v1/webhook/${id}`, { token: mine });
    const again = await register(hook(url));
    expect(again.status).toBe(201);
    expect(again.body.data.webhookId).not.toBe(id);
  });

  it('needs a token and a valid signature, and changes nothing without them', async () => {
    const before = (await listWebhooks()).length;
    expect(await server.call('POST', '/v1/webhook', { body: hook() })).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
    expect(
      await server.call('POST', '/v1/webhook', { token: mine, body: hook(), sign: false }),
    ).toMatchObject({
      status: 401,
      body: { code: 'INVALID_SIGNATURE' },
    });
    expect(
      await server.call('POST', '/v1/webhook', { token: mine, body: hook(), sign: '0'.repeat(128) }),
    ).toMatchObject({
      status: 401,
      body: { code: 'INVALID_SIGNATURE' },
    });
    expect((await listWebhooks()).length).toBe(before);
  });

  /** The addresses refused by default, in every notation, and the host the refusal names. */
  const refusedUrls: readonly (readonly [url: string, reason: string])[] = [
    ['http://127.0.0.1:4001/hook', '127.0.0.1 is a loopback address'],
    ['http://[::1]:4001/hook', '[::1] is a loopback address'],
    ['http://0.0.0.0:4001/hook', '0.0.0.0 is the unspecified address'],
    ['http://0/hook', '0.0.0.0 is the unspecified address'],
    ['http://[::]/hook', '[::] is the unspecified address'],
    ['http://2130706433/hook', '127.0.0.1 is a loopback address'],
    ['http://0177.0.0.1/hook', '127.0.0.1 is a loopback address'],
    ['http://0x7f.1/hook', '127.0.0.1 is a loopback address'],
    ['http://0x7f000001/hook', '127.0.0.1 is a loopback address'],
    ['http://127.1/hook', '127.0.0.1 is a loopback address'],
    ['http://127.0.0.1./hook', '127.0.0.1 is a loopback address'],
    ['http://[::ffff:127.0.0.1]/hook', '[::ffff:7f00:1] is a loopback address'],
    ['http://[::ffff:7f00:1]/hook', '[::ffff:7f00:1] is a loopback address'],
    ['http://[64:ff9b::7f00:1]/hook', '[64:ff9b::7f00:1] is a loopback address'],
    ['http://[2002:7f00:1::1]/hook', '[2002:7f00:1::1] is a loopback address'],
    ['http://localhost:4000/x', 'localhost is a loopback address'],
    ['http://LocalHost./x', 'localhost is a loopback address'],
    ['http://receiver.localhost/x', 'receiver.localhost is a loopback address'],
    ['http://10.0.0.1/hook', '10.0.0.1 is a private address'],
    ['http://172.16.5.4/hook', '172.16.5.4 is a private address'],
    ['http://192.168.0.10/hook', '192.168.0.10 is a private address'],
    ['http://[::ffff:10.0.0.1]/hook', '[::ffff:a00:1] is a private address'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a link-local address'],
    ['http://[fe80::1]/hook', '[fe80::1] is a link-local address'],
    ['http://[fd00::5]/hook', '[fd00::5] is a unique-local IPv6 address'],
    ['http://100.64.0.1/hook', '100.64.0.1 is a carrier-grade NAT (shared) address'],
    ['http://224.0.0.1/hook', '224.0.0.1 is a multicast address'],
    ['http://192.0.2.1/hook', '192.0.2.1 is an address reserved for documentation'],
  ];

  it.each(refusedUrls)(
    'refuses %s by default: 400 naming the field, the address and the setting',
    async (url, reason) => {
      const before = (await listWebhooks()).length;
      expect(await register(hook(url))).toMatchObject({
        status: 400,
        body: { status: 'error', code: 'VALIDATION_ERROR', messages: [`url: ${reason}; ${ALLOW_HINT}`] },
      });
      expect((await listWebhooks()).length).toBe(before);
    },
  );

  it('refuses a zone id (not a URL host) and accepts public addresses by default', async () => {
    expect(await register(hook('http://[fe80::1%25eth0]/hook'))).toMatchObject({ status: 400 });
    expect(await register(hook('https://8.8.8.8/hook'))).toMatchObject({ status: 201 });
    expect(await register(hook('https://[2606:4700:4700::1111]/hook'))).toMatchObject({ status: 201 });
  });

  it('accepts private addresses with OUTBOUND_ALLOW_PRIVATE=true (local integration)', async () => {
    server.deps.settings.allowPrivateOutbound = true;
    try {
      for (const url of [
        'http://127.0.0.1:4000/hook',
        'http://localhost:4000/hook',
        'http://[::1]:4000/hook',
      ]) {
        expect(await register(hook(url))).toMatchObject({ status: 201 });
      }
    } finally {
      server.deps.settings.allowPrivateOutbound = false;
    }
  });

  it('resolves host names with the injected resolver and refuses one that answers a private address', async () => {
    const auth = { clientId: mineId, tokenSetId: 'test', via: 'api-key' as const, signatureToken: 'test' };
    const lookup: HostLookup = async (host) => [
      { address: host === 'inside.example' ? '10.0.0.7' : '93.184.215.14', family: 4 },
    ];
    const service = createWebhookService({ ...server.deps, resolveHost: lookup });
    const refused = service.register(auth, {
      url: 'https://inside.example/hook',
      eventTriggers: ['open-round'],
      signatureToken: TOKEN,
    });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      messages: [`url: inside.example resolves to 10.0.0.7, a private address; ${ALLOW_HINT}`],
    });
    const accepted = await service.register(auth, {
      url: 'https://outside.example/hook',
      eventTriggers: ['open-round'],
      signatureToken: TOKEN,
    });
    expect(accepted).toMatchObject({ url: 'https://outside.example/hook', status: 'active' });
  });

  it('refuses a host name that does not resolve', async () => {
    expect(await register(hook('https://nowhere.invalid/hook'))).toMatchObject({
      status: 400,
      body: { messages: ['url: the host nowhere.invalid could not be resolved'] },
    });
  });
});

describe('GET /v1/webhook', () => {
  it('lists only the caller’s live webhooks, oldest first', async () => {
    const fresh = await server.newClient('Fresh');
    expect(await server.call('GET', '/v1/webhook', { token: fresh.tokens })).toEqual({
      status: 200,
      body: { status: 'success', data: [] },
      headers: expect.anything(),
    });
    const first = await registered(fresh.tokens);
    server.clock.advance(1);
    const second = await registered(fresh.tokens);
    const third = await registered(fresh.tokens);
    await server.call('DELETE', `/v1/webhook/${second}`, { token: fresh.tokens });
    expect((await listWebhooks(fresh.tokens)).map((webhook) => webhook.id)).toEqual([first, third]);
    expect((await listWebhooks()).map((webhook) => webhook.id)).not.toContain(first);
  });

  it('needs a token', async () => {
    expect(await server.call('GET', '/v1/webhook')).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
  });
});

describe('GET /v1/webhook/{webhookId}: the delivery log', () => {
  let webhookId: string;
  const at: Record<string, string> = {};

  beforeAll(async () => {
    webhookId = await registered();
    const events = new Set<string>();
    const record = async (
      name: string,
      fields: Partial<DeliveryAttempt> & Pick<DeliveryAttempt, 'eventId' | 'timestamp'>,
    ) => {
      if (!events.has(fields.eventId)) {
        await queued(webhookId, fields.eventId, fields.eventType ?? 'close-round');
        events.add(fields.eventId);
      }
      at[name] = (await server.deps.store.webhooks.recordAttempt(attempt(webhookId, fields))).id;
    };
    await record('e1', {
      eventId: 'ev-1',
      eventType: 'open-round',
      timestamp: '2026-02-27T23:59:59.999Z',
      success: false,
      responseCode: null,
      responseBody: '',
      durationMs: 15_000,
      errorMessage: 'no answer within 15 s',
      willRetry: true,
    });
    await record('e1retry', {
      eventId: 'ev-1',
      retryCount: 1,
      eventType: 'open-round',
      timestamp: '2026-02-28T00:00:00.000Z',
    });
    await record('e2', {
      eventId: 'ev-2',
      timestamp: '2026-02-28T23:59:59.999Z',
      success: false,
      responseCode: 500,
      responseBody: 'oops',
      errorMessage: 'HTTP 500',
      willRetry: true,
    });
    await record('e3', {
      eventId: 'ev-3',
      eventType: 'open-round',
      timestamp: '2026-03-01T00:00:00.000Z',
      responseCode: 204,
      responseBody: '',
    });
    await record('e4', {
      eventId: 'ev-4',
      timestamp: '2026-03-01T10:00:00.000Z',
      success: false,
      responseCode: 410,
      responseBody: 'gone',
      errorMessage: 'HTTP 410',
      willRetry: false,
    });
  });

  const logs = (query = '', token: TokenSet = mine, id = webhookId) =>
    server.call('GET', `/v1/webhook/${id}${query}`, { token });
  const logIds = (answer: { body: { data: { id: string }[] } }) => answer.body.data.map((row) => row.id);

  it('lists every attempt newest first with the spec’s fields and its batch, counts agreeing with the webhook', async () => {
    const answer = await logs();
    expect(answer.status).toBe(200);
    expect(logIds(answer)).toEqual(['e4', 'e3', 'e2', 'e1retry', 'e1'].map((name) => at[name]));
    expect(answer.body.pagination).toEqual({
      pageIndex: 1,
      pageSize: 20,
      totalCount: 5,
      successCount: 2,
      failureCount: 3,
    });
    expect(answer.body.data[4]).toEqual({
      id: at.e1,
      webhookId,
      eventId: 'ev-1',
      eventType: 'open-round',
      payload: ROUND_PAYLOAD,
      responseCode: null,
      responseBody: '',
      success: false,
      duration: 15_000,
      timestamp: '2026-02-27T23:59:59.999Z',
      retryCount: 0,
      errorMessage: 'no answer within 15 s',
      batchId: null,
    });
    expect(answer.body.data[3]).toMatchObject({
      responseCode: 200,
      responseBody: 'ok',
      success: true,
      duration: 120,
      retryCount: 1,
      errorMessage: null,
    });
    expect((await listWebhooks()).find((webhook) => webhook.id === webhookId)).toMatchObject({
      successCount: 2,
      failureCount: 3,
      lastTriggered: '2026-03-01T10:00:00.000Z',
    });
  });

  it.each([
    ['?status=success', ['e3', 'e1retry'], { totalCount: 2, successCount: 2, failureCount: 0 }],
    ['?status=failed', ['e4', 'e1'], { totalCount: 2, successCount: 0, failureCount: 2 }],
    ['?status=pending', ['e2'], { totalCount: 1, successCount: 0, failureCount: 1 }],
    ['?dateStart=2026-03-01', ['e4', 'e3'], { totalCount: 2, successCount: 1, failureCount: 1 }],
    ['?dateEnd=2026-02-28', ['e2', 'e1retry', 'e1'], { totalCount: 3, successCount: 1, failureCount: 2 }],
    [
      '?dateStart=2026-02-28&dateEnd=2026-02-28',
      ['e2', 'e1retry'],
      { totalCount: 2, successCount: 1, failureCount: 1 },
    ],
    ['?dateStart=2026-02-27&dateEnd=2026-02-27', ['e1'], { totalCount: 1, successCount: 0, failureCount: 1 }],
    ['?dateStart=2026-03-02', [], { totalCount: 0, successCount: 0, failureCount: 0 }],
    [
      '?status=success&dateStart=2026-02-28&dateEnd=2026-02-28',
      ['e1retry'],
      { totalCount: 1, successCount: 1, failureCount: 0 },
    ],
  ])('filters %s, counting over the filtered rows', async (query, names, counts) => {
    const answer = await logs(query);
    expect(answer.status).toBe(200);
    expect(logIds(answer)).toEqual(names.map((name) => at[name]));
    expect(answer.body.pagination).toEqual({ pageIndex: 1, pageSize: 20, ...counts });
  });

  it('pages with pageSize 1 and 100, and past the last page', async () => {
    const seen: string[] = [];
    for (let pageIndex = 1; pageIndex <= 5; pageIndex++) {
      const page = await logs(`?pageSize=1&pageIndex=${pageIndex}`);
      expect(page.body.pagination).toEqual({
        pageIndex,
        pageSize: 1,
        totalCount: 5,
        successCount: 2,
        failureCount: 3,
      });
      seen.push(...logIds(page));
    }
    expect(seen).toEqual(['e4', 'e3', 'e2', 'e1retry', 'e1'].map((name) => at[name]));
    expect(logIds(await logs('?pageSize=100'))).toEqual(seen);
    expect((await logs('?pageSize=2&pageIndex=3')).body.data).toHaveLength(1);
    expect((await logs('?pageSize=1&pageIndex=6')).body).toEqual({
      status: 'success',
      data: [],
      pagination: { pageIndex: 6, pageSize: 1, totalCount: 5, successCount: 2, failureCount: 3 },
    });
  });

  it.each([
    ['?status=ok', ['status: must be success, failed or pending']],
    ['?dateStart=2026-02-30', ['dateStart: must be a date as YYYY-MM-DD']],
    ['?dateEnd=28-02-2026', ['dateEnd: must be a date as YYYY-MM-DD']],
    ['?dateStart=2026-03-01&dateEnd=2026-02-28', ['dateStart: must not be after dateEnd']],
    ['?pageSize=0', ['pageSize: must be between 1 and 100']],
    ['?pageSize=101', ['pageSize: must be between 1 and 100']],
    ['?pageIndex=0', ['pageIndex: must be 1 or more']],
    [
      '?pageSize=500&status=all',
      ['pageSize: must be between 1 and 100', 'status: must be success, failed or pending'],
    ],
  ])('refuses %s', async (query, messages) => {
    expect(await logs(query)).toMatchObject({
      status: 400,
      body: { status: 'error', code: 'VALIDATION_ERROR', messages },
    });
  });

  it('answers 404 for an unknown webhook and the same for another client’s, 401 without a token', async () => {
    const unknown = await logs('', mine, 'nope');
    expect(unknown).toMatchObject({
      status: 404,
      body: { status: 'error', code: 'NOT_FOUND', messages: ['webhook nope was not found'] },
    });
    expectAnsweredAsUnknown(await logs('', theirs), unknown, { theirs: webhookId, unknown: 'nope' });
    expect(await server.call('GET', `/v1/webhook/${webhookId}`)).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
  });
});

describe('DELETE /v1/webhook/{webhookId}', () => {
  it('soft-deletes: gone from the list and the log route, its log kept for audit', async () => {
    const id = await registered();
    await server.deps.store.webhooks.recordAttempt(
      attempt(id, { eventId: 'kept', timestamp: '2026-03-01T11:00:00.000Z' }),
    );
    server.clock.advance(5000);
    const answer = await server.call('DELETE', `/v1/webhook/${id}`, { token: mine });
    expect(answer).toMatchObject({ status: 200, body: { status: 'success' } });
    expect(answer.body).toEqual({ status: 'success' });
    expect((await listWebhooks()).map((webhook) => webhook.id)).not.toContain(id);
    expect(await server.call('GET', `/v1/webhook/${id}`, { token: mine })).toMatchObject({ status: 404 });
    expect(await server.deps.store.webhooks.findById(id)).toMatchObject({
      deletedAt: server.clock().toISOString(),
      successCount: 1,
    });
    const kept = await server.deps.store.webhooks.listDeliveries(
      id,
      { status: null, from: null, before: null },
      { pageIndex: 1, pageSize: 10 },
    );
    expect(kept.totalCount).toBe(1);
    expect(await server.call('DELETE', `/v1/webhook/${id}`, { token: mine })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND', messages: [`webhook ${id} was not found`] },
    });
  });

  it('answers another client’s webhook as an unknown one and leaves it in place', async () => {
    const id = await registered();
    expectAnsweredAsUnknown(
      await server.call('DELETE', `/v1/webhook/${id}`, { token: theirs }),
      await server.call('DELETE', '/v1/webhook/nope', { token: mine }),
      { theirs: id, unknown: 'nope' },
    );
    expect((await listWebhooks()).map((webhook) => webhook.id)).toContain(id);
    expect((await server.deps.store.webhooks.findById(id))?.deletedAt).toBeNull();
  });

  it('answers 404 for an unknown webhook and 401 without a token', async () => {
    expect(await server.call('DELETE', '/v1/webhook/nope', { token: mine })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND', messages: ['webhook nope was not found'] },
    });
    const id = await registered();
    expect(await server.call('DELETE', `/v1/webhook/${id}`)).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
    expect((await listWebhooks()).map((webhook) => webhook.id)).toContain(id);
  });
});
