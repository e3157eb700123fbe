import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../src/logger.ts';
import { ALLOW_HINT } from '../src/outbound/address-policy.ts';
import type { HostLookup, OutboundPolicy } from '../src/outbound/host-resolution.ts';
import { outboundPolicy } from '../src/services/outbound-check.ts';
import type { WalletMovement } from '../src/wallet/wallet.ts';
import { createWalletDirectory } from '../src/wallet/wallet-directory.ts';
import { createWebhookDispatcher } from '../src/webhooks/dispatch.ts';
import { createWebhookOutbox } from '../src/webhooks/enqueue.ts';
import { createWebhookSender } from '../src/webhooks/post.ts';
import {
  LOCAL_INTEGRATION,
  startTestServer,
  TEST_PUBLIC_ADDRESS,
  type TestServer,
  type TokenSet,
} from './harness.ts';
import { ledgerFixtures } from './ledger-fixtures.ts';

/**
 * Outbound connections go only to an address the policy checked at that moment: a name that
 * now resolves to a refused address gets no connection (DNS rebinding), and redirects are never
 * followed. Every server here listens on 127.0.0.1 and counts the connections it accepts; no
 * resolver here asks the network.
 */

interface Counting {
  server: Server;
  port: number;
  connections: number;
  requests: { url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A 127.0.0.1 server that counts connections and requests, answering with `reply`. */
async function countingServer(
  reply: (url: string) => { status: number; body?: string; headers?: Record<string, string> } = () => ({
    status: 200,
    body: '{"balance":10}',
  }),
): Promise<Counting> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      counting.requests.push({ url: request.url ?? '', headers: request.headers });
      const answer = reply(request.url ?? '');
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(answer.body ?? '');
    });
  });
  server.on('connection', () => {
    counting.connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const counting: Counting = {
    server,
    port: (server.address() as AddressInfo).port,
    connections: 0,
    requests: [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return counting;
}

/** A resolver that answers `first` once, then `later` for ever; it records what it was asked. */
function rebinding(first: string[], later: string[]) {
  const asked: string[] = [];
  const lookup: HostLookup = async (host) => {
    asked.push(host);
    const addresses = asked.length === 1 ? first : later;
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, asked };
}

const bet: WalletMovement = {
  sessionId: 's',
  userId: 'u',
  credential: 'ana',
  currency: 'BRL',
  transactionId: 'tx-1',
  roundId: 'r',
  amountMinor: 100,
  gameId: 'g',
  gameModel: 'oxe-ganhei',
};

/** Queues one close-round event for the webhook and runs one delivery pass; returns its log. */
async function deliverOnce(server: TestServer, webhookId: string) {
  const fixtures = ledgerFixtures(server);
  const clientId = (await server.deps.store.webhooks.findById(webhookId))?.clientId ?? '';
  const { roundId } = await fixtures.round(await fixtures.seat(clientId), {
    at: server.clock().toISOString(),
  });
  await server.deps.store.transaction((tx) =>
    createWebhookOutbox(server.deps).enqueue(tx, {
      clientId,
      roundId,
      eventType: 'close-round',
      payload: { _id: roundId },
    }),
  );
  const dispatcher = createWebhookDispatcher(server.deps, { timeoutMs: 2000 });
  expect(await dispatcher.runOnce()).toBe(1);
  await dispatcher.stop();
  const page = await server.deps.store.webhooks.listDeliveries(
    webhookId,
    { status: null, from: null, before: null },
    { pageIndex: 1, pageSize: 10 },
  );
  return page.items;
}

const post = (policy: OutboundPolicy, url: string) => {
  const sender = createWebhookSender({ timeoutMs: 2000, connections: 1, maxBodyBytes: 64, policy });
  return sender.post('line', url, { 'content-type': 'application/json' }, '{}').finally(() => sender.close());
};

describe('the pinned connector', () => {
  let target: Counting;
  beforeAll(async () => {
    target = await countingServer();
  });
  afterAll(() => target.close());

  it('connects to the address it checked and keeps the name in the Host header', async () => {
    const asked: string[] = [];
    const lookup: HostLookup = async (host) => {
      asked.push(host);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const before = target.connections;
    const sent = await post(
      { lookup, allowPrivate: () => true },
      `http://pinned.example:${target.port}/hook`,
    );
    expect(sent).toMatchObject({ status: 200, failure: null });
    expect(asked).toEqual(['pinned.example']);
    expect(target.connections - before).toBe(1);
    expect(target.requests.at(-1)?.headers.host).toBe(`pinned.example:${target.port}`);
  });

  it('refuses an IP literal with no lookup and no connection when private addresses are refused', async () => {
    const lookup: HostLookup = () => {
      throw new Error('an IP literal must not be looked up');
    };
    const before = target.connections;
    const sent = await post({ lookup, allowPrivate: () => false }, `http://127.0.0.1:${target.port}/hook`);
    expect(sent).toEqual({
      status: null,
      body: '',
      failure: `the url was refused: 127.0.0.1 is a loopback address; ${ALLOW_HINT}`,
    });
    expect(target.connections).toBe(before);
  });

  it('refuses a name when any of its answers is refused, connecting to none of them', async () => {
    // 127.0.0.1 first: were the check broken, the connection would go there, never to the public one.
    const lookup: HostLookup = async () => [
      { address: '127.0.0.1', family: 4 },
      { address: TEST_PUBLIC_ADDRESS, family: 4 },
    ];
    const before = target.connections;
    const sent = await post({ lookup, allowPrivate: () => false }, `http://mixed.example:${target.port}/`);
    expect(sent.failure).toBe(
      `the url was refused: mixed.example resolves to 127.0.0.1, a loopback address; ${ALLOW_HINT}`,
    );
    expect(target.connections).toBe(before);
  });
});

describe('DNS rebinding: public at registration, 127.0.0.1 at connection time (default settings)', () => {
  let server: TestServer;
  let tokens: TokenSet;
  let target: Counting;
  let dns: ReturnType<typeof rebinding>;
  /** The resolver of the server: a new rebinding script per test. */
  const resolveHost: HostLookup = (host) => dns.lookup(host);

  beforeAll(async () => {
    server = await startTestServer({ deps: { resolveHost } });
    expect(server.deps.settings.allowPrivateOutbound).toBe(false);
    tokens = (await server.newClient()).tokens;
    target = await countingServer();
  });
  afterAll(async () => {
    await target.close();
    await server.close();
  });

  it('a webhook: the attempt is a logged failure and no connection is made', async () => {
    dns = rebinding([TEST_PUBLIC_ADDRESS], ['127.0.0.1']);
    const url = `http://rebind.example:${target.port}/hook`;
    const registered = await server.call('POST', '/v1/webhook', {
      token: tokens,
      body: { url, eventTriggers: ['close-round'], signatureToken: randomUUID() },
    });
    expect(registered.status).toBe(201);
    const webhookId: string = registered.body.data.webhookId;

    const log = await deliverOnce(server, webhookId);
    expect(log).toEqual([
      expect.objectContaining({
        success: false,
        responseCode: null,
        errorMessage: `the url was refused: rebind.example resolves to 127.0.0.1, a loopback address; ${ALLOW_HINT}`,
      }),
    ]);
    expect(dns.asked).toEqual(['rebind.example', 'rebind.example']);
    expect(target.connections).toBe(0);
  });

  it('a wallet: the call has no definite answer and no connection is made', async () => {
    dns = rebinding([TEST_PUBLIC_ADDRESS], ['127.0.0.1']);
    const created = await server.call('POST', '/v1/profile', {
      token: tokens,
      body: {
        name: 'Rebound',
        type: 'operator',
        walletUrl: `http://wallet-rebind.example:${target.port}/wallet`,
        walletSignatureToken: 'a-wallet-token-of-enough-length',
      },
    });
    expect(created.status).toBe(201);
    const profile = await server.deps.store.profiles.findById(created.body.data.profileId);
    if (!profile) throw new Error('profile not stored');

    const wallets = createWalletDirectory({
      store: server.deps.store,
      secrets: server.deps.secrets,
      logger: silentLogger,
      timeoutMs: 2000,
      policy: outboundPolicy(server.deps),
    });
    expect(await wallets.forProfile(profile).bet(bet)).toEqual({
      kind: 'unknown',
      reason: `request refused by the outbound policy: walletUrl: wallet-rebind.example resolves to 127.0.0.1, a loopback address; ${ALLOW_HINT}`,
    });
    expect(dns.asked).toEqual(['wallet-rebind.example', 'wallet-rebind.example']);
    expect(target.connections).toBe(0);
  });
});

describe('redirects are never followed (OUTBOUND_ALLOW_PRIVATE=true)', () => {
  let server: TestServer;
  let tokens: TokenSet;
  let elsewhere: Counting;
  let redirecting: Counting;

  beforeAll(async () => {
    server = await startTestServer({ env: LOCAL_INTEGRATION });
    expect(server.deps.settings.allowPrivateOutbound).toBe(true);
    tokens = (await server.newClient()).tokens;
    elsewhere = await countingServer();
    const location = `http://127.0.0.1:${elsewhere.port}/stolen`;
    redirecting = await countingServer((url) => ({
      status: url.endsWith('/bet') ? 307 : 302,
      headers: { location },
    }));
  });
  afterAll(async () => {
    await redirecting.close();
    await elsewhere.close();
    await server.close();
  });

  it('a webhook receiver answering 302: a failed attempt, the other server never hit', async () => {
    const registered = await server.call('POST', '/v1/webhook', {
      token: tokens,
      body: {
        url: `http://127.0.0.1:${redirecting.port}/hook`,
        eventTriggers: ['close-round'],
        signatureToken: randomUUID(),
      },
    });
    expect(registered.status).toBe(201);
    expect(await deliverOnce(server, registered.body.data.webhookId)).toEqual([
      expect.objectContaining({
        success: false,
        responseCode: 302,
        errorMessage: 'the receiver answered 302; redirects are not followed',
      }),
    ]);
    expect(redirecting.requests.map((request) => request.url)).toEqual(['/hook']);
    expect(elsewhere.connections).toBe(0);
  });

  it('a wallet answering 302 or 307: no definite answer, the other server never hit', async () => {
    const created = await server.call('POST', '/v1/profile', {
      token: tokens,
      body: {
        name: 'Redirecting',
        type: 'operator',
        walletUrl: `http://127.0.0.1:${redirecting.port}/wallet`,
        walletSignatureToken: 'a-wallet-token-of-enough-length',
      },
    });
    expect(created.status).toBe(201);
    const profile = await server.deps.store.profiles.findById(created.body.data.profileId);
    if (!profile) throw new Error('profile not stored');
    const wallet = createWalletDirectory({
      store: server.deps.store,
      secrets: server.deps.secrets,
      logger: silentLogger,
      timeoutMs: 2000,
      policy: outboundPolicy(server.deps),
    }).forProfile(profile);
    expect(await wallet.bet(bet)).toEqual({
      kind: 'unknown',
      reason: 'HTTP 307: redirects are not followed',
    });
    expect(await wallet.balance(bet)).toEqual({
      kind: 'unknown',
      reason: 'HTTP 302: redirects are not followed',
    });
    expect(elsewhere.connections).toBe(0);
  });
});
