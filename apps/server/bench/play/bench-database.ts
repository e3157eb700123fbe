import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { startCluster } from '../../test/postgres-cluster.ts';
import { cpuSeconds, processTree, type TreeCpu } from '../kit/cpu.ts';

/**
 * PostgreSQL for `bench:play --database postgres`: a throwaway cluster on this machine, started as
 * the tests start theirs (fsync on, test/postgres-cluster.ts) unless TEST_DATABASE_URL names a
 * server, with one empty database, and what the bench reads of it: the CPU of its processes and
 * the commits of that database.
 */
export interface BenchDatabase {
  url: string;
  /** CPU seconds of the postmaster and each backend now, by pid; null for a server not started here. */
  cpu(): TreeCpu | null;
  /**
   * pg_stat_database.xact_commit and xact_rollback of the bench's database (its statistics lag by
   * up to a second). Rollbacks are mostly units PostgreSQL aborted, each run again by the service.
   */
  transactions(): Promise<TransactionCounts>;
  close(): Promise<void>;
}

export interface TransactionCounts {
  commits: number;
  rollbacks: number;
}

const NAME = 'raspa_bench';

export async function startBenchDatabase(): Promise<BenchDatabase> {
  const cluster = await startCluster();
  const admin = new pg.Client({ connectionString: cluster.url });
  try {
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${NAME}`);
  } catch (error) {
    await admin.end().catch(() => {});
    await cluster.stop();
    throw error;
  }
  const url = new URL(cluster.url);
  url.pathname = `/${NAME}`;
  const postmaster = cluster.dataDir
    ? Number(readFileSync(join(cluster.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])
    : undefined;
  return {
    url: url.href,
    cpu: () =>
      postmaster === undefined
        ? null
        : new Map(processTree(postmaster).map((pid) => [pid, cpuSeconds(pid) ?? 0] as const)),
    transactions: async () => {
      const row = (
        await admin.query('SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = $1', [
          NAME,
        ])
      ).rows[0];
      return { commits: Number(row?.xact_commit ?? 0), rollbacks: Number(row?.xact_rollback ?? 0) };
    },
    close: async () => {
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
        await admin.end();
      } finally {
        await cluster.stop();
      }
    },
  };
}

/** CPU seconds used between two readings of the cluster's processes (a backend started since counts whole). */
export function cpuBetween(before: TreeCpu | null, after: TreeCpu | null): number | null {
  if (!before || !after) return null;
  let used = 0;
  for (const [pid, seconds] of after) used += seconds - (before.get(pid) ?? 0);
  return used;
}
