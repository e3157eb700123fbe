import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseSnapshots, databaseSnapshots } from './database-snapshot.ts';
import { type Answer, signForTest, startTestServer, type TestServer, type TokenSet } from './harness.ts';

/**
 * Random requests against the running app, on 127.0.0.1 only and bounded in count: none may get a
 * 500 or a non-envelope answer, and none may change stored data unless it was a correctly signed
 * write (or an authenticated DELETE, which needs no signature). On both databases: a NUL (U+0000)
 * in an id or a string answered 500 on PostgreSQL only (issue 32), so NULs are among the inputs.
 */
let server: TestServer;
let tokens: TokenSet;
let snapshots: DatabaseSnapshots;
let profileId: string;

// Captchas are issued by a GET, the /auth rate limits count every request, and a list read may
// start a fold of the lists' per-day counts (derived from the rows, docs/store.md), by design;
// everything else must stay put.
const SNAPSHOT_SKIP = new Set([
  'captchas',
  'rate_limit_counters',
  'schema_migrations',
  'ledger_day_counts',
  'ledger_count_folds',
]);

beforeAll(async () => {
  server = await startTestServer();
  tokens = (await server.newClient()).tokens;
  const created = await server.call('POST', '/v1/profile', {
    token: tokens,
    body: { name: 'Fuzz', type: 'demo' },
  });
  profileId = created.body.data.profileId;
  snapshots = await databaseSnapshots(server, SNAPSHOT_SKIP);
});
afterAll(async () => {
  await snapshots.close();
  await server.close();
});

/** A string with a NUL somewhere in it. */
const withNul = fc
  .tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }))
  .map(([before, after]) => `${before}\u0000${after}`);

const segment = fc.oneof(
  fc.constantFrom(
    'v1',
    'profile',
    'game',
    'user',
    'auth',
    'login',
    'webhook',
    'round',
    'transaction',
    'session',
    '..',
    '%00',
    '%ff',
    '',
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

describe('fuzz', () => {
  it('answers thousands of random requests with the envelope, never a 500, and changes nothing unless signed', async () => {
    // Sign-out would end the fuzz's own token set (with no signature: /v1/auth/* needs none) and leave
    // the rest of the run unauthenticated; audit-and-keys.test.ts tests it.
    const routes = server.running.app.routes.filter((route) => route.path !== '/auth/logout');
    const routePath = fc
      .tuple(
        fc.constantFrom(...routes),
        fc.constantFrom(profileId, 'unknown-id', '1', '%2e%2e', 'x'.repeat(300), '%00', 'a%00b'),
      )
      .map(([route, id]) => `/v1${route.path.replace(/:\w+/g, id)}`);
    const randomPath = fc
      .array(segment, { minLength: 1, maxLength: 5 })
      .map((parts) => `/${parts.join('/')}`);
    const query = fc.oneof(
      fc.constant(''),
      fc
        .array(
          fc.tuple(
            fc.constantFrom(
              'profileId',
              'pageIndex',
              'pageSize',
              'search',
              'type',
              'status',
              'dateStart',
              'dateEnd',
              'userId',
              'x',
            ),
            fc.oneof(
              fc.string({ maxLength: 20 }),
              fc.integer().map(String),
              fc.constantFrom(profileId, '-1', '0', '1e309', '2026-02-30', '\u0000', `${profileId}\u0000`),
            ),
          ),
          { maxLength: 4 },
        )
        .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`),
    );
    const body = fc.oneof(
      fc.constant(undefined),
      fc.jsonValue({ maxDepth: 3 }),
      fc.record(
        {
          name: fc.oneof(fc.string(), withNul),
          type: fc.constantFrom('demo', 'operator', 'x'),
          profileId: fc.constantFrom(profileId, 'nope', `${profileId}\u0000`),
        },
        { requiredKeys: [] },
      ),
    );
    const request = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
      path: fc.oneof(routePath, randomPath),
      query,
      body,
      raw: fc.option(fc.string({ maxLength: 50 }), { nil: undefined }),
      auth: fc.constantFrom('none', 'valid', 'garbage'),
      signature: fc.constantFrom('none', 'valid', 'random', 'short'),
      contentType: fc.constantFrom(
        'application/json',
        'text/plain',
        'application/json; charset=latin1',
        'multipart/form-data',
      ),
    });

    const RUNS = 1500;
    let requests = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        requests++;
        const headers: Record<string, string> = { 'content-type': r.contentType };
        if (r.auth === 'valid') headers.authorization = `Bearer ${tokens.accessToken}`;
        if (r.auth === 'garbage') headers.authorization = 'Bearer %%%';
        const payload = r.raw ?? (r.body === undefined ? undefined : JSON.stringify(r.body));
        const signedBody = r.raw === undefined ? r.body : undefined;
        if (r.signature === 'valid')
          headers['x-signed-request'] = signForTest(signedBody, tokens.signatureToken);
        if (r.signature === 'random') headers['x-signed-request'] = 'ab'.repeat(64);
        if (r.signature === 'short') headers['x-signed-request'] = 'zz';
        const before = await snapshots.snapshot();
        const hasBody = payload !== undefined && r.method !== 'GET';
        const response = await fetch(`${server.url}${r.path}${r.query}`, {
          method: r.method,
          headers,
          ...(hasBody && { body: payload }),
        });
        const text = await response.text();
        expect(response.status, `${r.method} ${r.path}${r.query} → ${text.slice(0, 200)}`).toBeLessThan(500);
        const isJsonApi = r.path.startsWith('/v1') || response.status >= 400;
        if (isJsonApi && !r.path.startsWith('/v1/openapi.json')) {
          const parsed = JSON.parse(text);
          expect(['success', 'error']).toContain(parsed.status);
          if (parsed.status === 'error') expect(parsed.code).toMatch(/^[A-Z_]+$/);
          expect(text).not.toMatch(/at .+\.ts:\d+|SQLITE|sqlite/);
        }
        const mayWrite =
          r.auth === 'valid' &&
          ((r.signature === 'valid' && (r.method === 'POST' || r.method === 'PUT') && !r.raw) || // an empty raw body signs as {}
            r.method === 'DELETE');
        if (!mayWrite) expect(await snapshots.snapshot(), `${r.method} ${r.path} changed data`).toBe(before);
      }),
      // A fixed number of requests, not as many as fit in a minute: stopping at a time limit and then
      // asking for at least 500 requests failed on a loaded machine.
      { numRuns: RUNS },
    );
    expect(requests).toBeGreaterThanOrEqual(RUNS);
  }, 300_000);

  it('answers a NUL in every path id, in a query and in a signed body with a 400 naming the field, changing nothing', async () => {
    // A token set of its own: the random requests above may have ended or rotated the first one
    // (a signed POST /v1/auth/rotate-key among 1,500), which a CI run met once as a 401 here.
    const { tokens: sender } = await server.newClient('NUL sender');
    const before = await snapshots.snapshot();
    const nulMessage = (field: string) => `${field}: must not contain the NUL character (U+0000)`;
    const expectRefused = (answer: Answer, fields: string[], what: string) =>
      expect([what, answer.status, answer.body.code, answer.body.messages]).toEqual([
        what,
        400,
        'VALIDATION_ERROR',
        fields.map(nulMessage),
      ]);
    // Every route with an id in its path, the id a NUL alone or inside.
    const withIds = server.running.app.routes.filter((route) => route.path.includes(':'));
    expect(withIds.length).toBeGreaterThan(20);
    for (const route of withIds) {
      const method = route.method.toUpperCase();
      const params = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
      for (const id of ['%00', `${profileId}%00`]) {
        const path = `/v1${route.path.replace(/:\w+/g, id)}`;
        const body = method === 'POST' || method === 'PUT' ? {} : undefined;
        expectRefused(await server.call(method, path, { token: sender, body }), params, `${method} ${path}`);
      }
    }
    // A query, and signed bodies: each was a 500 on PostgreSQL.
    expectRefused(
      await server.call('GET', `/v1/user?profileId=${profileId}&search=%00`, { token: sender }),
      ['search'],
      'the player search',
    );
    const signed: Array<[string, string, Record<string, unknown>, string[]]> = [
      ['POST', '/v1/profile', { name: 'Fu\u0000zz', type: 'demo' }, ['name']],
      ['PUT', `/v1/profile/${profileId}`, { name: '\u0000' }, ['name']],
      [
        'PUT',
        `/v1/profile/${profileId}`,
        { responsibleGamingUrl: 'https://casa.example/\u0000' },
        ['responsibleGamingUrl'],
      ],
      [
        'POST',
        '/v1/user/auth',
        { profileId, credential: 'dora\u0000', credentialType: 'username' },
        ['credential'],
      ],
      [
        'POST',
        '/v1/promotion',
        { profileId, name: 'Free\u0000', players: ['a', 'b\u0000'] },
        ['name', 'players.1'],
      ],
      ['POST', '/v1/promotion/some-promotion/players', { players: ['\u0000'] }, ['players.0']],
      ['POST', '/v1/profile', { name: 'key', type: 'demo', 'x\u0000': 1 }, ['x\\u0000']],
    ];
    for (const [method, path, body, fields] of signed) {
      expectRefused(await server.call(method, path, { token: sender, body }), fields, `${method} ${path}`);
    }
    expect(await snapshots.snapshot()).toBe(before);
  });
});
