import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
    stdio: ['ignore', 'ignore', 'inherit'], // its log lines are not read; a crash on stderr still shows
  });
  // The service listens before it has set up the demo client: /ready answers 200 only after
  // (a seeded DATA_DIR gets no demo client, hence no credentials file to wait for).
  await waitUntilUp(`http://127.0.0.1:${options.port}/ready`, child);
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
