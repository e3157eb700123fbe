import { existsSync, readFileSync, rmSync } from 'node:fs';
import { ROUND_TRIPS, SENT, UNITS, WAITS } from '../../src/store/postgres/round-trips.ts';
import type { StatementCounts } from '../../src/store/sqlite/statement-stats.ts';
import { sleep } from './processes.ts';

/**
 * Snapshots of the service's SQL statement counts (the STATEMENT_STATS setting): each process
 * writes its own `${prefix}.${pid}` when sent SIGUSR2, and the difference of two snapshots says
 * what a measured run cost.
 */

/** Every process's counts, summed, once each has written them (within 10 s). */
export async function snapshotStatements(prefix: string, pids: readonly number[]): Promise<StatementCounts> {
  const files = pids.map((pid) => `${prefix}.${pid}`);
  for (const file of files) rmSync(file, { force: true });
  for (const pid of pids) process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 10_000;
  while (!files.every((file) => existsSync(file)) && Date.now() < deadline) await sleep(20);
  const sum: StatementCounts = {};
  for (const file of files.filter((each) => existsSync(each))) {
    const counts = JSON.parse(readFileSync(file, 'utf8')) as StatementCounts;
    for (const [sql, count] of Object.entries(counts)) {
      const into = sum[sql] ?? { calls: 0, ms: 0 };
      sum[sql] = { calls: into.calls + count.calls, ms: into.ms + count.ms };
    }
  }
  return sum;
}

export interface StatementsPerRound {
  statements: number;
  ms: number;
  /** The costliest statements by time, each with its calls and milliseconds per round. */
  top: { sql: string; calls: number; ms: number }[];
}

/** What the run between two snapshots cost per round. */
export function statementsPerRound(
  before: StatementCounts,
  after: StatementCounts,
  rounds: number,
  top = 12,
): StatementsPerRound {
  const per = (value: number) => Math.round((value / rounds) * 1000) / 1000;
  const rows = Object.entries(after).map(([sql, count]) => ({
    sql: sql.length > 110 ? `${sql.slice(0, 107)}…` : sql,
    calls: count.calls - (before[sql]?.calls ?? 0),
    ms: count.ms - (before[sql]?.ms ?? 0),
  }));
  const ran = rows.filter((row) => row.calls > 0).sort((a, b) => b.ms - a.ms);
  return {
    statements: per(ran.reduce((sum, row) => sum + row.calls, 0)),
    ms: per(ran.reduce((sum, row) => sum + row.ms, 0)),
    top: ran.slice(0, top).map((row) => ({ sql: row.sql, calls: per(row.calls), ms: per(row.ms) })),
  };
}

/**
 * The PostgreSQL adapter's round trips, statements sent (BEGIN and COMMIT included), units, and
 * units that waited for a connection (the pool's all busy), per round.
 */
export function roundTripsPerRound(
  before: StatementCounts,
  after: StatementCounts,
  rounds: number,
): { roundTrips: number; sent: number; units: number; waits: number } {
  const per = (key: string) =>
    Math.round((((after[key]?.calls ?? 0) - (before[key]?.calls ?? 0)) / rounds) * 100) / 100;
  return { roundTrips: per(ROUND_TRIPS), sent: per(SENT), units: per(UNITS), waits: per(WAITS) };
}

/**
 * A statement of webhook delivery (the dispatcher's side, not the queueing in a round's unit):
 * the queue's reads, the leases, the log, the events' states and the counters.
 */
export function isDeliveryStatement(sql: string): boolean {
  if (/^\s*INSERT INTO webhook_events/i.test(sql)) return false;
  // The client's live webhooks, read when a round queues its events (it joins the counter slots).
  if (/client_id = (\$1|\?) AND (w\.)?deleted_at IS NULL/i.test(sql)) return false;
  return /webhook_deliveries|webhook_count_slots|webhook_leases|UPDATE webhook_events|FROM webhook_events|success_count = success_count/i.test(
    sql,
  );
}

/** Delivery statements between two snapshots, per event delivered meanwhile (issue 23: ≤ 1.5). */
export function deliveryStatementsPerEvent(
  before: StatementCounts,
  after: StatementCounts,
  delivered: number,
): { perEvent: number; top: { sql: string; perEvent: number }[] } | null {
  if (delivered <= 0) return null;
  const per = (calls: number) => Math.round((calls / delivered) * 1000) / 1000;
  const rows = Object.entries(after)
    .filter(([sql]) => isDeliveryStatement(sql))
    .map(([sql, count]) => ({ sql: sql.slice(0, 90), calls: count.calls - (before[sql]?.calls ?? 0) }))
    .filter((row) => row.calls > 0)
    .sort((a, b) => b.calls - a.calls);
  return {
    perEvent: per(rows.reduce((sum, row) => sum + row.calls, 0)),
    top: rows.slice(0, 8).map((row) => ({ sql: row.sql, perEvent: per(row.calls) })),
  };
}
