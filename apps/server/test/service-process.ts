import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { defaultWorkers } from '../src/config.ts';
import { apiCaller, freePort, type TokenSet } from './harness.ts';
import { eventually } from './play-fixtures.ts';
import type { TestOperator } from './test-operator.ts';

/** The real service (src/main.ts) as its own processes, as `npm start` runs it, with its logs. */
export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  logs(): string;
  /** The lines logged at level error or fatal, and what a process printed that is not JSON (a crash). */
  errors(): string[];
  /** The worker pids the primary logged (WORKERS > 1). */
  workerPids(): number[];
  call: ReturnType<typeof apiCaller>;
  /** SIGTERM, and the exit code. */
  stop(): Promise<number | null>;
}

/**
 * The options of a test that kills processes: one retry when CI is set, as Playwright's default
 * configuration gives browser tests, and none elsewhere. The check's summary lists every test that
 * needed it (scripts/test-summary.mjs), so a wavering one is fixed next, not hidden.
 */
export const RETRY_ONCE_IN_CI = { retry: process.env.CI ? 1 : 0 };

const serverDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * Starts the service with `env` (JSON logs) and main.ts's `args` (e.g. `--local`), on a free port
 * unless it names one, and waits until it is ready.
 */
export async function startServiceProcess(
  env: Record<string, string>,
  args: readonly string[] = [],
): Promise<ServiceProcess> {
  // A given PORT: an instance restarted where its load balancer expects it.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: serverDir,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let logs = '';
  child.stdout?.on('data', (d) => (logs += String(d)));
  child.stderr?.on('data', (d) => (logs += String(d)));
  const listening = () => logs.split('\n').find((line) => line.includes('"workers listening"'));
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`the service exited: ${logs}`);
    // Unset, WORKERS is the configuration's default for the database the service is given.
    const databaseUrl = env.DATABASE_URL ?? process.env.DATABASE_URL;
    const single = (env.WORKERS ?? String(defaultWorkers(databaseUrl))) === '1';
    const workersUp = single || listening() !== undefined;
    return workersUp && (await fetch(`${url}/ready`).catch(() => undefined))?.ok;
  }, 60_000);
  return {
    url,
    child,
    logs: () => logs,
    errors: () => errorLines(logs),
    workerPids: () => JSON.parse(listening() ?? '{"pids":[]}').pids,
    call: apiCaller(url),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

/** An operator profile on the test operator's wallet and one game of it, through the API. */
export async function setUpWalletGame(
  call: ReturnType<typeof apiCaller>,
  tokens: TokenSet,
  operator: TestOperator,
  game: { gameModel: string; prizedPercent: number },
): Promise<{ profileId: string; gameId: string }> {
  const profile = await call('POST', '/v1/profile', {
    token: tokens,
    body: {
      name: 'Test operator',
      type: 'operator',
      walletUrl: operator.walletUrl,
      walletSignatureToken: operator.walletSecret,
    },
  });
  const profileId = profile.body.data.profileId;
  const created = await call('POST', '/v1/game', {
    token: tokens,
    body: {
      profileId,
      lang: 'en',
      currency: 'BRL',
      rtp: 0.9,
      sampling: 100_001,
      ...game,
      betPrice: 2,
      simulation: false,
      replacePreviousVersion: true,
    },
  });
  if (created.status !== 201) throw new Error(`the game was refused: ${JSON.stringify(created.body)}`);
  return { profileId, gameId: created.body.data.id };
}

/** A new session of `credential` on the game: the token of its gameUrl. */
export async function sessionToken(
  call: ReturnType<typeof apiCaller>,
  tokens: TokenSet,
  at: { profileId: string; gameId: string },
  credential: string,
): Promise<string> {
  const user = await call('POST', '/v1/user/auth', {
    token: tokens,
    body: { profileId: at.profileId, credential, credentialType: 'username' },
  });
  const session = await call('POST', '/v1/game/session', {
    token: tokens,
    body: { userToken: user.body.data.userToken, gameId: at.gameId },
  });
  return new URL(session.body.data.gameUrl).searchParams.get('token') ?? '';
}

function errorLines(logs: string): string[] {
  return logs
    .split('\n')
    .filter((line) => line.trim() && !(line.startsWith('{') && !/"level":"(error|fatal)"/.test(line)));
}
