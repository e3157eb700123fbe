import { afterAll, beforeAll } from 'vitest';
import { createInstallation } from './installation.ts';
import { type LoadBalancer, startLoadBalancer } from './load-balancer.ts';
import { createTestDatabase, type TestDatabase } from './postgres-database.ts';
import { type ServiceProcess, startServiceProcess } from './service-process.ts';
import type { TestOperator } from './test-operator.ts';

/**
 * A test file's fleet: an operator (wallet and webhook receiver), a fresh PostgreSQL database, one
 * installation on it, the instances the file starts and the HAProxy in front of them, all torn
 * down after the file. The fields are set in beforeAll, so read them inside tests and hooks.
 */
export interface Fleet {
  readonly operator: TestOperator;
  readonly database: TestDatabase;
  readonly installation: ReturnType<typeof createInstallation>;
  /** Every instance started, in order (a killed one stays in the list). */
  readonly instances: ServiceProcess[];
  readonly balancer: LoadBalancer;
  /** Starts one more instance of the installation (`extra`: settings of its own, e.g. its PORT). */
  start(extra?: Record<string, string>): Promise<ServiceProcess>;
  /** HAProxy over two or three instance addresses (docs/operating.md's round-robin configuration). */
  balance(
    instances:
      | readonly [ServiceProcess, ServiceProcess]
      | readonly [ServiceProcess, ServiceProcess, ServiceProcess],
  ): Promise<LoadBalancer>;
}

export function useFleet(setUp: {
  operator: () => Promise<TestOperator>;
  settings: Record<string, string>;
}): Fleet {
  const parts: {
    operator?: TestOperator;
    database?: TestDatabase;
    installation?: ReturnType<typeof createInstallation>;
    balancer?: LoadBalancer;
  } = {};
  const instances: ServiceProcess[] = [];
  const must = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`the fleet's ${name} is not set up yet (read it in a test)`);
    return value;
  };

  beforeAll(async () => {
    parts.operator = await setUp.operator();
    parts.database = await createTestDatabase();
    parts.installation = createInstallation(parts.database.url, setUp.settings);
  });
  afterAll(async () => {
    await parts.balancer?.close();
    for (const instance of instances) if (instance.child.exitCode === null) instance.child.kill('SIGKILL');
    await parts.operator?.close();
    await parts.database?.drop();
    parts.installation?.removeFolders();
  }, 60_000);

  return {
    get operator() {
      return must(parts.operator, 'operator');
    },
    get database() {
      return must(parts.database, 'database');
    },
    get installation() {
      return must(parts.installation, 'installation');
    },
    instances,
    get balancer() {
      return must(parts.balancer, 'load balancer');
    },
    async start(extra = {}) {
      const instance = await startServiceProcess(must(parts.installation, 'installation').env(extra));
      instances.push(instance);
      return instance;
    },
    async balance(some) {
      const host = (instance: ServiceProcess) => new URL(instance.url).host;
      parts.balancer = await startLoadBalancer(some.map(host) as [string, string] | [string, string, string]);
      return parts.balancer;
    },
  };
}
