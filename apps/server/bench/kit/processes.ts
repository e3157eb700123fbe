import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { within } from './within.ts';

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `url` answers 2xx, or throws after `limitMs` or once `child` has exited. */
export async function waitUntilUp(url: string, child: ChildProcess, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${url} did not come up`);
    await sleep(100);
  }
}

export interface ServiceOptions {
  dataDir: string;
  port: number;
  apiKey: string;
  /** More environment (e.g. settings under test). */
  env?: Record<string, string>;
  /** Extra node flags, e.g. ['--cpu-prof', '--cpu-prof-dir=…']. */
  nodeFlags?: string[];
}

/** The real service (src/main.ts) as its own process, as `npm start` runs it. */
export async function startService(options: ServiceOptions): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), '--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATA_DIR: options.dataDir,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      DEMO_API_KEY: options.apiKey,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'], // the start-up banner is read, not shown; warnings still show
  });
  // The service listens before it has set up the demo client: its banner comes after.
  let seen = '';
  const banner = new Promise<void>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (seen.length < 4096) seen += chunk.toString('utf8');
      if (seen.includes('Raspa is running at')) resolve();
    });
  });
  await waitUntilUp(`http://127.0.0.1:${options.port}/health`, child);
  await within(banner, 30_000, 'the service’s start-up banner');
  return child;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
export async function stopProcess(child: ChildProcess | undefined, graceMs = 10_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(graceMs)]);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
}
