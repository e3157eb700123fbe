// no-store: the example operator (examples/operator), no Raspa service
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  type OperatorOptions,
  type OperatorServer,
} from '../../../examples/operator/operator.mjs';
import { webhookChecks } from '../src/cli/webhook-check.ts';
import { signForTest } from './harness.ts';

const WALLET_SECRET = 'wallet-secret-for-the-example';
const WEBHOOK_SECRET = '5b0f5c1e-3f7e-4d57-9a43-6a2c4f3b8e11';
const NOW_MS = Date.parse('2026-03-01T12:00:00.000Z');
const NOW_S = NOW_MS / 1000;

const running: OperatorServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map(stop));
});

function stop(server: OperatorServer): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

async function start(options: OperatorOptions = {}) {
  const server = createOperator({
    walletSecret: WALLET_SECRET,
    webhookSecret: WEBHOOK_SECRET,
    log: () => {},
    now: () => NOW_MS,
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = async (path: string, raw: string, headers: Record<string, string>) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: raw,
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const wallet = (call: string, body: unknown, signature = signForTest(body, WALLET_SECRET)) =>
    post(`/wallet/${call}`, JSON.stringify(body), { 'x-signed-request': signature });
  return { server, url, post, wallet };
}

// ---------------------------------------------------------------------------------------------
// Webhooks, signed here with the test's own HMACs (docs/contract.md §7)

const delivery = {
  payload: { _id: 'round-1', status: 'closed', prize: 12.5, paidPrice: 1.5, transactions: [] },
  event: 'close-round',
};

function standardSignature(id: string, timestamp: number, raw: string, secret = WEBHOOK_SECRET): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${id}.${timestamp}.${raw}`)
    .digest('base64');
  return `v1,${mac}`;
}

function signedDelivery(id: string, options: { timestamp?: number; body?: unknown } = {}) {
  const body = options.body ?? delivery;
  const raw = JSON.stringify(body);
  const timestamp = options.timestamp ?? NOW_S;
  return {
    raw,
    headers: {
      'x-signed-request': signForTest(body, WEBHOOK_SECRET),
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': standardSignature(id, timestamp, raw),
    },
  };
}

describe('the example operator’s webhook receiver', () => {
  it('accepts a delivery signed with both schemes and records the event once', async () => {
    const { server, post } = await start();
    const { raw, headers } = signedDelivery('evt_1');
    expect(await post('/webhooks/raspa', raw, headers)).toEqual({ status: 200, body: { status: 'ok' } });
    expect(server.operator.events).toEqual([
      { id: 'evt_1', event: 'close-round', payload: delivery.payload },
    ]);
  });

  it('deduplicates a repeated webhook-id, answering 2xx so the retries stop', async () => {
    const { server, post } = await start();
    const { raw, headers } = signedDelivery('evt_2');
    await post('/webhooks/raspa', raw, headers);
    expect(await post('/webhooks/raspa', raw, headers)).toEqual({
      status: 200,
      body: { status: 'duplicate' },
    });
    expect(server.operator.events).toHaveLength(1);
  });

  it('accepts a batch and deduplicates on each event’s id, a redelivered batch included', async () => {
    const { server, post } = await start();
    await post(
      '/webhooks/raspa',
      ...(Object.values(signedDelivery('evt_b1')) as [string, Record<string, string>]),
    );
    const item = (id: string) => ({ id, event: delivery.event, payload: delivery.payload });
    const batch = signedDelivery('batch_1', { body: { events: [item('evt_b1'), item('evt_b2')] } });
    expect(await post('/webhooks/raspa', batch.raw, batch.headers)).toEqual({
      status: 200,
      body: { status: 'ok' },
    });
    const again = signedDelivery('batch_2', { body: { events: [item('evt_b2'), item('evt_b3')] } });
    expect((await post('/webhooks/raspa', again.raw, again.headers)).status).toBe(200);
    expect(server.operator.events.map((event) => event.id)).toEqual(['evt_b1', 'evt_b2', 'evt_b3']);
  });

  it('passes pnpm webhook-check in both modes, each event recorded once', async () => {
    const { server, url } = await start({ now: () => Date.now() });
    for (const check of webhookChecks(`${url}/webhooks/raspa`, WEBHOOK_SECRET, 5000)) await check.run();
    const ids = server.operator.events.map((event) => event.id);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
  });

  it('accepts any one matching signature in webhook-signature (key rotation)', async () => {
    const { post } = await start();
    const { raw, headers } = signedDelivery('evt_3');
    const rotated = `${standardSignature('evt_3', NOW_S, raw, 'an-old-secret')} ${headers['webhook-signature']}`;
    expect((await post('/webhooks/raspa', raw, { ...headers, 'webhook-signature': rotated })).status).toBe(
      200,
    );
  });

  it.each([
    [
      'a wrong x-signed-request',
      (d: ReturnType<typeof signedDelivery>) => ({
        ...d.headers,
        'x-signed-request': signForTest(delivery, 'nope'),
      }),
      'INVALID_SIGNATURE',
    ],
    [
      'no x-signed-request',
      (d: ReturnType<typeof signedDelivery>) => ({ ...d.headers, 'x-signed-request': '' }),
      'INVALID_SIGNATURE',
    ],
    [
      'a webhook-signature with another secret',
      (d: ReturnType<typeof signedDelivery>) => ({
        ...d.headers,
        'webhook-signature': standardSignature('evt_x', NOW_S, d.raw, 'another-secret'),
      }),
      'INVALID_SIGNATURE',
    ],
    [
      'a webhook-signature of another id',
      (d: ReturnType<typeof signedDelivery>) => ({
        ...d.headers,
        'webhook-signature': standardSignature('evt_y', NOW_S, d.raw),
      }),
      'INVALID_SIGNATURE',
    ],
    [
      'a v2 signature',
      (d: ReturnType<typeof signedDelivery>) => ({
        ...d.headers,
        'webhook-signature': d.headers['webhook-signature'].replace('v1,', 'v2,'),
      }),
      'INVALID_SIGNATURE',
    ],
    [
      'no webhook-id',
      (d: ReturnType<typeof signedDelivery>) => {
        const { 'webhook-id': _, ...rest } = d.headers;
        return rest;
      },
      'MISSING_HEADERS',
    ],
  ])('refuses %s with 401', async (_what, headersOf, code) => {
    const { server, post } = await start();
    const answer = await post(
      '/webhooks/raspa',
      signedDelivery('evt_x').raw,
      headersOf(signedDelivery('evt_x')),
    );
    expect(answer).toEqual({ status: 401, body: { code, message: expect.any(String) } });
    expect(server.operator.events).toHaveLength(0);
  });

  it('refuses a body changed after signing', async () => {
    const { post } = await start();
    const { headers } = signedDelivery('evt_4');
    const tampered = JSON.stringify({ ...delivery, payload: { ...delivery.payload, prize: 1250 } });
    expect((await post('/webhooks/raspa', tampered, headers)).status).toBe(401);
  });

  it.each([
    ['more than 5 minutes old', NOW_S - 301],
    ['more than 5 minutes ahead', NOW_S + 301],
  ])('refuses a timestamp %s, even when correctly signed', async (_what, timestamp) => {
    const { server, post } = await start();
    const { raw, headers } = signedDelivery('evt_5', { timestamp });
    expect(await post('/webhooks/raspa', raw, headers)).toEqual({
      status: 401,
      body: { code: 'STALE_TIMESTAMP', message: expect.any(String) },
    });
    expect(server.operator.events).toHaveLength(0);
  });

  it('accepts a timestamp just within the tolerance', async () => {
    const { post } = await start();
    const { raw, headers } = signedDelivery('evt_6', { timestamp: NOW_S - 300 });
    expect((await post('/webhooks/raspa', raw, headers)).status).toBe(200);
  });

  it('answers 400 to a body that is not JSON, 404 elsewhere, 405 to a GET', async () => {
    const { url, post } = await start();
    expect(await post('/webhooks/raspa', '{"event":', {})).toMatchObject({
      status: 400,
      body: { code: 'INVALID_JSON' },
    });
    expect((await fetch(`${url}/webhooks/other`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${url}/webhooks/raspa`)).status).toBe(405);
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok' });
  });
});

// ---------------------------------------------------------------------------------------------
// The wallet (the conformance checker covers the rules end to end; these are the edges)

const player = { sessionId: 's-1', userId: 'u-1', credential: 'joana', currency: 'BRL' };
const movement = (transactionId: string, amount: number) => ({
  ...player,
  transactionId,
  roundId: 'round-1',
  amount,
  gameId: 'game-1',
  gameModel: 'oxe-ganhei',
});

describe('the example operator’s wallet', () => {
  it('refuses a bad signature with 401 INVALID_SIGNATURE and moves nothing', async () => {
    const { server, wallet } = await start();
    const answer = await wallet('bet', movement('tx-1', 10), signForTest(movement('tx-1', 10), 'wrong'));
    expect(answer).toEqual({ status: 401, body: { code: 'INVALID_SIGNATURE', message: expect.any(String) } });
    expect(server.operator.balanceOf('joana', 'BRL')).toBeUndefined();
    // The refused id was not recorded: the same bet correctly signed goes through.
    expect(await wallet('bet', movement('tx-1', 10))).toEqual({ status: 200, body: { balance: 990 } });
  });

  it('declines with 402 INSUFFICIENT_FUNDS, and replays that answer', async () => {
    const { wallet } = await start({ startingBalance: 5 });
    const declined = { status: 402, body: { code: 'INSUFFICIENT_FUNDS', message: expect.any(String) } };
    expect(await wallet('bet', movement('tx-2', 5.01))).toEqual(declined);
    await wallet('prize', movement('tx-3', 100));
    expect(await wallet('bet', movement('tx-2', 5.01))).toEqual(declined);
  });

  it('refuses a late bet whose id was already rolled back', async () => {
    const { wallet } = await start();
    expect(await wallet('rollback', { ...movement('tx-4', 1), originalTransactionId: 'tx-lost' })).toEqual({
      status: 200,
      body: { balance: 1000 },
    });
    expect(await wallet('bet', movement('tx-lost', 1))).toMatchObject({
      status: 409,
      body: { code: 'TRANSACTION_ROLLED_BACK' },
    });
  });

  it('refuses to roll back a prize with 409 NOT_A_BET', async () => {
    const { wallet } = await start();
    await wallet('prize', movement('tx-5', 1));
    expect(await wallet('rollback', { ...movement('tx-6', 1), originalTransactionId: 'tx-5' })).toMatchObject(
      {
        status: 409,
        body: { code: 'NOT_A_BET' },
      },
    );
  });

  it.each([
    ['too many decimals', movement('tx-7', 0.001), 'amount must be positive, with at most 2 decimals'],
    ['a zero amount', movement('tx-8', 0), 'amount must be positive, with at most 2 decimals'],
    ['no credential', { ...movement('tx-9', 1), credential: '' }, 'credential is required'],
    ['no transactionId', { ...movement('', 1) }, 'transactionId is required'],
  ])('answers 400 INVALID_REQUEST to %s', async (_what, body, message) => {
    const { wallet } = await start();
    expect(await wallet('bet', body)).toEqual({ status: 400, body: { code: 'INVALID_REQUEST', message } });
  });

  it('keeps currencies apart and uses their decimals', async () => {
    const { server, wallet } = await start();
    expect(await wallet('bet', { ...movement('tx-10', 7), currency: 'JPY' })).toEqual({
      status: 200,
      body: { balance: 993 },
    });
    expect(await wallet('bet', { ...movement('tx-11', 0.001), currency: 'KWD' })).toEqual({
      status: 200,
      body: { balance: 999.999 },
    });
    expect(server.operator.balanceOf('joana', 'BRL')).toBeUndefined();
  });

  it('pays a free card’s prize with promotionId and no bet before it, recording the promotion once', async () => {
    const { server, wallet } = await start();
    const prize = { ...movement('tx-free', 2.5), roundId: 'round-free', promotionId: 'promo-1' };
    expect(await wallet('prize', prize)).toEqual({ status: 200, body: { balance: 1002.5 } });
    // The same prize again (a retry, another tab): the first answer, paid once.
    expect(await wallet('prize', prize)).toEqual({ status: 200, body: { balance: 1002.5 } });
    expect(server.operator.balanceOf('joana', 'BRL')).toBe(1002.5);
    expect(server.operator.transactionOf('tx-free')).toEqual({
      type: 'prize',
      amount: 2.5,
      currency: 'BRL',
      promotionId: 'promo-1',
      status: 'applied',
    });
    await wallet('prize', movement('tx-bought', 1));
    expect(server.operator.transactionOf('tx-bought')?.promotionId).toBeNull();
  });

  it.each([
    ['bet', movement('tx-p1', 1), 'promotionId comes only with a prize'],
    [
      'rollback',
      { ...movement('tx-p2', 1), originalTransactionId: 'tx-p1' },
      'promotionId comes only with a prize',
    ],
    ['prize', movement('tx-p3', 1), 'promotionId must be a non-empty string', ''],
    ['prize', movement('tx-p4', 1), 'promotionId must be a non-empty string', 7],
  ])(
    'refuses a %s with a misplaced or empty promotionId, moving nothing',
    async (call, body, message, promotionId: unknown = 'promo-1') => {
      const { server, wallet } = await start();
      expect(await wallet(call, { ...body, promotionId })).toEqual({
        status: 400,
        body: { code: 'INVALID_REQUEST', message },
      });
      expect(server.operator.balanceOf('joana', 'BRL')).toBeUndefined();
    },
  );

  it('treats an id like "constructor" as just an id', async () => {
    const { wallet } = await start();
    expect(await wallet('bet', movement('constructor', 1))).toEqual({ status: 200, body: { balance: 999 } });
    expect(await wallet('bet', movement('__proto__', 1))).toEqual({ status: 200, body: { balance: 998 } });
    expect(await wallet('bet', movement('__proto__', 1))).toEqual({ status: 200, body: { balance: 998 } });
  });
});

describe('the example operator with a data file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'raspa-operator-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps balances, answers and webhook ids across a restart', async () => {
    const dataFile = join(dir, 'operator.json');
    const first = await start({ dataFile });
    await first.wallet('bet', movement('tx-20', 2.5));
    const webhook = signedDelivery('evt_20');
    await first.post('/webhooks/raspa', webhook.raw, webhook.headers);
    await stop(first.server);
    const second = await start({ dataFile });
    expect(second.server.operator.balanceOf('joana', 'BRL')).toBe(997.5);
    expect(await second.wallet('bet', movement('tx-20', 2.5))).toEqual({
      status: 200,
      body: { balance: 997.5 },
    });
    expect(await second.post('/webhooks/raspa', webhook.raw, webhook.headers)).toEqual({
      status: 200,
      body: { status: 'duplicate' },
    });
  });
});
