import type { PgStatementCount, PgStatementCounts } from './bench-database.ts';

/** One statement's share of a round, from pg_stat_statements (per round unless named otherwise). */
export interface StatementCost {
  sql: string;
  calls: number;
  execMs: number;
  planMs: number;
  /** Plans made per call: 1 = planned each time, 0 = a cached (generic) plan reused. */
  plansPerCall: number;
  rows: number;
  /** Shared buffers hit and read, dirtied. */
  sharedHit: number;
  sharedRead: number;
  sharedDirtied: number;
  walRecords: number;
  walBytes: number;
}

const FIELDS = [
  'calls',
  'ms',
  'planMs',
  'plans',
  'rows',
  'sharedHit',
  'sharedRead',
  'sharedDirtied',
  'sharedWritten',
  'walRecords',
  'walFullPages',
  'walBytes',
] as const satisfies readonly (keyof PgStatementCount)[];

/**
 * Where PostgreSQL's work of a round goes (issue 34 item 2): every statement run between two
 * pg_stat_statements snapshots, per round, the costliest (execution and planning time) first,
 * with the totals of all of them. A trigger's work is in the statement that fired it.
 */
export function statementProfile(
  before: PgStatementCounts,
  after: PgStatementCounts,
  rounds: number,
): { statements: StatementCost[]; total: StatementCost } {
  const per = (value: number, digits: number) => Math.round((value / rounds) * 10 ** digits) / 10 ** digits;
  const differences = Object.entries(after)
    .map(([sql, count]) => {
      const was = before[sql];
      const used = Object.fromEntries(FIELDS.map((key) => [key, count[key] - (was?.[key] ?? 0)]));
      return { sql, used: used as Record<(typeof FIELDS)[number], number> };
    })
    .filter(({ used }) => used.calls > 0);
  const cost = (sql: string, used: Record<(typeof FIELDS)[number], number>): StatementCost => ({
    sql: sql.replace(/\s+/g, ' ').slice(0, 100),
    calls: per(used.calls, 3),
    execMs: per(used.ms, 4),
    planMs: per(used.planMs, 4),
    plansPerCall: used.calls > 0 ? Math.round((used.plans / used.calls) * 100) / 100 : 0,
    rows: per(used.rows, 2),
    sharedHit: per(used.sharedHit, 1),
    sharedRead: per(used.sharedRead, 2),
    sharedDirtied: per(used.sharedDirtied, 2),
    walRecords: per(used.walRecords, 2),
    walBytes: per(used.walBytes, 0),
  });
  const sum = Object.fromEntries(
    FIELDS.map((key) => [key, differences.reduce((total, { used }) => total + used[key], 0)]),
  ) as Record<(typeof FIELDS)[number], number>;
  return {
    statements: differences
      .sort((a, b) => b.used.ms + b.used.planMs - (a.used.ms + a.used.planMs))
      .map(({ sql, used }) => cost(sql, used)),
    total: cost('all statements', sum),
  };
}

/** The profile as two tables: each statement per round, then all of them together. */
export function printStatementProfile(profile: ReturnType<typeof statementProfile>): void {
  console.log('PostgreSQL per round, by statement (pg_stat_statements; ms are backend wall time):');
  console.table(profile.statements);
  console.table([profile.total]);
}
