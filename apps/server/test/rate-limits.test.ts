import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCountersStore } from '../src/http/rate-limits.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { solvedCaptcha as solvedCaptchaOf } from './captcha-solver.ts';
import { type Answer, createTestClock, startTestServer, type TestServer } from './harness.ts';

const MINUTE = 60_000;
const PASSWORD = 'correct horse battery';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    deps: {
      settings: {
        publicUrl: 'http://127.0.0.1',
        tokenTtlSeconds: 7200,
        panelUrl: 'https://panel.example/reset',
        allowPrivateOutbound: true,
        // room for the lock-out tests; the other limits are the defaults
        rateLimits: { panelLoginPerIp: { limit: 30 }, forgotPasswordPerIp: { limit: 8 } },
      },
    },
  });
});
afterAll(() => server.close());
// every window is over after an hour: each test starts from zero
afterEach(() => server.clock.advance(60 * MINUTE));

const solvedCaptcha = () => solvedCaptchaOf(server.running.app.services.panel);

const panelLogin = async (email: string, password: string) =>
  server.call('POST', '/v1/auth/panel-login', { body: { email, password, captcha: await solvedCaptcha() } });

async function repeat(times: number, call: () => Promise<Answer>): Promise<number[]> {
  const statuses: number[] = [];
  for (let round = 0; round < times; round++) statuses.push((await call()).status);
  return statuses;
}

function expectRefusal(answer: Answer, message: string, policy: string, seconds: number) {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual({
    status: 'error',
    code: 'RATE_LIMITED',
    messages: [`${message}; try again in ${seconds} seconds`],
  });
  expect(answer.headers.get('retry-after')).toBe(String(seconds));
  expect(answer.headers.get('ratelimit')).toContain(`"${policy}"; r=0; t=${seconds}`);
  expect(answer.headers.get('ratelimit-policy')).toMatch(
    new RegExp(`"${policy}"; q=\\d+; w=${seconds}; pk=:`),
  );
}

const PER_IP = 'too many requests from this address';
const PER_PAIR = 'too many failed attempts for this account from this address';

describe('per-IP limits', () => {
  it.each([
    ['GET', '/v1/auth/captcha', 'captcha', 30, 60],
    ['POST', '/v1/auth/login', 'loginPerIp', 60, 60],
    ['POST', '/v1/auth/panel-login', 'panelLoginPerIp', 30, 60],
    ['POST', '/v1/auth/forgot-password', 'forgotPasswordPerIp', 8, 900],
    ['POST', '/v1/auth/reset-password', 'resetPasswordPerIp', 10, 900],
    ['POST', '/v1/auth/change-password', 'changePasswordPerIp', 10, 900],
  ])(
    '%s %s: %s allows %i requests, then 429 until the window ends',
    async (method, path, policy, limit, seconds) => {
      const options = method === 'GET' ? {} : { body: {} };
      const first = await server.call(method, path, options);
      expect(first.status).not.toBe(429);
      expect(first.headers.get('ratelimit')).toContain(`"${policy}"; r=${limit - 1}; t=${seconds}`);
      expect(first.headers.get('ratelimit-policy')).toContain(`"${policy}"; q=${limit}; w=${seconds}`);
      const statuses = await repeat(limit - 1, () => server.call(method, path, options));
      expect(statuses).not.toContain(429);
      expectRefusal(await server.call(method, path, options), PER_IP, policy, seconds);
      // other routes are counted apart
      expect((await server.call('GET', '/health')).status).toBe(200);
      server.clock.advance(seconds * 1000 - 1);
      expect((await server.call(method, path, options)).status).toBe(429);
      server.clock.advance(1);
      expect((await server.call(method, path, options)).status).not.toBe(429);
    },
  );
});

describe('failed API keys per (key, IP)', () => {
  it('lock the pair after 10 failures for 15 minutes, without locking other keys', async () => {
    const { apiKey } = await server.newClient();
    const wrong = { body: { apiKey: 'rsp_a-key-somebody-guesses' } };
    expect(await repeat(10, () => server.call('POST', '/v1/auth/login', wrong))).toEqual(Array(10).fill(401));
    expectRefusal(await server.call('POST', '/v1/auth/login', wrong), PER_PAIR, 'loginFailures', 900);
    expect(
      (await server.call('POST', '/v1/auth/login', { body: { apiKey: 'rsp_another-guess' } })).status,
    ).toBe(401);
    expect((await server.call('POST', '/v1/auth/login', { body: { apiKey } })).status).toBe(200);
    // refused attempts do not extend the lock
    server.clock.advance(15 * MINUTE - 1);
    expect((await server.call('POST', '/v1/auth/login', wrong)).status).toBe(429);
    server.clock.advance(1);
    expect((await server.call('POST', '/v1/auth/login', wrong)).status).toBe(401);
  });

  it('do not count bodies that fail validation', async () => {
    expect(await repeat(12, () => server.call('POST', '/v1/auth/login', { body: { apiKey: 5 } }))).toEqual(
      Array(12).fill(400),
    );
    expect((await server.call('POST', '/v1/auth/login', { body: { apiKey: 'rsp_guess' } })).status).toBe(401);
  });
});

describe('failed panel passwords per (e-mail, IP)', () => {
  it('lock the pair after 10 failures in a row, even for the right password; other e-mails stay open', async () => {
    const alice = await server.newClient();
    const bob = await server.newClient();
    expect(await repeat(10, () => panelLogin(alice.email, 'wrong password'))).toEqual(Array(10).fill(401));
    expectRefusal(await panelLogin(alice.email, PASSWORD), PER_PAIR, 'panelLoginFailures', 900);
    // the same e-mail in another case is the same credential
    expect((await panelLogin(alice.email.toUpperCase(), PASSWORD)).status).toBe(429);
    expect((await panelLogin(bob.email, 'wrong password')).status).toBe(401);
    expect((await panelLogin(bob.email, PASSWORD)).status).toBe(200);
    server.clock.advance(15 * MINUTE);
    expect((await panelLogin(alice.email, PASSWORD)).status).toBe(200);
  });

  it('start again from zero after a success', async () => {
    const { email } = await server.newClient();
    expect(await repeat(9, () => panelLogin(email, 'wrong password'))).toEqual(Array(9).fill(401));
    expect((await panelLogin(email, PASSWORD)).status).toBe(200);
    expect(await repeat(10, () => panelLogin(email, 'wrong password'))).toEqual(Array(10).fill(401));
    expect((await panelLogin(email, PASSWORD)).status).toBe(429);
  });

  it('do not count a refused captcha', async () => {
    const { email } = await server.newClient();
    const badCaptcha = () =>
      server.call('POST', '/v1/auth/panel-login', { body: { email, password: 'wrong', captcha: 'x:y' } });
    expect(await repeat(12, badCaptcha)).toEqual(Array(12).fill(400));
    expect((await panelLogin(email, PASSWORD)).status).toBe(200);
  });
});

describe('forgot-password per e-mail', () => {
  it('allows 5 accepted requests an hour for one e-mail, from any address; refused captchas do not count', async () => {
    const forgot = async (email: string, captcha?: string) =>
      server.call('POST', '/v1/auth/forgot-password', {
        body: { email, captcha: captcha ?? (await solvedCaptcha()) },
      });
    const target = 'flooded@example.test';
    expect((await forgot(target, 'x:WRONG')).status).toBe(400);
    expect(await repeat(5, () => forgot(target))).toEqual(Array(5).fill(200));
    expectRefusal(
      await forgot(target.toUpperCase()),
      'too many password-reset requests for this e-mail',
      'forgotPasswordPerEmail',
      3600,
    );
    expect((await forgot('someone-else@example.test')).status).toBe(200);
  });
});

describe('the counters store (rate limits in the database)', () => {
  const counters = () => openSqliteStore(':memory:').rateLimits;

  it('counts on the injected clock and reports reset times on the real one', async () => {
    const clock = createTestClock();
    const store = createCountersStore(counters(), clock, { name: 'test' });
    await store.init?.({ windowMs: MINUTE, limit: 3 } as never);
    expect(await store.increment('k')).toMatchObject({ totalHits: 1 });
    // The window is a minute on the injected clock (which does not move here), reported on the real
    // one: between a minute after just before the call and a minute after just after it.
    const before = Date.now();
    const second = await store.increment('k');
    const after = Date.now();
    expect(second.totalHits).toBe(2);
    expect(second.resetTime?.getTime()).toBeGreaterThanOrEqual(before + MINUTE);
    expect(second.resetTime?.getTime()).toBeLessThanOrEqual(after + MINUTE);
    await store.decrement('k');
    expect((await store.get?.('k'))?.totalHits).toBe(1);
    clock.advance(MINUTE);
    expect(await store.get?.('k')).toBeUndefined();
    expect(await store.increment('k')).toMatchObject({ totalHits: 1 });
    await store.resetKey('k');
    expect(await store.get?.('k')).toBeUndefined();
  });

  it('with slide, restarts the window on each hit up to the limit, not beyond', async () => {
    const clock = createTestClock();
    const store = createCountersStore(counters(), clock, { name: 'test', slide: true });
    await store.init?.({ windowMs: MINUTE, limit: 2 } as never);
    await store.increment('k');
    clock.advance(MINUTE - 1);
    await store.increment('k'); // the 2nd hit: the window now ends a minute from here
    clock.advance(MINUTE - 1);
    expect((await store.increment('k')).totalHits).toBe(3); // beyond the limit: no extension
    clock.advance(1);
    expect(await store.get?.('k')).toBeUndefined();
  });

  it('keeps each limiter’s keys apart, and two stores on one database count the same hits', async () => {
    const clock = createTestClock();
    const shared = counters();
    const login = createCountersStore(shared, clock, { name: 'login' });
    const loginElsewhere = createCountersStore(shared, clock, { name: 'login' }); // another process
    const captcha = createCountersStore(shared, clock, { name: 'captcha' });
    for (const store of [login, loginElsewhere, captcha])
      await store.init?.({ windowMs: MINUTE, limit: 5 } as never);
    await login.increment('1.2.3.4');
    expect((await loginElsewhere.increment('1.2.3.4')).totalHits).toBe(2);
    expect((await captcha.increment('1.2.3.4')).totalHits).toBe(1);
    await loginElsewhere.resetAll?.();
    expect(await login.get?.('1.2.3.4')).toBeUndefined();
    expect((await captcha.get?.('1.2.3.4'))?.totalHits).toBe(1);
  });
});
