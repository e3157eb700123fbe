import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../src/logger.ts';
import { ALLOW_HINT } from '../src/outbound/address-policy.ts';
import type { OutboundPolicy } from '../src/outbound/host-resolution.ts';
import { createSecretBox } from '../src/security/secrets.ts';
import { PROFILE_PROTECTION_DEFAULTS } from '../src/store/records.ts';
import type { Store } from '../src/store/store.ts';
import type { WalletMovement, WalletProfile } from '../src/wallet/wallet.ts';
import { createWalletDirectory } from '../src/wallet/wallet-directory.ts';
import { signForTest, testDns } from './harness.ts';
import { useRunStore } from './run-store.ts';

const NOW = '2026-03-01T12:00:00.000Z';
const secrets = createSecretBox(randomBytes(32));
const runStore = useRunStore();
let store: Store;
let server: ReturnType<typeof createServer>;
let walletUrl: string;
const requests: Array<{ path: string; headers: IncomingHttpHeaders; body: unknown }> = [];

beforeAll(async () => {
  store = runStore.store;
  await store.clients.insertClient({
    id: 'client-1',
    name: 'Demo',
    email: 'demo@example.test',
    apiKeyHash: 'hash',
    passwordHash: null,
    lang: 'en',
    createdAt: NOW,
  });
  await store.profiles.insert({
    id: 'demo-profile',
    clientId: 'client-1',
    name: 'Demo',
    type: 'demo',
    currency: 'BRL',
    currencies: null,
    walletUrl: null,
    walletTokenSealed: null,
    allowedOrigins: [],
    ...PROFILE_PROTECTION_DEFAULTS,
    createdAt: NOW,
    updatedAt: NOW,
  });
  await store.players.insert({
    id: 'demo-player',
    clientId: 'client-1',
    profileId: 'demo-profile',
    credential: 'ana',
    credentialType: 'username',
    balanceMinor: 0,
    betWins: 0,
    totalBets: 0,
    createdAt: NOW,
  });
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      requests.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(text) });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"balance":42.5}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  walletUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wallet`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The wallet is on 127.0.0.1: private addresses allowed, as with OUTBOUND_ALLOW_PRIVATE=true. */
const LOCAL: OutboundPolicy = { lookup: testDns, allowPrivate: () => true };

const directory = (policy: OutboundPolicy = LOCAL) =>
  createWalletDirectory({
    store,
    secrets,
    logger: silentLogger,
    timeoutMs: 1000,
    clock: () => new Date(NOW),
    policy,
  });

const operatorProfile = (token: string, id = 'op-profile'): WalletProfile => ({
  id,
  type: 'operator',
  walletUrl,
  walletTokenSealed: secrets.seal(token),
});

const bet: WalletMovement = {
  sessionId: 's',
  userId: 'demo-player',
  credential: 'ana',
  currency: 'BRL',
  transactionId: 'tx-1',
  roundId: 'r',
  amountMinor: 100,
  gameId: 'g',
  gameModel: 'oxe-ganhei',
};

describe('the wallet directory', () => {
  it('gives demo profiles the built-in demo wallet', async () => {
    const wallet = directory().forProfile({
      id: 'demo-profile',
      type: 'demo',
      walletUrl: null,
      walletTokenSealed: null,
    });
    expect(await wallet.bet(bet)).toEqual({ kind: 'ok', balanceMinor: 99_900 });
    expect(await store.demoWallet.findBalance('demo-player', 'BRL')).toBe(99_900);
  });

  it('gives other profiles their HTTP wallet, signed with the unsealed token', async () => {
    requests.length = 0;
    const wallet = directory().forProfile(operatorProfile('operator-token-1'));
    expect(await wallet.bet({ ...bet, transactionId: 'tx-http' })).toEqual({
      kind: 'ok',
      balanceMinor: 4250,
    });
    const [request] = requests;
    expect(request?.path).toBe('/wallet/bet');
    expect(request?.headers['x-signed-request']).toBe(signForTest(request?.body, 'operator-token-1'));
  });

  it('keeps one HTTP wallet per profile until its url or token changes', () => {
    const wallets = directory();
    const profile = operatorProfile('token-a');
    const first = wallets.forProfile(profile);
    expect(wallets.forProfile({ ...profile })).toBe(first);
    expect(wallets.forProfile(operatorProfile('token-a', 'another-profile'))).not.toBe(first);
    const resealed = { ...profile, walletTokenSealed: secrets.seal('token-b') };
    const second = wallets.forProfile(resealed);
    expect(second).not.toBe(first);
    expect(wallets.forProfile(resealed)).toBe(second);
    expect(wallets.forProfile({ ...resealed, walletUrl: `${walletUrl}/v2` })).not.toBe(second);
  });

  it.each([
    ['no walletUrl', { walletUrl: null }],
    ['no token', { walletTokenSealed: null }],
    ['a token it cannot unseal', { walletTokenSealed: 'v1.garbage.garbage.garbage' }],
  ])('declines bets and keeps prizes unknown for a profile with %s', async (_what, change) => {
    requests.length = 0;
    const wallet = directory().forProfile({ ...operatorProfile('x'), ...change });
    expect(await wallet.bet(bet)).toEqual({
      kind: 'declined',
      code: 'WALLET_NOT_CONFIGURED',
      message: expect.any(String),
      httpStatus: 0,
    });
    expect(await wallet.balance(bet)).toMatchObject({ kind: 'declined' });
    expect(await wallet.prize(bet)).toMatchObject({ kind: 'unknown' });
    expect(await wallet.rollback({ ...bet, originalTransactionId: 'tx-0' })).toMatchObject({
      kind: 'unknown',
    });
    expect(requests).toHaveLength(0);
  });
});

describe('the outbound policy at call time', () => {
  it('refuses a wallet on a private address when they are not allowed: no definite answer, nothing sent', async () => {
    const seen = requests.length;
    const wallets = directory({ lookup: testDns, allowPrivate: () => false });
    const wallet = wallets.forProfile(operatorProfile('a-wallet-token-of-enough-length', 'private-profile'));
    const reason = `request refused by the outbound policy: walletUrl: 127.0.0.1 is a loopback address; ${ALLOW_HINT}`;
    expect(await wallet.bet(bet)).toEqual({ kind: 'unknown', reason });
    expect(await wallet.prize(bet)).toEqual({ kind: 'unknown', reason });
    expect(requests.length).toBe(seen);
  });

  it('reads the setting at each connection', async () => {
    let allow = false;
    const wallets = directory({ lookup: testDns, allowPrivate: () => allow });
    const wallet = wallets.forProfile(operatorProfile('a-wallet-token-of-enough-length', 'switch-profile'));
    expect((await wallet.balance(bet)).kind).toBe('unknown');
    allow = true;
    expect(await wallet.balance(bet)).toEqual({ kind: 'ok', balanceMinor: 4250 });
  });
});
