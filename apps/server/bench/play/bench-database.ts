import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { StatementCounts } from '../../src/store/sqlite/statement-stats.ts';
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
  /**
   * The cluster's WAL so far (pg_stat_wal, the whole cluster: the bench's database is the only one
   * in use): bytes, records, full-page images, and its flushes to disk. Counts, not times.
   */
  wal(): Promise<WalCounts>;
  /**
   * Every statement the bench's database ran so far, by text, from pg_stat_statements (started
   * with `countStatements` only; BEGIN and COMMIT included). Undefined without it.
   */
  statements(): Promise<StatementCounts | undefined>;
  /** Keeps the database as it is now in `target`, for `dataFrom` (test/postgres-cluster.ts saveData). */
  saveData(target: string): Promise<void>;
  close(): Promise<void>;
}

export interface WalCounts {
  bytes: number;
  records: number;
  fullPageImages: number;
  syncs: number;
}

/**
 * What a cluster process is, from its title (`postgres: walwriter`, `postgres: USER DB [local]
 * idle`…): 'backend' for a connection's, the background worker's name otherwise.
 */
export function processKind(pid: number): string {
  let title = '';
  try {
    title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return 'gone';
  }
  const match = /^postgres: (.*)$/.exec(title);
  if (!match) return 'postmaster';
  const rest = match[1] ?? '';
  if (/\[local\]|\d+\.\d+\.\d+\.\d+|localhost/.test(rest)) return 'backend';
  return rest.replace(/ *(launcher|process)?$/, '').trim() || 'other';
}

export interface TransactionCounts {
  commits: number;
  rollbacks: number;
}

const NAME = 'raspa_bench';

/**
 * `tcp`: the service reaches the cluster over loopback TCP instead of its Unix socket (to compare).
 * `dataFrom`: a data folder kept by `saveData`, its database used as it is.
 */
export async function startBenchDatabase(
  options: { countStatements?: boolean; tcp?: boolean; dataFrom?: string } = {},
): Promise<BenchDatabase> {
  const counting = options.countStatements === true;
  const cluster = await startCluster(counting ? ['shared_preload_libraries=pg_stat_statements'] : [], {
    ...(options.dataFrom && { dataFrom: options.dataFrom }),
  });
  let admin = new pg.Client({ connectionString: cluster.url });
  try {
    await admin.connect();
    if (!options.dataFrom) {
      await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${NAME}`);
    }
  } catch (error) {
    await admin.end().catch(() => {});
    await cluster.stop();
    throw error;
  }
  const url = new URL(options.tcp ? cluster.tcpUrl : cluster.url);
  url.pathname = `/${NAME}`;
  if (counting) await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  // Read each time: saveData restarts the server.
  const postmaster = (dataDir: string) =>
    Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url: url.href,
    cpu: () =>
      cluster.dataDir === undefined
        ? null
        : new Map(
            processTree(postmaster(cluster.dataDir)).map((pid) => [pid, cpuSeconds(pid) ?? 0] as const),
          ),
    transactions: async () => {
      const row = (
        await admin.query('SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = $1', [
          NAME,
        ])
      ).rows[0];
      return { commits: Number(row?.xact_commit ?? 0), rollbacks: Number(row?.xact_rollback ?? 0) };
    },
    wal: async () => {
      const row = (await admin.query('SELECT wal_bytes, wal_records, wal_fpi, wal_sync FROM pg_stat_wal'))
        .rows[0];
      return {
        bytes: Number(row?.wal_bytes ?? 0),
        records: Number(row?.wal_records ?? 0),
        fullPageImages: Number(row?.wal_fpi ?? 0),
        syncs: Number(row?.wal_sync ?? 0),
      };
    },
    statements: async () => {
      if (!counting) return undefined;
      const { rows } = await admin.query<{ query: string; calls: string; ms: number }>(
        `SELECT s.query, s.calls, s.total_exec_time AS ms FROM pg_stat_statements s
         JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1`,
        [NAME],
      );
      const counts: StatementCounts = {};
      for (const row of rows) {
        const into = counts[row.query] ?? { calls: 0, ms: 0 };
        counts[row.query] = { calls: into.calls + Number(row.calls), ms: into.ms + row.ms };
      }
      return counts;
    },
    saveData: async (target) => {
      await admin.end();
      await cluster.saveData(target);
      admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
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

/** CPU seconds used between two readings, by process kind (processKind): backends, walwriter, autovacuum… */
export function cpuByKind(before: TreeCpu | null, after: TreeCpu | null): Record<string, number> | null {
  if (!before || !after) return null;
  const used: Record<string, number> = {};
  for (const [pid, seconds] of after) {
    const kind = processKind(pid);
    used[kind] = (used[kind] ?? 0) + seconds - (before.get(pid) ?? 0);
  }
  return used;
}

/** CPU seconds used between two readings of the cluster's processes (a backend started since counts whole). */
export function cpuBetween(before: TreeCpu | null, after: TreeCpu | null): number | null {
  if (!before || !after) return null;
  let used = 0;
  for (const [pid, seconds] of after) used += seconds - (before.get(pid) ?? 0);
  return used;
}
