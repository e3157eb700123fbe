import { type StatementCounts, writeStatementCounts } from '../sqlite/statement-stats.ts';

/**
 * A diagnostic (STATEMENT_STATS on PostgreSQL, `pnpm bench:play --database postgres --statements`):
 * how many round trips the adapter made to the server, how many statements it sent, and how many
 * units it ran. A statement sent while the same connection still waits on an earlier one rides in
 * that round trip (pipelining, units.ts); any other statement starts a round trip of its own. On
 * PostgreSQL each round trip wakes a backend and waits for it, so the count says more than the
 * statements about what a round costs. Written as JSON to `${file}.${pid}` at exit and on SIGUSR2,
 * in the shape of SQLite's statement counts, so the bench reads both with one snapshot.
 */
export interface RoundTrips {
  /** A statement is sent on a connection where `waiting` statements sent before it are not answered yet. */
  sent(waiting: number): void;
  unit(): void;
  /** A unit is about to take a connection; `busy`: every one the pool may open is in use. */
  checkout(busy: boolean): void;
}

export const ROUND_TRIPS = 'round trips';
export const SENT = 'statements sent';
export const UNITS = 'units';
export const WAITS = 'waits for a connection';

export function countRoundTrips(file: string): RoundTrips {
  let trips = 0;
  let sent = 0;
  let units = 0;
  let waits = 0;
  const write = () => {
    const out: StatementCounts = {
      [ROUND_TRIPS]: { calls: trips, ms: 0 },
      [SENT]: { calls: sent, ms: 0 },
      [UNITS]: { calls: units, ms: 0 },
      [WAITS]: { calls: waits, ms: 0 },
    };
    writeStatementCounts(file, out);
  };
  process.on('SIGUSR2', write);
  process.on('exit', write);
  return {
    sent(waiting) {
      sent++;
      if (waiting === 0) trips++;
    },
    unit() {
      units++;
    },
    checkout(busy) {
      if (busy) waits++;
    },
  };
}

/** Counts nothing (the default). */
export const uncounted: RoundTrips = { sent() {}, unit() {}, checkout() {} };
