import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canonicalForTest } from './harness.ts';

/**
 * An operator for the play-loop tests, over real HTTP on 127.0.0.1: a wallet that checks
 * signatures and is idempotent by transactionId (amounts in major units, kept here in cents of a
 * two-decimal currency, one balance per player and currency), with faults the test queues per call
 * kind or picks per call, a log of every move it made, and a webhook receiver.
 */
export type WalletKind = 'balance' | 'bet' | 'prize' | 'rollback';
/**
 * What goes wrong with a call. Before the wallet: http500, hang, drop (the connection is reset),
 * decline / insufficient (a definite no, not remembered: only to a transactionId the wallet has
 * not answered yet, since an idempotent wallet answers a repeat with its first answer). After the wallet moved the money, the
 * answer is lost: ok-then-hang, ok-then-500, ok-then-drop.
 */
export type Fault =
  | 'http500'
  | 'hang'
  | 'drop'
  | 'decline'
  | 'insufficient'
  /** Declines with the codes a wallet enforcing its own player protection answers (CONTRACT §13). */
  | 'limit-reached'
  | 'excluded'
  | 'ok-then-hang'
  | 'ok-then-500'
  | 'ok-then-drop';

/** One change the wallet made to a balance: its own ledger. */
export interface WalletMove {
  credential: string;
  currency: string;
  roundId: string;
  transactionId: string;
  kind: 'bet' | 'prize' | 'rollback';
  /** Signed: what the player's balance changed by. */
  cents: number;
}

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
  /** The sender's port: which process posted it (connection-owner.ts). */
  remotePort: number | undefined;
  /** The HTTP status the receiver answered; 0 while it holds the request (holdWebhooks). */
  status: number;
  /** The request's webhook-id when the event came in a batch (`{"events": [...]}`); else undefined. */
  batchId?: string;
}

/** The receiver accepted this receipt (a held one is not, until answered 2xx). */
export const accepted = (receipt: Pick<ReceivedEvent, 'status'>): boolean =>
  receipt.status >= 200 && receipt.status < 300;

export interface TestOperator {
  url: string;
  walletUrl: string;
  webhookUrl: string;
  walletSecret: string;
  calls: WalletCall[];
  /** Every balance change the wallet made, in order. */
  moves: WalletMove[];
  events: ReceivedEvent[];
  /** Webhook requests received (a batch is one request for several events). */
  hookRequests(): number;
  /** Faults applied to the next calls of a kind, in order. */
  failNext(kind: WalletKind, ...faults: Fault[]): void;
  /**
   * Holds the next call of a kind before the wallet reads it: `arrived` resolves when it is here,
   * and `answer()` lets the wallet go on with it as with any other call.
   */
  holdNext(kind: WalletKind): { arrived: Promise<void>; answer(): void };
  /** The webhook receiver answers these statuses next (then 200). */
  webhookAnswers(...statuses: number[]): void;
  /**
   * While on, the receiver answers no delivery: each is logged (status 0) and held until
   * answerHeldWebhooks, or until the sender goes away (a crash mid-batch).
   */
  holdWebhooks(on: boolean): void;
  /**
   * Answers the deliveries held so far, the oldest `count` of them (default all), with `status`
   * (their receipts take it); returns how many.
   */
  answerHeldWebhooks(status?: number, count?: number): number;
  /** Deliveries held and not answered yet. */
  heldWebhooks(): number;
  balanceOf(credential: string, currency?: string): number;
  setBalance(credential: string, cents: number, currency?: string): void;
  close(): Promise<void>;
}

const toCents = (amount: number) => Math.round(amount * 100);

/** The wallet's definite noes, by fault. */
const DECLINES: Partial<Record<Fault, { status: number; body: Record<string, string> }>> = {
  decline: { status: 403, body: { code: 'PLAYER_BLOCKED', message: 'blocked' } },
  insufficient: { status: 402, body: { code: 'INSUFFICIENT_FUNDS' } },
  'limit-reached': { status: 403, body: { code: 'LIMIT_REACHED', message: 'daily loss limit' } },
  excluded: { status: 403, body: { code: 'PLAYER_EXCLUDED', message: 'self-excluded' } },
};

export async function startTestOperator(
  options: {
    startCents?: number;
    walletSecret?: string;
    /** Picks the fault of each call not given one by failNext (undefined: none). */
    chooseFault?: (kind: WalletKind, body: Record<string, any>) => Fault | undefined;
  } = {},
): Promise<TestOperator> {
  const walletSecret = options.walletSecret ?? 'operator-wallet-secret-0123456789';
  const startCents = options.startCents ?? 100_000;
  const balances = new Map<string, number>();
  const answered = new Map<string, { status: number; body: unknown }>();
  const applied = new Map<string, { credential: string; cents: number; kind: WalletKind }>();
  const rolledBack = new Set<string>();
  const faults = new Map<WalletKind, Fault[]>();
  const holds = new Map<WalletKind, Array<{ arrive(): void; answered: Promise<void> }>>();
  const hookStatuses: number[] = [];
  let holdingHooks = false;
  const heldHooks: Array<{ response: ServerResponse; receipts: ReceivedEvent[] }> = [];
  let hookRequests = 0;
  const calls: WalletCall[] = [];
  const moves: WalletMove[] = [];
  const events: ReceivedEvent[] = [];
  const hanging = new Set<ServerResponse>();

  const account = (credential: string, currency: string) => `${credential}\u0000${currency}`;
  const balance = (credential: string, currency = 'BRL') =>
    balances.get(account(credential, currency)) ?? startCents;
  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  function wallet(kind: WalletKind, body: Record<string, any>): { status: number; body: unknown } {
    const credential = String(body.credential);
    const currency = String(body.currency);
    const balanceNow = () => ({ balance: balance(credential, currency) / 100 });
    if (kind === 'balance') return { status: 200, body: balanceNow() };
    const first = answered.get(body.transactionId);
    if (first) return first;
    const cents = toCents(body.amount);
    const move = (delta: number) => {
      balances.set(account(credential, currency), balance(credential, currency) + delta);
      moves.push({
        credential,
        currency,
        roundId: String(body.roundId),
        transactionId: String(body.transactionId),
        kind,
        cents: delta,
      });
    };
    let result: { status: number; body: unknown };
    if (kind === 'bet') {
      if (balance(credential, currency) < cents)
        result = { status: 402, body: { code: 'INSUFFICIENT_FUNDS' } };
      else {
        move(-cents);
        applied.set(body.transactionId, { credential, cents, kind });
        result = { status: 200, body: balanceNow() };
      }
    } else if (kind === 'prize') {
      move(cents);
      applied.set(body.transactionId, { credential, cents, kind });
      result = { status: 200, body: balanceNow() };
    } else {
      const original = applied.get(body.originalTransactionId);
      if (original && !rolledBack.has(body.originalTransactionId)) {
        rolledBack.add(body.originalTransactionId);
        move(original.cents);
      } else if (!original && !answered.has(body.originalTransactionId)) {
        // Never seen: a success that moves nothing, and a bet arriving later with that id may not debit.
        answered.set(body.originalTransactionId, { status: 409, body: { code: 'TRANSACTION_ROLLED_BACK' } });
      }
      result = { status: 200, body: balanceNow() };
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
      const parsed = JSON.parse(raw);
      hookRequests++;
      const common = {
        headers: request.headers,
        raw,
        receivedAt: Date.now(),
        remotePort: request.socket.remotePort,
        status: 0,
      };
      const webhookId = String(request.headers['webhook-id']);
      // A batch webhook's request carries several events, each with its own id (issue 35).
      const receipts: ReceivedEvent[] = Array.isArray(parsed.events)
        ? parsed.events.map((item: { id: string; event: string; payload: unknown }) => ({
            ...common,
            id: item.id,
            event: item.event,
            payload: item.payload,
            batchId: webhookId,
          }))
        : [{ ...common, id: webhookId, event: parsed.event, payload: parsed.payload }];
      events.push(...receipts);
      if (holdingHooks) {
        heldHooks.push({ response, receipts });
        return;
      }
      const status = hookStatuses.shift() ?? 200;
      for (const receipt of receipts) receipt.status = status;
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
    const hold = holds.get(kind)?.shift();
    if (hold) {
      hold.arrive();
      await hold.answered;
    }
    let fault = faults.get(kind)?.shift() ?? options.chooseFault?.(kind, body);
    // A definite no is the wallet's own answer: a repeat gets the first answer instead.
    const refusal = fault && DECLINES[fault];
    if (refusal && answered.has(body.transactionId)) fault = undefined;
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
    if (fault && refusal) return send(response, refusal.status, refusal.body);
    const result = wallet(kind, body);
    // The money moves, but the answer never arrives.
    if (fault === 'ok-then-hang') {
      hanging.add(response);
      return;
    }
    if (fault === 'ok-then-500') return send(response, 500, { error: 'lost after the move' });
    if (fault === 'ok-then-drop') {
      request.socket.destroy();
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
    moves,
    events,
    hookRequests: () => hookRequests,
    failNext: (kind, ...list) => faults.set(kind, [...(faults.get(kind) ?? []), ...list]),
    holdNext: (kind) => {
      let arrive!: () => void;
      let answer!: () => void;
      const arrived = new Promise<void>((resolve) => {
        arrive = resolve;
      });
      const answered = new Promise<void>((resolve) => {
        answer = resolve;
      });
      holds.set(kind, [...(holds.get(kind) ?? []), { arrive, answered }]);
      return { arrived, answer };
    },
    webhookAnswers: (...statuses) => hookStatuses.push(...statuses),
    holdWebhooks: (on) => {
      holdingHooks = on;
    },
    answerHeldWebhooks: (status = 200, count = heldHooks.length) => {
      const answering = heldHooks.splice(0, count);
      for (const { response, receipts } of answering) {
        // A sender that died meanwhile gets nothing: its receipts stay unanswered (status 0).
        if (response.destroyed || response.socket?.destroyed) continue;
        for (const receipt of receipts) receipt.status = status;
        send(response, status, { received: status < 300 });
      }
      return answering.length;
    },
    heldWebhooks: () => heldHooks.length,
    balanceOf: balance,
    setBalance: (credential, cents, currency = 'BRL') => balances.set(account(credential, currency), cents),
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        for (const { response } of heldHooks.splice(0)) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
