import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, readConfig } from '../src/config.ts';
import type { Deps, PlaySettings } from '../src/deps.ts';
import { silentLogger } from '../src/logger.ts';
import type { HostLookup } from '../src/outbound/host-resolution.ts';
import { buildDeps, type RunningServer, type StartOptions, startServer } from '../src/server.ts';
import type { PostgresStore } from '../src/store/postgres/postgres-store.ts';
import { WriteRefusedError } from '../src/store/write-guard.ts';
import { EASY_CAPTCHA } from './captcha-solver.ts';
import { createTestDatabase } from './postgres-database.ts';

/** A port free on 127.0.0.1 right now, for a service started as its own process. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * The environment of a test whose wallet or webhook receiver runs on 127.0.0.1: private
 * outbound addresses are refused by default, as in production.
 */
export const LOCAL_INTEGRATION: Readonly<Record<string, string>> = { OUTBOUND_ALLOW_PRIVATE: 'true' };

/** The public address names under `.example` resolve to in tests (example.com's own). */
export const TEST_PUBLIC_ADDRESS = '93.184.215.14';

/**
 * The DNS every test server uses, so no test asks the network: `*.example` resolves to a public
 * address (such URLs are only registered, never called), `localhost` to 127.0.0.1, and anything
 * else is not found.
 */
export const testDns: HostLookup = async (host) => {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
  if (name === 'example' || name.endsWith('.example')) return [{ address: TEST_PUBLIC_ADDRESS, family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

/** A clock tests move by hand. */
export function createTestClock(start = new Date('2026-03-01T12:00:00.000Z')) {
  let now = start.getTime();
  const clock = () => new Date(now);
  clock.advance = (ms: number) => {
    now += ms;
  };
  clock.set = (date: Date) => {
    now = date.getTime();
  };
  return clock;
}

/**
 * The signature as an integrator would compute it, written here without the core's signer so the
 * test checks the contract, not our implementation against itself: keys sorted by UTF-16 code
 * unit (JS's default string sort), JSON.stringify for strings and numbers, no whitespace.
 */
export function canonicalForTest(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalForTest).join(',')}]`;
  const entries = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalForTest((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

export function signForTest(body: unknown, signatureToken: string): string {
  return createHmac('sha512', Buffer.from(signatureToken, 'utf8'))
    .update(Buffer.from(body === undefined ? '{}' : canonicalForTest(body), 'utf8'))
    .digest('hex');
}

export interface TokenSet {
  accessToken: string;
  signatureToken: string;
  expireAt: string;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as is (for malformed JSON). */
  raw?: string;
  token?: TokenSet | string | null;
  /** true (default on POST/PUT with a token set): sign with the token set; a string: send that header. */
  sign?: boolean | string;
  headers?: Record<string, string>;
}

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** Calls the running API over real HTTP. */
export function apiCaller(baseUrl: string) {
  return async function call<T = any>(
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const tokenSet = typeof options.token === 'object' && options.token !== null ? options.token : undefined;
    const accessToken = typeof options.token === 'string' ? options.token : tokenSet?.accessToken;
    if (accessToken) headers.authorization = `Bearer ${accessToken}`;
    let payload: string | undefined = options.raw;
    if (options.body !== undefined) payload = JSON.stringify(options.body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const writes = method === 'POST' || method === 'PUT';
    if (typeof options.sign === 'string') headers['x-signed-request'] = options.sign;
    else if ((options.sign ?? writes) && tokenSet)
      headers['x-signed-request'] = signForTest(options.body, tokenSet.signatureToken);
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(payload !== undefined && { body: payload }),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: body as T, headers: response.headers };
  };
}

export type Caller = ReturnType<typeof apiCaller>;

export interface TestServer {
  url: string;
  call: Caller;
  deps: Deps;
  clock: ReturnType<typeof createTestClock>;
  config: Config;
  running: RunningServer;
  dataDir: string;
  /** Creates an API client and logs it in. */
  newClient(name?: string): Promise<{ apiKey: string; tokens: TokenSet; clientId: string; email: string }>;
  close(): Promise<void>;
}

let clients = 0;

/**
 * A real server on 127.0.0.1 and an ephemeral port, over a real SQLite file in a fresh directory,
 * resolving names with `testDns`. Pass `env: LOCAL_INTEGRATION` to reach local wallets and receivers.
 */
export async function startTestServer(
  options: {
    env?: Record<string, string>;
    deps?: Partial<Deps>;
    play?: PlaySettings;
    /** E.g. a Socket.IO adapter, for two servers on one PostgreSQL database (env DATABASE_URL). */
    start?: StartOptions;
  } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'raspa-test-'));
  // RASPA_TEST_STORE=postgres (the server-postgres project): the same test on a fresh PostgreSQL
  // database, unless the test names one of its own (env DATABASE_URL), which it then drops itself.
  const database =
    process.env.RASPA_TEST_STORE === 'postgres' && !options.env?.DATABASE_URL
      ? await createTestDatabase()
      : undefined;
  const configured = readConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PORT: '0',
    ...(database && { DATABASE_URL: database.url }),
    ...options.env,
  });
  if (!configured.ok) throw new Error(configured.errors.join('\n'));
  const config = configured.config;
  const clock = createTestClock();
  const deps = buildDeps(config, { clock, logger: silentLogger, resolveHost: testDns, ...options.deps });
  deps.settings.play = { ...deps.settings.play, ...options.play };
  deps.settings.captcha ??= EASY_CAPTCHA;
  // PostgreSQL migrates after open (the service's /ready says 503 meanwhile); a test starts on a
  // migrated database, as it does on SQLite. A store refused for its generation starts refused.
  await (deps.store as Partial<PostgresStore>).ready?.catch((error: unknown) => {
    if (!(error instanceof WriteRefusedError)) throw error;
  });
  const running = await startServer(deps, '127.0.0.1', 0, options.start);
  deps.settings.publicUrl = running.url;
  const call = apiCaller(running.url);
  return {
    url: running.url,
    call,
    deps,
    clock,
    config,
    running,
    dataDir,
    async newClient(name = 'Test operator') {
      const email = `client${++clients}-${Date.now()}@example.test`;
      const { apiKey, client } = await running.app.services.auth.createClient({
        name,
        email,
        password: 'correct horse battery',
      });
      const login = await call<{ data: TokenSet }>('POST', '/v1/auth/login', { body: { apiKey } });
      if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
      return { apiKey, tokens: login.body.data, clientId: client.id, email };
    },
    async close() {
      await running.close();
      await deps.store.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
