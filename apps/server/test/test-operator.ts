import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canonicalForTest } from './harness.ts';

/**
 * An operator for the play-loop tests, over real HTTP on 127.0.0.1: a wallet that checks
 * signatures and is idempotent by transactionId (amounts in major units, kept here in cents of a
 * two-decimal currency), with faults the test queues per call kind, and a webhook receiver.
 */
export type WalletKind = 'balance' | 'bet' | 'prize' | 'rollback';
export type Fault = 'http500' | 'hang' | 'drop' | 'decline' | 'insufficient' | 'ok-then-hang';

export interface WalletCall {
  kind: WalletKind;
  body: Record<string, any>;
  fault: Fault | undefined;
}

export interface ReceivedEvent {
  id: string;
  event: string;
  payload: any;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  /** Date.now() at arrival (the benchmark's webhook lag). */
  receivedAt: number;
}

export interface TestOperator {
  url: string;
  walletUrl: string;
  webhookUrl: string;
  walletSecret: string;
  calls: WalletCall[];
  events: ReceivedEvent[];
  /** Faults applied to the next calls of a kind, in order. */
  failNext(kind: WalletKind, ...faults: Fault[]): void;
  /** The webhook receiver answers these statuses next (then 200). */
  webhookAnswers(...statuses: number[]): void;
  balanceOf(credential: string): number;
  setBalance(credential: string, cents: number): void;
  close(): Promise<void>;
}

const toCents = (amount: number) => Math.round(amount * 100);

export async function startTestOperator(
  options: { startCents?: number; walletSecret?: string } = {},
): Promise<TestOperator> {
  const walletSecret = options.walletSecret ?? 'operator-wallet-secret-0123456789';
  const startCents = options.startCents ?? 100_000;
  const balances = new Map<string, number>();
  const answered = new Map<string, { status: number; body: unknown }>();
  const applied = new Map<string, { credential: string; cents: number; kind: WalletKind }>();
  const rolledBack = new Set<string>();
  const faults = new Map<WalletKind, Fault[]>();
  const hookStatuses: number[] = [];
  const calls: WalletCall[] = [];
  const events: ReceivedEvent[] = [];
  const hanging = new Set<ServerResponse>();

  const balance = (credential: string) => balances.get(credential) ?? startCents;
  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  function wallet(kind: WalletKind, body: Record<string, any>): { status: number; body: unknown } {
    const credential = String(body.credential);
    if (kind === 'balance') return { status: 200, body: { balance: balance(credential) / 100 } };
    const first = answered.get(body.transactionId);
    if (first) return first;
    const cents = toCents(body.amount);
    let result: { status: number; body: unknown };
    if (kind === 'bet') {
      if (balance(credential) < cents) result = { status: 402, body: { code: 'INSUFFICIENT_FUNDS' } };
      else {
        balances.set(credential, balance(credential) - cents);
        applied.set(body.transactionId, { credential, cents, kind });
        result = { status: 200, body: { balance: balance(credential) / 100 } };
      }
    } else if (kind === 'prize') {
      balances.set(credential, balance(credential) + cents);
      applied.set(body.transactionId, { credential, cents, kind });
      result = { status: 200, body: { balance: balance(credential) / 100 } };
    } else {
      const original = applied.get(body.originalTransactionId);
      if (original && !rolledBack.has(body.originalTransactionId)) {
        rolledBack.add(body.originalTransactionId);
        balances.set(credential, balance(credential) + original.cents);
      }
      result = { status: 200, body: { balance: balance(credential) / 100 } };
    }
    answered.set(body.transactionId, result);
    return result;
  }

  async function readBody(request: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  const server: Server = createServer(async (request, response) => {
    const raw = await readBody(request);
    const path = request.url ?? '';
    if (path === '/hooks') {
      const status = hookStatuses.shift() ?? 200;
      const parsed = JSON.parse(raw);
      events.push({
        id: String(request.headers['webhook-id']),
        event: parsed.event,
        payload: parsed.payload,
        headers: request.headers,
        raw,
        receivedAt: Date.now(),
      });
      send(response, status, { received: status < 300 });
      return;
    }
    const kind = /^\/wallet\/(balance|bet|prize|rollback)$/.exec(path)?.[1] as WalletKind | undefined;
    if (!kind) return send(response, 404, { code: 'NOT_FOUND' });
    const body = JSON.parse(raw);
    const expected = createHmac('sha512', walletSecret).update(canonicalForTest(body)).digest();
    const given = Buffer.from(String(request.headers['x-signed-request'] ?? ''), 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return send(response, 401, { code: 'INVALID_SIGNATURE' });
    }
    const fault = faults.get(kind)?.shift();
    calls.push({ kind, body, fault });
    if (fault === 'http500') return send(response, 500, { error: 'boom' });
    if (fault === 'hang') {
      hanging.add(response);
      return;
    }
    if (fault === 'drop') {
      request.socket.destroy();
      return;
    }
    if (fault === 'decline') return send(response, 403, { code: 'PLAYER_BLOCKED', message: 'blocked' });
    if (fault === 'insufficient') return send(response, 402, { code: 'INSUFFICIENT_FUNDS' });
    const result = wallet(kind, body);
    if (fault === 'ok-then-hang') {
      // The money moves, but the answer never arrives.
      hanging.add(response);
      return;
    }
    send(response, result.status, result.body);
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    walletUrl: `${url}/wallet`,
    webhookUrl: `${url}/hooks`,
    walletSecret,
    calls,
    events,
    failNext: (kind, ...list) => faults.set(kind, [...(faults.get(kind) ?? []), ...list]),
    webhookAnswers: (...statuses) => hookStatuses.push(...statuses),
    balanceOf: balance,
    setBalance: (credential, cents) => balances.set(credential, cents),
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
