import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseSnapshots, databaseSnapshots } from './database-snapshot.ts';
import { signForTest, startTestServer, type TestServer, type TokenSet } from './harness.ts';

/**
 * Random requests against the running app, on 127.0.0.1 only and bounded in count: none may get a
 * 500 or a non-envelope answer, and none may change stored data unless it was a correctly signed
 * write (or an authenticated DELETE, which needs no signature).
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
        fc.constantFrom(profileId, 'unknown-id', '1', '%2e%2e', 'x'.repeat(300)),
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
              fc.constantFrom(profileId, '-1', '0', '1e309', '2026-02-30'),
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
          name: fc.string(),
          type: fc.constantFrom('demo', 'operator', 'x'),
          profileId: fc.constantFrom(profileId, 'nope'),
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
});
