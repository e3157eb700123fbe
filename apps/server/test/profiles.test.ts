import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOW_HINT } from '../src/outbound/address-policy.ts';
import { expectAnsweredAsUnknown } from './as-unknown.ts';
import { startTestServer, type TestServer, type TokenSet } from './harness.ts';

let server: TestServer;
let tokens: TokenSet;
let other: TokenSet;

const operator = {
  name: 'Casa Lotérica',
  type: 'operator',
  currency: 'BRL',
  walletUrl: 'https://wallet.example/raspa',
  walletSignatureToken: 'a-wallet-secret-of-some-length',
  allowedOrigins: ['https://casino.example'],
};

beforeAll(async () => {
  server = await startTestServer();
  tokens = (await server.newClient()).tokens;
  other = (await server.newClient('Other operator')).tokens;
});
afterAll(() => server.close());

describe('POST /v1/profile', () => {
  it('creates a profile and never returns the wallet token', async () => {
    const answer = await server.call('POST', '/v1/profile', { token: tokens, body: operator });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      status: 'success',
      data: {
        profileId: expect.any(String),
        name: 'Casa Lotérica',
        type: 'operator',
        currency: 'BRL',
        currencies: null,
        walletUrl: 'https://wallet.example/raspa',
        hasWalletSignatureToken: true,
        allowedOrigins: ['https://casino.example'],
        // Player protection (docs/player-protection.md): none unless given.
        jurisdiction: null,
        timezone: 'UTC',
        realityCheckMinutes: null,
        responsibleGamingUrl: null,
        createdAt: '2026-03-01T12:00:00.000Z',
        updatedAt: '2026-03-01T12:00:00.000Z',
      },
    });
    expect(JSON.stringify(answer.body)).not.toContain(operator.walletSignatureToken);
  });

  it('lets a demo profile go without a wallet, with BRL by default', async () => {
    const answer = await server.call('POST', '/v1/profile', {
      token: tokens,
      body: { name: 'Demo', type: 'demo' },
    });
    expect(answer).toMatchObject({
      status: 201,
      body: { data: { type: 'demo', currency: 'BRL', walletUrl: null } },
    });
  });

  it.each([
    [{ ...operator, name: '' }, ['name: must not be empty']],
    [{ ...operator, name: undefined }, ['name is required']],
    [{ ...operator, type: 'casino' }, ['type: must be operator, integrator, demo or test']],
    [{ ...operator, currency: 'brl' }, ['currency: must be an ISO 4217 code in capitals, e.g. BRL']],
    [{ ...operator, currency: 'ABC' }, ['currency: is not an ISO 4217 currency code']],
    [{ ...operator, walletUrl: 'ftp://x' }, ['walletUrl: must be an http(s) URL']],
    [
      { ...operator, walletSignatureToken: 'short' },
      ['walletSignatureToken: must be at least 16 characters'],
    ],
    [
      { ...operator, allowedOrigins: ['https://casino.example/path'] },
      [
        'allowedOrigins.0: must be an origin such as https://casino.example (scheme, host and optional port, no path)',
      ],
    ],
    [
      { ...operator, walletUrl: undefined, walletSignatureToken: undefined },
      [
        'walletUrl and walletSignatureToken are required unless type is demo (demo profiles use the built-in demo wallet)',
      ],
    ],
  ])('refuses %o', async (body, messages) => {
    const before = await server.call('GET', '/v1/profile?pageSize=100', { token: tokens });
    const answer = await server.call('POST', '/v1/profile', { token: tokens, body });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 'error', code: 'VALIDATION_ERROR', messages });
    const after = await server.call('GET', '/v1/profile?pageSize=100', { token: tokens });
    expect(after.body.pagination.totalCount).toBe(before.body.pagination.totalCount);
  });

  it('refuses a missing or wrong signature with 401 INVALID_SIGNATURE and changes nothing', async () => {
    const before = await server.call('GET', '/v1/profile?pageSize=100', { token: tokens });
    const missing = await server.call('POST', '/v1/profile', { token: tokens, body: operator, sign: false });
    expect(missing).toMatchObject({ status: 401, body: { code: 'INVALID_SIGNATURE' } });
    for (const header of ['0'.repeat(128), 'zz', 'f'.repeat(129), '']) {
      const wrong = await server.call('POST', '/v1/profile', { token: tokens, body: operator, sign: header });
      expect(wrong).toMatchObject({ status: 401, body: { status: 'error', code: 'INVALID_SIGNATURE' } });
    }
    const after = await server.call('GET', '/v1/profile?pageSize=100', { token: tokens });
    expect(after.body.pagination.totalCount).toBe(before.body.pagination.totalCount);
  });
});

/** walletUrls refused by default, in every notation, and the host the refusal names. */
const PRIVATE_WALLET_URLS: readonly (readonly [url: string, reason: string])[] = [
  ['http://127.0.0.1:4000/wallet', '127.0.0.1 is a loopback address'],
  ['http://[::1]:4000/wallet', '[::1] is a loopback address'],
  ['http://0.0.0.0:4000/wallet', '0.0.0.0 is the unspecified address'],
  ['http://2130706433/wallet', '127.0.0.1 is a loopback address'],
  ['http://0177.0.0.1/wallet', '127.0.0.1 is a loopback address'],
  ['http://0x7f.1/wallet', '127.0.0.1 is a loopback address'],
  ['http://127.1/wallet', '127.0.0.1 is a loopback address'],
  ['http://[::ffff:127.0.0.1]/wallet', '[::ffff:7f00:1] is a loopback address'],
  ['http://[::ffff:7f00:1]/wallet', '[::ffff:7f00:1] is a loopback address'],
  ['http://localhost:4000/wallet', 'localhost is a loopback address'],
  ['http://localhost./wallet', 'localhost is a loopback address'],
  ['http://wallet.localhost/wallet', 'wallet.localhost is a loopback address'],
  ['https://10.1.2.3/wallet', '10.1.2.3 is a private address'],
  ['https://192.168.1.20/wallet', '192.168.1.20 is a private address'],
  ['https://172.20.0.2/wallet', '172.20.0.2 is a private address'],
  ['http://169.254.169.254/latest', '169.254.169.254 is a link-local address'],
  ['https://100.100.1.1/wallet', '100.100.1.1 is a carrier-grade NAT (shared) address'],
  ['https://[fd12::1]/wallet', '[fd12::1] is a unique-local IPv6 address'],
  ['https://[fe80::2]/wallet', '[fe80::2] is a link-local address'],
];

describe('walletUrl: the outbound address policy (default settings)', () => {
  it.each(PRIVATE_WALLET_URLS)('POST refuses %s with a 400 naming walletUrl', async (walletUrl, reason) => {
    const before = await server.call('GET', '/v1/profile?pageSize=100', { token: tokens });
    const answer = await server.call('POST', '/v1/profile', {
      token: tokens,
      body: { ...operator, walletUrl },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { status: 'error', code: 'VALIDATION_ERROR', messages: [`walletUrl: ${reason}; ${ALLOW_HINT}`] },
    });
    const after = await server.call('GET', '/v1/profile?pageSize=100', { token: tokens });
    expect(after.body.pagination.totalCount).toBe(before.body.pagination.totalCount);
  });

  it('PUT refuses a private walletUrl and keeps the old one', async () => {
    const created = await server.call('POST', '/v1/profile', { token: tokens, body: operator });
    const id = created.body.data.profileId;
    for (const [walletUrl, reason] of PRIVATE_WALLET_URLS) {
      const answer = await server.call('PUT', `/v1/profile/${id}`, { token: tokens, body: { walletUrl } });
      expect(answer).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION_ERROR', messages: [`walletUrl: ${reason}; ${ALLOW_HINT}`] },
      });
    }
    const read = await server.call('GET', `/v1/profile/${id}`, { token: tokens });
    expect(read.body.data.walletUrl).toBe(operator.walletUrl);
  });

  it('refuses a walletUrl whose host does not resolve, and accepts one on a public address', async () => {
    const refused = await server.call('POST', '/v1/profile', {
      token: tokens,
      body: { ...operator, walletUrl: 'https://nowhere.invalid/wallet' },
    });
    expect(refused.body.messages).toEqual(['walletUrl: the host nowhere.invalid could not be resolved']);
    const accepted = await server.call('POST', '/v1/profile', {
      token: tokens,
      body: { ...operator, walletUrl: 'https://8.8.8.8/wallet' },
    });
    expect(accepted.status).toBe(201);
  });

  it('accepts a local walletUrl with OUTBOUND_ALLOW_PRIVATE=true (local integration)', async () => {
    server.deps.settings.allowPrivateOutbound = true;
    try {
      const answer = await server.call('POST', '/v1/profile', {
        token: tokens,
        body: { ...operator, walletUrl: 'http://127.0.0.1:4000/wallet' },
      });
      expect(answer.status).toBe(201);
    } finally {
      server.deps.settings.allowPrivateOutbound = false;
    }
  });
});

describe('GET and PUT /v1/profile/{id}', () => {
  it('reads, changes and lists only the caller’s profiles', async () => {
    const created = await server.call('POST', '/v1/profile', { token: tokens, body: operator });
    const id = created.body.data.profileId;
    expect(await server.call('GET', `/v1/profile/${id}`, { token: tokens })).toMatchObject({
      status: 200,
      body: { data: { profileId: id } },
    });
    server.clock.advance(1000);
    const changed = await server.call('PUT', `/v1/profile/${id}`, {
      token: tokens,
      body: { name: 'Renamed' },
    });
    expect(changed).toMatchObject({
      status: 200,
      body: {
        data: { name: 'Renamed', hasWalletSignatureToken: true, updatedAt: '2026-03-01T12:00:01.000Z' },
      },
    });
    const mine = await server.call('GET', '/v1/profile?pageSize=100', { token: tokens });
    const theirs = await server.call('GET', '/v1/profile?pageSize=100', { token: other });
    expect(mine.body.data.map((p: { profileId: string }) => p.profileId)).toContain(id);
    expect(theirs.body.data).toEqual([]);
  });

  it('answers 404 for an unknown profile, and the same for another client’s', async () => {
    const created = await server.call('POST', '/v1/profile', { token: tokens, body: operator });
    const id = created.body.data.profileId;
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { name: 'Mine now' }],
    ] as const) {
      const unknown = await server.call(method, '/v1/profile/does-not-exist', { token: tokens, body });
      expect(unknown).toMatchObject({
        status: 404,
        body: { code: 'NOT_FOUND', messages: ['profile does-not-exist was not found'] },
      });
      const theirs = await server.call(method, `/v1/profile/${id}`, { token: other, body });
      expectAnsweredAsUnknown(theirs, unknown, { theirs: id, unknown: 'does-not-exist' });
    }
    const unchanged = await server.call('GET', `/v1/profile/${id}`, { token: tokens });
    expect(unchanged.body.data.name).toBe('Casa Lotérica');
  });

  it('keeps the wallet rule on update: an operator cannot drop its wallet', async () => {
    const demo = await server.call('POST', '/v1/profile', {
      token: tokens,
      body: { name: 'D', type: 'demo' },
    });
    const answer = await server.call('PUT', `/v1/profile/${demo.body.data.profileId}`, {
      token: tokens,
      body: { type: 'operator' },
    });
    expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });
});

describe('GET /v1/profile paging', () => {
  it('pages with pageSize 1 and 100 and past the last page', async () => {
    const fresh = (await server.newClient()).tokens;
    for (const name of ['a', 'b', 'c']) {
      await server.call('POST', '/v1/profile', { token: fresh, body: { name, type: 'demo' } });
    }
    const first = await server.call('GET', '/v1/profile?pageSize=1', { token: fresh });
    expect(first.body).toMatchObject({
      data: [{ name: 'a' }],
      pagination: { pageIndex: 1, pageSize: 1, totalCount: 3 },
    });
    const third = await server.call('GET', '/v1/profile?pageSize=1&pageIndex=3', { token: fresh });
    expect(third.body.data).toMatchObject([{ name: 'c' }]);
    const beyond = await server.call('GET', '/v1/profile?pageSize=100&pageIndex=2', { token: fresh });
    expect(beyond.body).toMatchObject({
      data: [],
      pagination: { pageIndex: 2, pageSize: 100, totalCount: 3 },
    });
    expect(await server.call('GET', '/v1/profile?pageSize=101', { token: fresh })).toMatchObject({
      status: 400,
      body: { messages: ['pageSize: must be between 1 and 100'] },
    });
    expect(await server.call('GET', '/v1/profile?pageIndex=0', { token: fresh })).toMatchObject({
      status: 400,
      body: { messages: ['pageIndex: must be 1 or more'] },
    });
  });
});

describe('multi-currency profiles', () => {
  const game = (profileId: string, currency: string, betPrice = 2) => ({
    profileId,
    gameModel: 'oxe-ganhei',
    lang: 'en',
    currency,
    rtp: 0.9,
    sampling: 100_001,
    prizedPercent: 0.5,
    betPrice,
    simulation: false,
    replacePreviousVersion: true,
  });

  it('a profile with currencies [BRL, USD, EUR] accepts games in each and refuses JPY with a 400', async () => {
    const created = await server.call('POST', '/v1/profile', {
      token: tokens,
      body: { ...operator, currency: undefined, currencies: ['BRL', 'USD', 'EUR', 'USD'] },
    });
    expect(created).toMatchObject({
      status: 201,
      // Deduplicated, in order; the default currency is the first.
      body: { data: { currency: 'BRL', currencies: ['BRL', 'USD', 'EUR'] } },
    });
    const profileId = created.body.data.profileId;
    expect((await server.call('GET', `/v1/profile/${profileId}`, { token: tokens })).body.data).toMatchObject(
      {
        currencies: ['BRL', 'USD', 'EUR'],
      },
    );
    for (const currency of ['BRL', 'USD', 'EUR']) {
      const answer = await server.call('POST', '/v1/game', {
        token: tokens,
        body: game(profileId, currency),
      });
      expect(answer.status, currency).toBe(201);
    }
    const refused = await server.call('POST', '/v1/game', {
      token: tokens,
      body: game(profileId, 'JPY', 200),
    });
    expect(refused).toEqual(
      expect.objectContaining({
        status: 400,
        body: {
          status: 'error',
          code: 'VALIDATION_ERROR',
          messages: [
            `currency: JPY is not one of the currencies of profile ${profileId} (BRL, USD, EUR), which its wallet takes`,
          ],
        },
      }),
    );
    const listed = await server.call('GET', `/v1/game?profileId=${profileId}`, { token: tokens });
    expect(listed.body.data.map((g: { currency: string }) => g.currency)).toEqual(['BRL', 'USD', 'EUR']);
  });

  it('a profile without currencies accepts games in any currency; its currency stays the default', async () => {
    const created = await server.call('POST', '/v1/profile', { token: tokens, body: operator });
    expect(created.body.data).toMatchObject({ currency: 'BRL', currencies: null });
    const profileId = created.body.data.profileId;
    for (const [currency, price] of [
      ['USD', 2],
      ['JPY', 200],
      ['KWD', 1.5],
    ] as const) {
      const answer = await server.call('POST', '/v1/game', {
        token: tokens,
        body: game(profileId, currency, price),
      });
      expect(answer.status, currency).toBe(201);
    }
  });

  it.each([
    [{ currencies: [] }, ['currencies: must list at least one currency (leave it out for any)']],
    [{ currencies: ['BRL', 'brl'] }, ['currencies.1: must be an ISO 4217 code in capitals, e.g. BRL']],
    [{ currencies: ['XYZ'] }, ['currencies.0: is not an ISO 4217 currency code']],
    [{ currencies: 'BRL' }, ['currencies: must be a list of ISO 4217 codes']],
    [
      { currency: 'JPY', currencies: ['BRL', 'USD'] },
      ["currency: JPY is not one of the profile's currencies (BRL, USD)"],
    ],
  ])('refuses %o with a 400 naming the field, storing nothing', async (fields, messages) => {
    const before = await server.call('GET', '/v1/profile?pageSize=100', { token: tokens });
    const answer = await server.call('POST', '/v1/profile', {
      token: tokens,
      body: { ...operator, ...fields },
    });
    expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', messages } });
    const after = await server.call('GET', '/v1/profile?pageSize=100', { token: tokens });
    expect(after.body.pagination.totalCount).toBe(before.body.pagination.totalCount);
  });

  it('PUT sets, checks and clears the currencies', async () => {
    const created = await server.call('POST', '/v1/profile', { token: tokens, body: operator });
    const id = created.body.data.profileId;
    const set = await server.call('PUT', `/v1/profile/${id}`, {
      token: tokens,
      body: { currencies: ['USD', 'BRL'] },
    });
    expect(set).toMatchObject({
      status: 200,
      body: { data: { currency: 'BRL', currencies: ['USD', 'BRL'] } },
    });
    const stranded = await server.call('PUT', `/v1/profile/${id}`, {
      token: tokens,
      body: { currencies: ['USD'] },
    });
    expect(stranded).toMatchObject({
      status: 400,
      body: { messages: ["currency: BRL is not one of the profile's currencies (USD)"] },
    });
    const cleared = await server.call('PUT', `/v1/profile/${id}`, {
      token: tokens,
      body: { currencies: null },
    });
    expect(cleared).toMatchObject({ status: 200, body: { data: { currencies: null } } });
  });
});
