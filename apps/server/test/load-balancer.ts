import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './harness.ts';
import { eventually } from './play-fixtures.ts';

/** HAProxy in front of service instances, with the configuration file deploy/ ships (deploy/haproxy.cfg). */
export interface LoadBalancer {
  url: string;
  logs(): string;
  close(): Promise<void>;
}

const CONFIG = fileURLToPath(new URL('../../../deploy/haproxy.cfg', import.meta.url));
const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';

/**
 * Starts HAProxy (installed by scripts/ensure-test-tools.mjs) on a free 127.0.0.1 port over the
 * two or three instance addresses (host:port) the example configuration names, and waits until it
 * forwards to one of them that is ready.
 */
export async function startLoadBalancer(
  instances: readonly [string, string] | readonly [string, string, string],
): Promise<LoadBalancer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(HAPROXY, ['-f', CONFIG, '-db'], {
    env: {
      ...process.env,
      RASPA_LB_BIND: `127.0.0.1:${port}`,
      RASPA_INSTANCE_1: instances[0],
      RASPA_INSTANCE_2: instances[1],
      ...(instances[2] !== undefined && { RASPA_INSTANCE_3: instances[2] }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let logs = '';
  child.stdout?.on('data', (d) => (logs += String(d)));
  child.stderr?.on('data', (d) => (logs += String(d)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`haproxy exited: ${logs}`);
    return (await fetch(`${url}/ready`).catch(() => undefined))?.ok;
  });
  return {
    url,
    logs: () => logs,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
