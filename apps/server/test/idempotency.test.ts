import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createIdempotencyStep } from '../src/http/idempotency.ts';
import { defineRoute, mountRoutes } from '../src/http/route.ts';
import { ApiError, errorBody } from '../src/services/api-error.ts';
import { createIdempotencyService } from '../src/services/idempotency-service.ts';
import { openDatabase } from '../src/store/sqlite/database.ts';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { apiCaller, createTestClock, startTestServer, type TestServer, type TokenSet } from './harness.ts';

let server: TestServer;
let keys = 0;
const newKey = () => `key-${++keys}-${'x'.repeat(8)}`;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function clientWithProfile(name = 'Idempotent operator') {
  const client = await server.newClient(name);
  const profile = await server.call('POST', '/v1/profile', {
    token: client.tokens,
    body: { name, type: 'demo', currency: 'BRL' },
  });
  return { ...client, profileId: profile.body.data.profileId as string };
}

const gameBody = (profileId: string, betPrice = 2) => ({
  profileId,
  gameModel: 'oxe-ganhei',
  lang: 'pt',
  currency: 'BRL',
  rtp: 0.9,
  sampling: 1_000_000,
  prizedPercent: 0.3,
  betPrice,
  simulation: false,
  // true: every request that runs makes one more version, so the versions count the effects.
  replacePreviousVersion: true,
});

async function versionsOf(profileId: string, tokens: TokenSet) {
  const list = await server.call('GET', `/v1/game?profileId=${profileId}`, { token: tokens });
  return (list.body.data as Array<{ id: string; version: number; active: boolean }>).length;
}

const withKey = (key: string) => ({ 'Idempotency-Key': key });

describe('Idempotency-Key on signed writes', () => {
  it('same key and body: the first answer again, replay-marked, and one game created', async () => {
    const { tokens, profileId } = await clientWithProfile();
    const key = newKey();
    const request = { token: tokens, body: gameBody(profileId), headers: withKey(key) };
    const first = await server.call('POST', '/v1/game', request);
    const second = await server.call('POST', '/v1/game', request);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await versionsOf(profileId, tokens)).toBe(1);
  });

  it('same key and another body: 409 CONFLICT naming the key, and nothing changed', async () => {
    const { tokens, profileId } = await clientWithProfile();
    const key = newKey();
    expect(
      (
        await server.call('POST', '/v1/game', {
          token: tokens,
          body: gameBody(profileId),
          headers: withKey(key),
        })
      ).status,
    ).toBe(201);
    const other = await server.call('POST', '/v1/game', {
      token: tokens,
      body: gameBody(profileId, 5),
      headers: withKey(key),
    });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ status: 'error', code: 'CONFLICT' });
    expect(other.body.messages[0]).toMatch(/^Idempotency-Key: this key was already used for another request/);
    expect(await versionsOf(profileId, tokens)).toBe(1);
  });

  it('same key, same signed body, another path: 409, so one signature cannot deactivate two games', async () => {
    const { tokens, profileId } = await clientWithProfile();
    const a = await server.call('POST', '/v1/game', { token: tokens, body: gameBody(profileId) });
    const b = await server.call('POST', '/v1/game', {
      token: tokens,
      body: { ...gameBody(profileId), gameModel: 'fera-sortuda' },
    });
    const key = newKey();
    const body = { active: false, profileId };
    const first = await server.call('PUT', `/v1/game/${a.body.data.id}`, {
      token: tokens,
      body,
      headers: withKey(key),
    });
    expect(first.status).toBe(200);
    const second = await server.call('PUT', `/v1/game/${b.body.data.id}`, {
      token: tokens,
      body,
      headers: withKey(key),
    });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('CONFLICT');
    const games = await server.call('GET', `/v1/game?profileId=${profileId}`, { token: tokens });
    expect(games.body.data.find((game: { id: string }) => game.id === b.body.data.id).active).toBe(true);
  });

  it('same key on another operation: 409', async () => {
    const { tokens } = await clientWithProfile();
    const key = newKey();
    const body = { name: 'Same body', type: 'demo', currency: 'BRL' };
    expect(
      (await server.call('POST', '/v1/profile', { token: tokens, body, headers: withKey(key) })).status,
    ).toBe(201);
    const created = await server.call('POST', '/v1/profile', { token: tokens, body, headers: withKey(key) });
    expect(created.headers.get('idempotent-replayed')).toBe('true');
    const put = await server.call('PUT', `/v1/profile/${created.body.data.profileId}`, {
      token: tokens,
      body,
      headers: withKey(key),
    });
    expect(put.status).toBe(409);
  });

  it('concurrent requests with one key: one effect, every answer the first one or a 409', async () => {
    const { tokens, profileId } = await clientWithProfile();
    const key = newKey();
    const request = { token: tokens, body: gameBody(profileId), headers: withKey(key) };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => server.call('POST', '/v1/game', request)),
    );
    const created = answers.filter((answer) => answer.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const answer of created) expect(answer.body).toEqual(created[0]?.body);
    expect(created.filter((answer) => answer.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expect(answer.status).toBe(409);
      expect(answer.body.messages[0]).toMatch(/in progress/);
    }
    expect(await versionsOf(profileId, tokens)).toBe(1);
  });

  it('no key: unchanged behaviour, a replayed signed write runs again as the spec’s signature allows', async () => {
    const { tokens, profileId } = await clientWithProfile();
    const request = { token: tokens, body: gameBody(profileId) };
    const first = await server.call('POST', '/v1/game', request);
    const second = await server.call('POST', '/v1/game', request);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(await versionsOf(profileId, tokens)).toBe(2);
  });

  it('another API client may use the same key independently', async () => {
    const one = await clientWithProfile('One');
    const two = await clientWithProfile('Two');
    const key = newKey();
    const a = await server.call('POST', '/v1/game', {
      token: one.tokens,
      body: gameBody(one.profileId),
      headers: withKey(key),
    });
    const b = await server.call('POST', '/v1/game', {
      token: two.tokens,
      body: gameBody(two.profileId),
      headers: withKey(key),
    });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.body.data.id).not.toBe(a.body.data.id);
    expect(await versionsOf(two.profileId, two.tokens)).toBe(1);
  });

  it('an outcome the handler refused (4xx) is kept and replayed; a request refused before it ran is not', async () => {
    const mine = await clientWithProfile('Mine');
    const theirs = await clientWithProfile('Theirs');
    const key = newKey();
    const request = { token: mine.tokens, body: gameBody(theirs.profileId), headers: withKey(key) };
    // Another client's profile: the handler's 400, as for an unknown one.
    const refused = await server.call('POST', '/v1/game', request);
    expect(refused.status).toBe(400);
    const again = await server.call('POST', '/v1/game', request);
    expect(again.status).toBe(400);
    expect(again.body).toEqual(refused.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // A validation error, a bad signature: the key stays free for the corrected request.
    const fresh = newKey();
    const invalid = await server.call('POST', '/v1/game', {
      token: mine.tokens,
      body: { ...gameBody(mine.profileId), rtp: 2 },
      headers: withKey(fresh),
    });
    expect(invalid.status).toBe(400);
    const unsigned = await server.call('POST', '/v1/game', {
      token: mine.tokens,
      body: gameBody(mine.profileId),
      sign: 'bad',
      headers: withKey(fresh),
    });
    expect(unsigned.status).toBe(401);
    const fixed = await server.call('POST', '/v1/game', {
      token: mine.tokens,
      body: gameBody(mine.profileId),
      headers: withKey(fresh),
    });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a malformed key is a 400 VALIDATION_ERROR naming the header, and nothing runs', async () => {
    const { tokens, profileId } = await clientWithProfile();
    for (const key of ['', 'x'.repeat(256), 'tab\there', 'caf\u00e9']) {
      const answer = await server.call('POST', '/v1/game', {
        token: tokens,
        body: gameBody(profileId),
        headers: withKey(key),
      });
      expect(answer.status, JSON.stringify(key)).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_ERROR');
      expect(answer.body.messages[0]).toMatch(/^Idempotency-Key: /);
    }
    expect(await versionsOf(profileId, tokens)).toBe(0);
    const longest = await server.call('POST', '/v1/game', {
      token: tokens,
      body: gameBody(profileId),
      headers: withKey(`${' ~'.repeat(127)}!`),
    });
    expect(longest.status).toBe(201);
  });

  it('the public /auth routes ignore the header: login twice gives two token sets', async () => {
    const { apiKey } = await server.newClient();
    const key = newKey();
    const a = await server.call('POST', '/v1/auth/login', { body: { apiKey }, headers: withKey(key) });
    const b = await server.call('POST', '/v1/auth/login', { body: { apiKey }, headers: withKey(key) });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.data.accessToken).not.toBe(a.body.data.accessToken);
  });

  it('is declared on every POST and PUT that authenticates, with the 409 and the replay header', async () => {
    const document = (await server.call('GET', '/v1/openapi.json')).body;
    for (const route of server.running.app.routes) {
      if (route.method !== 'post' && route.method !== 'put') continue;
      const operation = document.paths[`/v1${route.path.replace(/:(\w+)/g, '{$1}')}`][route.method];
      const header = (operation.parameters ?? []).find(
        (p: { in: string; name: string }) => p.in === 'header' && p.name === 'Idempotency-Key',
      );
      if (route.auth === 'none') {
        expect(header, route.path).toBeUndefined();
        continue;
      }
      expect(header, route.path).toMatchObject({ schema: { type: 'string' } });
      expect(header.required ?? false, route.path).toBe(false);
      expect(operation.responses['409'], route.path).toBeDefined();
      expect(operation.responses[String(route.success.status)].headers['Idempotent-Replayed']).toBeDefined();
    }
  });
});

// Last: moving the clock a day ahead expires every token of this server.
describe('Idempotency-Key expiry', () => {
  it('a key answers its first answer for 24 h, then runs again', async () => {
    const { apiKey, tokens, profileId } = await clientWithProfile();
    const key = newKey();
    const first = await server.call('POST', '/v1/game', {
      token: tokens,
      body: gameBody(profileId),
      headers: withKey(key),
    });
    expect(first.status).toBe(201);
    const login = async () =>
      (await server.call('POST', '/v1/auth/login', { body: { apiKey } })).body.data as TokenSet;
    server.clock.advance(24 * 60 * 60 * 1000 - 1);
    const late = await login();
    const replayed = await server.call('POST', '/v1/game', {
      token: late,
      body: gameBody(profileId),
      headers: withKey(key),
    });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(first.body);
    server.clock.advance(1);
    const expired = await server.call('POST', '/v1/game', {
      token: late,
      body: gameBody(profileId),
      headers: withKey(key),
    });
    expect(expired.status).toBe(201);
    expect(expired.headers.get('idempotent-replayed')).toBeNull();
    expect(expired.body.data.id).not.toBe(first.body.data.id);
    expect(await versionsOf(profileId, late)).toBe(2);
  });
});

/**
 * The step on its own, with handlers the test holds open or breaks: what a real route cannot
 * show deterministically (a request still running, a 5xx).
 */
describe('the idempotency step in mountRoutes', () => {
  let http: Server;
  let call: ReturnType<typeof apiCaller>;
  let release: () => void = () => {};
  let runs = 0;
  let failNext = false;

  beforeAll(async () => {
    const clock = createTestClock();
    const store = createSqliteStore(openDatabase(':memory:'));
    await store.clients.insertClient({
      id: 'client-1',
      name: 'c',
      email: 'c@example.test',
      apiKeyHash: 'h',
      passwordHash: null,
      lang: 'en',
      createdAt: clock().toISOString(),
    });
    const routes = [
      defineRoute({
        method: 'post',
        path: '/slow',
        tag: 'Test',
        summary: 'Waits for the test',
        auth: 'bearer',
        body: z.object({ n: z.number() }),
        success: { status: 201, schema: z.object({ run: z.number() }) },
        errors: [],
        handle: async () => {
          const run = ++runs;
          if (failNext) {
            failNext = false;
            throw new Error('a bug: nothing was written');
          }
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          return { run };
        },
      }),
    ];
    const router = express.Router();
    router.use(express.json());
    mountRoutes(
      router,
      routes,
      {
        authenticate: async () => ({
          clientId: 'client-1',
          tokenSetId: 't',
          via: 'api-key' as const,
          signatureToken: 's',
        }),
        verifySignature: () => {},
      },
      { idempotency: createIdempotencyStep(createIdempotencyService({ store, clock })) },
    );
    const app = express().use(router);
    app.use(((error, _request, response, _next) => {
      const apiError = error instanceof ApiError ? error : new ApiError('INTERNAL_ERROR', 'bug');
      response.status(apiError.status).json(errorBody(apiError));
    }) as express.ErrorRequestHandler);
    http = createServer(app);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    call = apiCaller(`http://127.0.0.1:${(http.address() as AddressInfo).port}`);
  });
  afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

  it('a second request while the first is in progress is a 409; after the first answers, it replays', async () => {
    const key = newKey();
    const request = { token: 'any', sign: false, body: { n: 1 }, headers: withKey(key) };
    const first = call('POST', '/slow', request);
    // The first is parked in its handler once `release` is set.
    while (runs === 0) await new Promise((resolve) => setImmediate(resolve));
    const second = await call('POST', '/slow', request);
    expect(second.status).toBe(409);
    expect(second.body.messages[0]).toMatch(/still in progress/);
    release();
    expect(await first).toMatchObject({ status: 201, body: { run: 1 } });
    const third = await call('POST', '/slow', request);
    expect(third).toMatchObject({ status: 201, body: { run: 1 } });
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(runs).toBe(1);
  });

  it('a 5xx is not stored: the key is free and the retry runs', async () => {
    const key = newKey();
    const request = { token: 'any', sign: false, body: { n: 2 }, headers: withKey(key) };
    runs = 0;
    failNext = true;
    expect((await call('POST', '/slow', request)).status).toBe(500);
    const retry = call('POST', '/slow', request);
    while (runs < 2) await new Promise((resolve) => setImmediate(resolve));
    release();
    expect(await retry).toMatchObject({ status: 201, body: { run: 2 } });
  });
});
