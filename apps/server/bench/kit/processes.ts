import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../test/harness.ts';

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

/** The service could not listen: another process holds the port (EADDRINUSE). */
export class PortTakenError extends Error {}

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
    // Its log lines are not read; warnings still show (and are read for EADDRINUSE).
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    if (errors.length < 16_384) errors += chunk.toString('utf8');
  });
  // Exiting before it is ready is a failure at once (another process may answer on its port).
  const exited = new Promise<never>((_resolve, reject) =>
    child.once('exit', (code) =>
      reject(
        errors.includes('EADDRINUSE')
          ? new PortTakenError(`port ${options.port} is taken`)
          : new Error(`the service exited (${code}) before it was ready`),
      ),
    ),
  );
  void exited.catch(() => {}); // after start-up, an exit is the caller's business
  await Promise.race([
    // The service listens before it has set up the demo client: /ready answers 200 only after
    // (a seeded DATA_DIR gets no demo client, hence no credentials file to wait for).
    waitUntilUp(`http://127.0.0.1:${options.port}/ready`, child, 60_000),
    exited,
  ]);
  return child;
}

/**
 * The service on a port that was free a moment before: another process can take it before the
 * service listens (the port is chosen here, bound later by the child), so on EADDRINUSE it starts
 * again on another port.
 */
export async function startServiceOnFreePort(
  options: Omit<ServiceOptions, 'port'>,
): Promise<{ child: ChildProcess; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return { child: await startService({ ...options, port }), port };
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= 5) throw error;
    }
  }
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
