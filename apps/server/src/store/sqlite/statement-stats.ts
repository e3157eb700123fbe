import { renameSync, writeFileSync } from 'node:fs';
import type Database from 'better-sqlite3';

// The connection's type from the driver: database.ts imports this module.
type Db = Database.Database;

/**
 * A diagnostic (STATEMENT_STATS, `pnpm bench:play --statements`): counts every SQL statement this
 * connection runs and the time spent in it, so a benchmark can say how many statements a round
 * costs and which. The counts are written as JSON to `${file}.${pid}` at exit and on SIGUSR2 (the
 * bench takes one before and one after its measured run). Off unless configured: it wraps each
 * prepared statement's calls.
 */
export interface StatementCount {
  calls: number;
  /** Wall-clock milliseconds inside the call: for SQLite on this thread, its CPU but for fsyncs. */
  ms: number;
}

export type StatementCounts = Record<string, StatementCount>;

/**
 * Writes a process's counts to `${file}.${pid}`, whole or not at all: the bench reads the file as
 * soon as it appears, so it is written beside it and renamed into place.
 */
export function writeStatementCounts(file: string, counts: StatementCounts): void {
  const target = `${file}.${process.pid}`;
  writeFileSync(`${target}.partial`, JSON.stringify(counts));
  renameSync(`${target}.partial`, target);
}

type Method = (...args: unknown[]) => unknown;

/**
 * Runs every statement of `db` (its prepared statements' calls, and `exec`) through `around`, which
 * gets the SQL text and the call to make. For diagnostics and the tests' statement logs only.
 */
export function aroundStatements(db: Db, around: (sql: string, call: () => unknown) => unknown): void {
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql) as unknown as Record<string, Method>;
    for (const name of ['run', 'get', 'all', 'iterate'] as const) {
      const method = statement[name]?.bind(statement);
      if (method) statement[name] = (...args: unknown[]) => around(sql, () => method(...args));
    }
    return statement;
  }) as unknown as Db['prepare'];
  // exec (the group commit's SAVEPOINT, RELEASE and COMMIT) is keyed by its argument.
  const exec = db.exec.bind(db) as Method;
  db.exec = ((sql: string) => around(sql, () => exec(sql))) as Db['exec'];
}

export function countStatements(db: Db, file: string): void {
  const counts = new Map<string, { calls: number; ns: bigint }>();
  aroundStatements(db, (sql, call) => {
    const key = sql.replace(/\s+/g, ' ').trim();
    const start = process.hrtime.bigint();
    try {
      return call();
    } finally {
      const count = counts.get(key) ?? { calls: 0, ns: 0n };
      count.calls++;
      count.ns += process.hrtime.bigint() - start;
      counts.set(key, count);
    }
  });

  const write = () => {
    const out: StatementCounts = {};
    for (const [sql, count] of counts) out[sql] = { calls: count.calls, ms: Number(count.ns) / 1e6 };
    writeStatementCounts(file, out);
  };
  process.on('SIGUSR2', write);
  process.on('exit', write);
}
