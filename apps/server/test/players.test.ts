import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnsweredAsUnknown } from './as-unknown.ts';
import { databaseSnapshots } from './database-snapshot.ts';
import { startTestServer, type TestServer, type TokenSet } from './harness.ts';

let server: TestServer;
let tokens: TokenSet;
let other: TokenSet;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

async function newProfile(token: TokenSet = tokens, currency = 'BRL'): Promise<string> {
  const answer = await server.call('POST', '/v1/profile', {
    token,
    body: { name: 'Players', type: 'demo', currency },
  });
  if (answer.status !== 201) throw new Error(JSON.stringify(answer.body));
  return answer.body.data.profileId;
}

function logIn(profileId: string, credential: string, credentialType = 'username', token: TokenSet = tokens) {
  return server.call('POST', '/v1/user/auth', { token, body: { profileId, credential, credentialType } });
}

/** The players of a profile, as the store has them (a userToken is written only with its player). */
const playersOf = async (profileId: string) =>
  (await server.deps.store.players.listByProfile(profileId, { pageIndex: 1, pageSize: 100 })).totalCount;
/** What the wallet reported, recorded as the play loop records it. */
const walletReported = (playerId: string, currency: string, balanceMinor: number, bets = 0, wins = 0) =>
  server.deps.store.transaction((tx) => tx.rounds.updatePlayer(playerId, currency, balanceMinor, bets, wins));

beforeAll(async () => {
  server = await startTestServer();
  tokens = (await server.newClient()).tokens;
  other = (await server.newClient('Other operator')).tokens;
});
afterAll(async () => {
  await server.close();
});

describe('POST /v1/user/auth', () => {
  it('creates the player on first sight and answers 200 with a userToken that lives 2 hours', async () => {
    const profileId = await newProfile();
    const answer = await logIn(profileId, 'ana@example.com', 'email');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'success',
      data: {
        userId: expect.any(String),
        userToken: expect.stringMatching(/^usr_[\w-]{43}$/),
        expireAt: new Date(server.clock().getTime() + 2 * 3600_000).toISOString(),
      },
    });
  });

  it('logs the same player in again with a fresh token; type and profile tell players apart', async () => {
    const profileId = await newProfile();
    const first = await logIn(profileId, 'bruno');
    const again = await logIn(profileId, 'bruno');
    expect(again.status).toBe(200);
    expect(again.body.data.userId).toBe(first.body.data.userId);
    expect(again.body.data.userToken).not.toBe(first.body.data.userToken);
    const asExternal = await logIn(profileId, 'bruno', 'external');
    expect(asExternal.body.data.userId).not.toBe(first.body.data.userId);
    const elsewhere = await logIn(await newProfile(), 'bruno');
    expect(elsewhere.body.data.userId).not.toBe(first.body.data.userId);
    const list = await server.call('GET', `/v1/user?profileId=${profileId}`, { token: tokens });
    expect(list.body.data.map((p: { credentialType: string }) => p.credentialType)).toEqual([
      'username',
      'external',
    ]);
  });

  it('keeps only a digest of the userToken', async () => {
    const profileId = await newProfile();
    const { userId, userToken } = (await logIn(profileId, '+5511987654321', 'phone')).body.data;
    const { store } = server.deps;
    const now = server.clock().toISOString();
    expect((await store.players.findByLiveUserToken(sha256(userToken), now))?.id).toBe(userId);
    expect(await store.players.findByLiveUserToken(userToken, now)).toBeUndefined();
    // Nowhere in the database either: no row of any table holds it, and on SQLite not even the
    // file or its write-ahead log (freed pages included).
    const rows = await databaseSnapshots(server, new Set());
    try {
      expect(await rows.text()).not.toContain(userToken);
    } finally {
      await rows.close();
    }
    if (!server.config.DATABASE_URL) {
      const onDisk = ['raspa.sqlite', 'raspa.sqlite-wal']
        .map((name) => readFileSync(join(server.dataDir, name)).toString('latin1'))
        .join('');
      expect(onDisk).not.toContain(userToken);
    }
  });

  it('accepts each credential type in its form', async () => {
    const profileId = await newProfile();
    for (const [credential, credentialType] of [
      ['Ana.Silva+raspa@example.com.br', 'email'],
      ['+14155550123', 'phone'],
      ['João da Silva', 'username'],
      ['ext:9f2c-41', 'external'],
      ['x'.repeat(200), 'external'],
    ]) {
      expect((await logIn(profileId, credential as string, credentialType)).status, credential).toBe(200);
    }
  });

  it.each([
    [{}, ['profileId is required', 'credential is required', 'credentialType is required']],
    [{ credential: '' }, ['credential: must be 1 to 200 characters']],
    [{ credential: 'x'.repeat(201) }, ['credential: must be 1 to 200 characters']],
    [{ credential: '   ' }, ['credential: must not be blank']],
    [{ credential: 42 }, ['credential: must be a string']],
    [{ credentialType: 'cpf' }, ['credentialType: must be email, username, phone or external']],
    [
      { credentialType: 'email', credential: 'ana' },
      ['credential: must be an e-mail address when credentialType is email'],
    ],
    [
      { credentialType: 'email', credential: 'ana @example.com' },
      ['credential: must be an e-mail address when credentialType is email'],
    ],
    [
      { credentialType: 'phone', credential: '5511987654321' },
      ['credential: must be a phone number in E.164 form (+ and 8 to 15 digits, e.g. +5511987654321)'],
    ],
    [
      { credentialType: 'phone', credential: '+55 11 98765-4321' },
      ['credential: must be a phone number in E.164 form (+ and 8 to 15 digits, e.g. +5511987654321)'],
    ],
    [{ profileId: 'no-such-profile' }, ['profileId: profile no-such-profile was not found']],
  ])('refuses %o with 400 and creates nothing', async (change, messages) => {
    const profileId = await newProfile();
    const body = { profileId, credential: 'carla', credentialType: 'username', ...change };
    const answer = await server.call('POST', '/v1/user/auth', {
      token: tokens,
      body: Object.keys(change).length === 0 ? {} : body,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 'error', code: 'VALIDATION_ERROR', messages });
    expect(await playersOf(profileId)).toBe(0);
  });

  it('answers another client’s profile as an unknown one, and 401 without a token or signature; creates nothing', async () => {
    const theirs = await newProfile(other);
    const unknown = await logIn('no-such-profile', 'dora');
    expect(unknown).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', messages: ['profileId: profile no-such-profile was not found'] },
    });
    expectAnsweredAsUnknown(await logIn(theirs, 'dora'), unknown, { theirs, unknown: 'no-such-profile' });
    const body = { profileId: theirs, credential: 'dora', credentialType: 'username' };
    expect(await server.call('POST', '/v1/user/auth', { token: other, body, sign: false })).toMatchObject({
      status: 401,
      body: { code: 'INVALID_SIGNATURE' },
    });
    expect(await server.call('POST', '/v1/user/auth', { body })).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
    expect(await playersOf(theirs)).toBe(0);
  });
});

describe('GET /v1/user', () => {
  it('lists the players with every field, balance in major units of the profile’s currency', async () => {
    const profileId = await newProfile();
    const { userId } = (await logIn(profileId, 'ana@example.com', 'email')).body.data;
    await walletReported(userId, 'BRL', 1250, 7, 3);
    await walletReported(userId, 'USD', 300);
    const answer = await server.call('GET', `/v1/user?profileId=${profileId}`, { token: tokens });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'success',
      data: [
        {
          _id: userId,
          credential: 'ana@example.com',
          credentialType: 'email',
          balance: 12.5,
          balances: { BRL: 12.5, USD: 3 },
          betWins: 3,
          totalBets: 7,
          createdAt: server.clock().toISOString(),
        },
      ],
      pagination: { pageIndex: 1, pageSize: 20, totalCount: 1 },
    });
  });

  it('reads balances in the profile’s own currency (KWD has 3 decimals)', async () => {
    const profileId = await newProfile(tokens, 'KWD');
    const { userId } = (await logIn(profileId, 'fahad')).body.data;
    await walletReported(userId, 'KWD', 12345);
    const answer = await server.call('GET', `/v1/user?profileId=${profileId}`, { token: tokens });
    expect(answer.body.data[0].balance).toBe(12.345);
  });

  it('pages with pageSize 1 and 100 and past the last page', async () => {
    const profileId = await newProfile();
    for (const name of ['a', 'b', 'c']) await logIn(profileId, name);
    const first = await server.call('GET', `/v1/user?profileId=${profileId}&pageSize=1`, { token: tokens });
    expect(first.body).toMatchObject({
      data: [{ credential: 'a' }],
      pagination: { pageIndex: 1, pageSize: 1, totalCount: 3 },
    });
    expect(first.body.data).toHaveLength(1);
    const third = await server.call('GET', `/v1/user?profileId=${profileId}&pageSize=1&pageIndex=3`, {
      token: tokens,
    });
    expect(third.body.data.map((p: { credential: string }) => p.credential)).toEqual(['c']);
    const all = await server.call('GET', `/v1/user?profileId=${profileId}&pageSize=100`, { token: tokens });
    expect(all.body.data.map((p: { credential: string }) => p.credential)).toEqual(['a', 'b', 'c']);
    const beyond = await server.call('GET', `/v1/user?profileId=${profileId}&pageSize=100&pageIndex=2`, {
      token: tokens,
    });
    expect(beyond.body).toEqual({
      status: 'success',
      data: [],
      pagination: { pageIndex: 2, pageSize: 100, totalCount: 3 },
    });
    expect(
      await server.call('GET', `/v1/user?profileId=${profileId}&pageSize=101`, { token: tokens }),
    ).toMatchObject({ status: 400, body: { messages: ['pageSize: must be between 1 and 100'] } });
    expect(
      await server.call('GET', `/v1/user?profileId=${profileId}&pageSize=0`, { token: tokens }),
    ).toMatchObject({ status: 400, body: { messages: ['pageSize: must be between 1 and 100'] } });
    expect(
      await server.call('GET', `/v1/user?profileId=${profileId}&pageIndex=0`, { token: tokens }),
    ).toMatchObject({ status: 400, body: { messages: ['pageIndex: must be 1 or more'] } });
  });

  it('searches credentials by substring, ignoring case (also beyond ASCII), with % and _ taken literally', async () => {
    const profileId = await newProfile();
    const names = ['Ana.Silva@example.com', 'ana_b', 'anaxb', 'bob', '100%real', 'JOÃO', 'back\\slash'];
    for (const name of names) await logIn(profileId, name);
    const search = async (text: string, extra = '') => {
      const answer = await server.call(
        'GET',
        `/v1/user?profileId=${profileId}&search=${encodeURIComponent(text)}${extra}`,
        { token: tokens },
      );
      expect(answer.status).toBe(200);
      return {
        found: answer.body.data.map((p: { credential: string }) => p.credential),
        total: answer.body.pagination.totalCount,
      };
    };
    expect(await search('ANA')).toEqual({ found: ['Ana.Silva@example.com', 'ana_b', 'anaxb'], total: 3 });
    expect(await search('a_b')).toEqual({ found: ['ana_b'], total: 1 });
    expect(await search('%')).toEqual({ found: ['100%real'], total: 1 });
    expect(await search('joão')).toEqual({ found: ['JOÃO'], total: 1 });
    expect(await search('\\')).toEqual({ found: ['back\\slash'], total: 1 });
    expect(await search('nobody')).toEqual({ found: [], total: 0 });
    expect(await search('a', '&pageSize=1&pageIndex=2')).toEqual({ found: ['ana_b'], total: 5 });
    expect((await search('')).total).toBe(names.length);
    expect(
      await server.call('GET', `/v1/user?profileId=${profileId}&search=${'x'.repeat(201)}`, {
        token: tokens,
      }),
    ).toMatchObject({ status: 400, body: { messages: ['search: must be at most 200 characters'] } });
  });

  it('needs profileId (400), the caller’s own profile (400, as unknown) and a token (401)', async () => {
    expect(await server.call('GET', '/v1/user', { token: tokens })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', messages: ['profileId is required'] },
    });
    const theirs = await newProfile(other);
    await logIn(theirs, 'eva', 'username', other);
    const unknown = await server.call('GET', '/v1/user?profileId=nope', { token: tokens });
    expect(unknown).toMatchObject({
      status: 400,
      body: { messages: ['profileId: profile nope was not found'] },
    });
    expectAnsweredAsUnknown(
      await server.call('GET', `/v1/user?profileId=${theirs}`, { token: tokens }),
      unknown,
      { theirs, unknown: 'nope' },
    );
    expect(await server.call('GET', `/v1/user?profileId=${theirs}`)).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
    const theirList = await server.call('GET', `/v1/user?profileId=${theirs}`, { token: other });
    expect(theirList.body.data.map((p: { credential: string }) => p.credential)).toEqual(['eva']);
  });
});
