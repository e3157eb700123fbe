import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { StatementCount } from '../../src/store/sqlite/statement-stats.ts';
import { startCluster } from '../../test/postgres-cluster.ts';
import { cpuSeconds, exitedChildrenCpuSeconds, processTree, type TreeCpu } from '../kit/cpu.ts';

/**
 * PostgreSQL for `bench:play --database postgres`: a throwaway cluster on this machine, started as
 * the tests start theirs (fsync on, test/postgres-cluster.ts) unless TEST_DATABASE_URL names a
 * server, with one empty database, and what the bench reads of it: the CPU of its processes and
 * the commits of that database.
 */
export interface BenchDatabase {
  url: string;
  /**
   * CPU seconds of the postmaster and each backend now, by pid, and of its exited backends together
   * under EXITED; null for a server not started here.
   */
  cpu(): TreeCpu | null;
  /** A URL of another database of the cluster, created empty (pgbench's, beside the service's). */
  createDatabase(name: string): Promise<string>;
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
  statements(): Promise<PgStatementCounts | undefined>;
  /** Keeps the database as it is now in `target`, for `dataFrom` (test/postgres-cluster.ts saveData). */
  saveData(target: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * pg_stat_statements' counters of one statement text (its queryid's rows summed): `ms` is the
 * execution time (a trigger's work included, in the statement that fired it), `planMs` the
 * planning's (track_planning is on when counting).
 */
export interface PgStatementCount extends StatementCount {
  planMs: number;
  plans: number;
  rows: number;
  sharedHit: number;
  sharedRead: number;
  sharedDirtied: number;
  sharedWritten: number;
  walRecords: number;
  walFullPages: number;
  walBytes: number;
}

export type PgStatementCounts = Record<string, PgStatementCount>;

/** The pseudo-pid under which cpu() reads the CPU of the cluster's exited processes (pid 0 is never one). */
export const EXITED = 0;

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
  if (pid === EXITED) return 'exited';
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
  const countingSettings = [
    'shared_preload_libraries=pg_stat_statements',
    'pg_stat_statements.track_planning=on',
  ];
  const cluster = await startCluster(counting ? countingSettings : [], {
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
    cpu: () => {
      if (cluster.dataDir === undefined) return null;
      const root = postmaster(cluster.dataDir);
      const readings: TreeCpu = new Map(processTree(root).map((pid) => [pid, cpuSeconds(pid) ?? 0] as const));
      return readings.set(EXITED, exitedChildrenCpuSeconds(root) ?? 0);
    },
    createDatabase: async (name) => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${name}`);
      const other = new URL(url);
      other.pathname = `/${name}`;
      return other.href;
    },
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
      const { rows } = await admin.query<Record<string, string | number> & { query: string }>(
        `SELECT s.query, s.calls, s.total_exec_time AS "ms", s.total_plan_time AS "planMs",
                s.plans, s.rows, s.shared_blks_hit AS "sharedHit", s.shared_blks_read AS "sharedRead",
                s.shared_blks_dirtied AS "sharedDirtied", s.shared_blks_written AS "sharedWritten",
                s.wal_records AS "walRecords", s.wal_fpi AS "walFullPages", s.wal_bytes AS "walBytes"
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1`,
        [NAME],
      );
      const counts: PgStatementCounts = {};
      for (const { query, ...row } of rows) {
        const into = counts[query];
        const sum = Object.fromEntries(
          Object.entries(row).map(([key, value]) => [
            key,
            Number(value) + (into?.[key as keyof PgStatementCount] ?? 0),
          ]),
        );
        counts[query] = sum as unknown as PgStatementCount;
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
