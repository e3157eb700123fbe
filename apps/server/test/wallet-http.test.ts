import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, silentLogger } from '../src/logger.ts';
import { createHttpWallet, walletEndpoint } from '../src/wallet/http-wallet.ts';
import type { WalletMovement, WalletPlayer, WalletRollback } from '../src/wallet/wallet.ts';
import { dispatcherTransport, fetchTransport, type WalletTransport } from '../src/wallet/wallet-transport.ts';
import { canonicalForTest, signForTest } from './harness.ts';

const TOKEN = 'the-operators-wallet-secret-7f3a';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface FakeWallet {
  url: string;
  seen: Seen[];
  connections: number;
  close(): Promise<void>;
}

type Handler = (seen: Seen, response: ServerResponse) => void;

const open: FakeWallet[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

/** A local wallet on 127.0.0.1 that records each request and answers with `handler`. */
async function fakeWallet(handler: Handler): Promise<FakeWallet> {
  const seen: Seen[] = [];
  const state = { connections: 0 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      handler(entry, response);
    });
  });
  server.on('connection', () => {
    state.connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const wallet: FakeWallet = {
    url: `http://127.0.0.1:${port}`,
    seen,
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.push(wallet);
  return wallet;
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_seen, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

const player: WalletPlayer = {
  sessionId: 'session-1',
  userId: 'user-1',
  credential: 'maria@example.com',
  currency: 'BRL',
};
const bet: WalletMovement = {
  ...player,
  transactionId: 'tx-bet-1',
  roundId: 'round-1',
  amountMinor: 125,
  gameId: 'game-1',
  gameModel: 'frevo-da-sorte',
};
const rollback: WalletRollback = {
  ...bet,
  transactionId: 'tx-rollback-1',
  originalTransactionId: 'tx-bet-1',
};

// Every behaviour holds over both ways of sending: the service's (undici requests over its agent)
// and the wallet-check command's (fetch).
const TRANSPORTS: [string, () => WalletTransport][] = [
  ['undici requests', () => dispatcherTransport(new Agent())],
  ['fetch', () => fetchTransport()],
];

describe.each(TRANSPORTS)('over %s', (_name, makeTransport) => {
  const transport = makeTransport();
  // A time-out far above any answer of a local fake wallet, even on a loaded machine (time-out tests set 200).
  const walletAt = (url: string, timeoutMs = 10_000) =>
    createHttpWallet({ walletUrl: url, signatureToken: TOKEN, timeoutMs, transport, logger: silentLogger });

  describe('the request', () => {
    it('POSTs the bet body in major units, signed with the wallet token', async () => {
      const server = await fakeWallet(json(200, { balance: 998.75 }));
      expect(await walletAt(`${server.url}/raspa`).bet(bet)).toEqual({ kind: 'ok', balanceMinor: 99875 });
      const [request] = server.seen;
      expect(request?.method).toBe('POST');
      expect(request?.path).toBe('/raspa/bet');
      expect(request?.headers['content-type']).toBe('application/json');
      const body = JSON.parse(request?.body ?? '');
      expect(body).toStrictEqual({
        transactionId: 'tx-bet-1',
        roundId: 'round-1',
        sessionId: 'session-1',
        userId: 'user-1',
        credential: 'maria@example.com',
        amount: 1.25,
        currency: 'BRL',
        gameId: 'game-1',
        gameModel: 'frevo-da-sorte',
      });
      // Verified with the test's own canonical JSON and HMAC, not the core signer.
      expect(request?.headers['x-signed-request']).toBe(signForTest(body, TOKEN));
      // What is sent is the canonical text itself, so a raw-body verifier agrees too.
      expect(request?.body).toBe(canonicalForTest(body));
    });

    it('sends only the player fields to /balance', async () => {
      const server = await fakeWallet(json(200, { balance: 1000 }));
      expect(await walletAt(server.url).balance(player)).toEqual({ kind: 'ok', balanceMinor: 100000 });
      const [request] = server.seen;
      expect(request?.path).toBe('/balance');
      const body = JSON.parse(request?.body ?? '');
      expect(body).toStrictEqual({
        sessionId: 'session-1',
        userId: 'user-1',
        credential: 'maria@example.com',
        currency: 'BRL',
      });
      expect(request?.headers['x-signed-request']).toBe(signForTest(body, TOKEN));
    });

    it('adds originalTransactionId to a rollback, and posts a prize to /prize', async () => {
      const server = await fakeWallet(json(200, { balance: 1000 }));
      const wallet = walletAt(`${server.url}/`);
      await wallet.rollback(rollback);
      await wallet.prize({ ...bet, transactionId: 'tx-prize-1', amountMinor: 5000 });
      const [rolledBack, prized] = server.seen.map((request) => ({
        ...request,
        body: JSON.parse(request.body),
      }));
      expect(rolledBack?.path).toBe('/rollback');
      expect(rolledBack?.body).toMatchObject({
        transactionId: 'tx-rollback-1',
        originalTransactionId: 'tx-bet-1',
      });
      expect(rolledBack?.headers['x-signed-request']).toBe(signForTest(rolledBack?.body, TOKEN));
      expect(prized?.path).toBe('/prize');
      expect(prized?.body).toMatchObject({ transactionId: 'tx-prize-1', amount: 50 });
      expect(prized?.body).not.toHaveProperty('originalTransactionId');
    });

    it('writes amounts with the currency’s own decimals (JPY 0, KWD 3)', async () => {
      const server = await fakeWallet(json(200, { balance: 1.5 }));
      const wallet = walletAt(server.url);
      await wallet.bet({ ...bet, currency: 'JPY', amountMinor: 300 });
      expect(await wallet.bet({ ...bet, currency: 'KWD', amountMinor: 1 })).toEqual({
        kind: 'ok',
        balanceMinor: 1500,
      });
      expect(server.seen.map((request) => JSON.parse(request.body).amount)).toEqual([300, 0.001]);
    });

    it.each([
      ['https://op.example', 'https://op.example/bet'],
      ['https://op.example/', 'https://op.example/bet'],
      ['https://op.example/api/raspa', 'https://op.example/api/raspa/bet'],
      ['https://op.example/api/raspa/', 'https://op.example/api/raspa/bet'],
      ['https://op.example/api//', 'https://op.example/api/bet'],
      ['https://op.example:8443/w?tenant=7', 'https://op.example:8443/w/bet?tenant=7'],
    ])('joins %s and the call as %s', (walletUrl, endpoint) => {
      expect(walletEndpoint(walletUrl, 'bet')).toBe(endpoint);
    });

    it('reuses one keep-alive connection for sequential calls', async () => {
      const server = await fakeWallet(json(200, { balance: 10 }));
      const wallet = walletAt(server.url);
      // As in play, where calls are events apart: undici hands a socket back to its pool one tick
      // after the answer's body ends.
      for (const call of [
        () => wallet.balance(player),
        () => wallet.bet(bet),
        () => wallet.prize(bet),
        () => wallet.rollback(rollback),
      ]) {
        await call();
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(server.seen).toHaveLength(4);
      expect(server.connections).toBe(1);
    });

    it('does not open a connection per call even back to back', async () => {
      const server = await fakeWallet(json(200, { balance: 10 }));
      const wallet = walletAt(server.url);
      for (let i = 0; i < 10; i++) await wallet.balance(player);
      expect(server.connections).toBeLessThanOrEqual(2);
    });

    it('sends the user:password of a walletUrl as basic auth, not in the URL', async () => {
      const server = await fakeWallet(json(200, { balance: 10 }));
      const wallet = walletAt(`http://raspa:s%40fe@${server.url.slice('http://'.length)}/w`);
      expect(await wallet.balance(player)).toEqual({ kind: 'ok', balanceMinor: 1000 });
      expect(server.seen[0]?.path).toBe('/w/balance');
      expect(server.seen[0]?.headers.authorization).toBe(
        `Basic ${Buffer.from('raspa:s@fe').toString('base64')}`,
      );
    });

    it('never logs the token or the signature', async () => {
      const lines: string[] = [];
      const server = await fakeWallet(json(500, { code: 'BOOM' }));
      const wallet = createHttpWallet({
        walletUrl: `http://user:pass@${server.url.slice('http://'.length)}/w`,
        signatureToken: TOKEN,
        transport,
        logger: createLogger('debug', (line) => lines.push(line)),
      });
      await wallet.bet(bet);
      await wallet.balance(player);
      const signature = server.seen[0]?.headers['x-signed-request'] as string;
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(line).not.toContain(TOKEN);
        expect(line).not.toContain(signature);
        expect(line).not.toContain('pass');
      }
    });
  });

  describe('the answer', () => {
    it('a 200 with a balance is ok', async () => {
      const server = await fakeWallet(json(200, { balance: 0 }));
      expect(await walletAt(server.url).bet(bet)).toEqual({ kind: 'ok', balanceMinor: 0 });
    });

    it('a 402 with a code declines, the message defaulting to the code', async () => {
      const server = await fakeWallet(json(402, { code: 'INSUFFICIENT_FUNDS' }));
      expect(await walletAt(server.url).bet(bet)).toEqual({
        kind: 'declined',
        code: 'INSUFFICIENT_FUNDS',
        message: 'INSUFFICIENT_FUNDS',
        httpStatus: 402,
      });
    });

    it('a 4xx with a code and a message keeps both', async () => {
      const server = await fakeWallet(
        json(409, { code: 'PLAYER_BLOCKED', message: 'Self-excluded until May.' }),
      );
      expect(await walletAt(server.url).bet(bet)).toEqual({
        kind: 'declined',
        code: 'PLAYER_BLOCKED',
        message: 'Self-excluded until May.',
        httpStatus: 409,
      });
    });

    it.each([
      ['a 200 without a balance', json(200, { ok: true }), /HTTP 200 without a numeric balance/],
      ['a 200 with a string balance', json(200, { balance: '10.00' }), /without a numeric balance/],
      [
        'a 200 with too many decimals',
        json(200, { balance: 10.005 }),
        /invalid balance: .*too many decimals/,
      ],
      ['a 200 that is not JSON', json(200, 'balance=10'), /HTTP 200 with an answer that is not JSON/],
      ['a 200 with an empty body', json(200, ''), /HTTP 200 with an empty answer/],
      ['a 400 without a code', json(400, { error: 'bad' }), /^HTTP 400 without a code$/],
      ['a 400 with an empty code', json(400, { code: '' }), /^HTTP 400 without a code$/],
      ['a 404 that is not JSON', json(404, '<h1>Not found</h1>'), /HTTP 404 with an answer that is not JSON/],
      ['a 500, even with a code', json(500, { code: 'INSUFFICIENT_FUNDS' }), /^HTTP 500$/],
      ['a 503', json(503, ''), /^HTTP 503$/],
      ['a 302', json(302, '', { location: '/elsewhere' }), /HTTP 302: redirects are not followed/],
      ['a 304', json(304, ''), /HTTP 304/],
    ])('%s is unknown', async (_what, handler, reason) => {
      const server = await fakeWallet(handler);
      const answer = await walletAt(server.url).bet(bet);
      expect(answer).toEqual({ kind: 'unknown', reason: expect.stringMatching(reason) });
      // A redirect is not followed: only the one request reached the server.
      expect(server.seen).toHaveLength(1);
    });

    it('a wallet that never answers is unknown after timeoutMs', async () => {
      const server = await fakeWallet(() => {
        // never answers
      });
      // The wallet never answers: the call can only come back through its own 200 ms time-out.
      const answer = await walletAt(server.url, 200).bet(bet);
      expect(answer).toEqual({ kind: 'unknown', reason: 'no answer within 200 ms' });
      expect(server.seen).toHaveLength(1);
    });

    it('a wallet that sends headers then stalls is unknown after timeoutMs', async () => {
      const server = await fakeWallet((_seen, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"bal');
      });
      expect(await walletAt(server.url, 200).bet(bet)).toEqual({
        kind: 'unknown',
        reason: 'no answer within 200 ms',
      });
    });

    it('a wallet that drops the connection is unknown', async () => {
      const server = await fakeWallet((_seen, response) => response.socket?.destroy());
      expect(await walletAt(server.url).bet(bet)).toEqual({
        kind: 'unknown',
        reason: expect.stringMatching(/^network error: /),
      });
    });

    it('a refused connection is unknown', async () => {
      const server = await fakeWallet(json(200, { balance: 1 }));
      const url = server.url;
      await server.close();
      expect(await walletAt(url).bet(bet)).toEqual({
        kind: 'unknown',
        reason: expect.stringMatching(/^network error: .*ECONNREFUSED/),
      });
    });

    it('an answer over 64 KiB is unknown', async () => {
      const server = await fakeWallet(json(200, { balance: 1, padding: 'x'.repeat(70 * 1024) }));
      expect(await walletAt(server.url).bet(bet)).toEqual({
        kind: 'unknown',
        reason: 'HTTP 200 with an answer over 65536 bytes',
      });
    });

    it('an unusable walletUrl or amount is unknown, never a throw', async () => {
      expect(await walletAt('not a url').bet(bet)).toEqual({
        kind: 'unknown',
        reason: expect.stringMatching(/^request not sent: /),
      });
      const server = await fakeWallet(json(200, { balance: 1 }));
      expect(await walletAt(server.url).bet({ ...bet, amountMinor: 0.5 })).toEqual({
        kind: 'unknown',
        reason: expect.stringMatching(/^request not sent: /),
      });
      expect(server.seen).toHaveLength(0);
    });
  });
});

describe('the fetch transport', () => {
  it('uses an injected fetch', async () => {
    const calls: string[] = [];
    const wallet = createHttpWallet({
      walletUrl: 'https://op.example/w',
      signatureToken: TOKEN,
      logger: silentLogger,
      transport: fetchTransport(async (input) => {
        calls.push(String(input));
        return new Response(JSON.stringify({ balance: 7 }), { status: 200 });
      }),
    });
    expect(await wallet.balance(player)).toEqual({ kind: 'ok', balanceMinor: 700 });
    expect(calls).toEqual(['https://op.example/w/balance']);
  });
});
