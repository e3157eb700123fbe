import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { createPool } from '../src/store/postgres/database.ts';
import { createPostgresStore } from '../src/store/postgres/postgres-store.ts';
import type { RoundTrips } from '../src/store/postgres/round-trips.ts';
import { openDatabase } from '../src/store/sqlite/database.ts';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { aroundStatements } from '../src/store/sqlite/statement-stats.ts';
import type { Store } from '../src/store/store.ts';

/**
 * What a store ran, statement by statement, with the unit each ran in: the budget test's eyes
 * (test/round-budget.test.ts, docs/store.md "A round's writes"). Counts, never times.
 */
export interface RanStatement {
  /** The SQL text, whitespace folded. */
  sql: string;
  /** The top-level unit (`store.transaction`) it ran in; undefined: a lone call on the store. */
  unit: number | undefined;
}

/**
 * Transaction control and connection settings: not data statements (the budget leaves out
 * BEGIN, COMMIT and savepoints; the group commit's `PRAGMA busy_timeout` is per batch).
 */
const CONTROL = /^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA|SET )/i;
const WRITE = /^(INSERT|UPDATE|DELETE|WITH\b[\s\S]*\b(INSERT|UPDATE|DELETE)\b)/i;

export const isDataStatement = (sql: string) => !CONTROL.test(sql);
export const isWrite = (sql: string) => WRITE.test(sql);

export interface StatementLog {
  ran: RanStatement[];
  /** The units started, by number; `units.length` is how many. */
  units: number[];
  /**
   * PostgreSQL: round trips to the server so far (units.ts counts them; a statement sent while its
   * connection still waits on an earlier one rides in that round trip). Always 0 on SQLite.
   */
  roundTrips: number;
}

const fold = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/** Wraps the store's transaction() so every statement knows its unit (nested units are their outer one's). */
function countingUnits(store: Store, log: StatementLog, scope: AsyncLocalStorage<number>): Store {
  const transaction: Store['transaction'] = (work, options) => {
    if (scope.getStore() !== undefined) return store.transaction(work, options);
    return store.transaction((tx) => {
      // A PostgreSQL unit run again (an abort, a unique rerun) counts again: it is paid again.
      const unit = log.units.length + 1;
      log.units.push(unit);
      return scope.run(unit, () => work(tx));
    }, options);
  };
  return Object.assign(Object.create(null), store, { transaction }) as Store;
}

/** The SQLite store on `file`, every statement it runs logged (prepared statements and exec). */
export function countingSqliteStore(file: string): { store: Store; log: StatementLog } {
  const log: StatementLog = { ran: [], units: [], roundTrips: 0 };
  const scope = new AsyncLocalStorage<number>();
  const db = openDatabase(file);
  aroundStatements(db, (sql, call) => {
    log.ran.push({ sql: fold(sql), unit: scope.getStore() });
    return call();
  });
  return { store: countingUnits(createSqliteStore(db), log, scope), log };
}

/** The PostgreSQL store on `url`, every statement its connections run logged. */
export async function countingPostgresStore(url: string): Promise<{ store: Store; log: StatementLog }> {
  const log: StatementLog = { ran: [], units: [], roundTrips: 0 };
  const scope = new AsyncLocalStorage<number>();
  // Pipelined, as the service opens it (openPostgresStore): the round trips are what it pays.
  const pool = createPool(url, { pipeline: true });
  pool.on('connect', (client: pg.PoolClient) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: typeof query }).query = (...args: unknown[]) => {
      const first = args[0];
      const text = typeof first === 'string' ? first : (first as { text?: string }).text;
      if (text) log.ran.push({ sql: fold(text), unit: scope.getStore() });
      return query(...args);
    };
  });
  const trips: RoundTrips = {
    sent: (waiting) => {
      if (waiting === 0) log.roundTrips++;
    },
    unit: () => {},
    checkout: () => {},
  };
  const store = createPostgresStore(pool, { trips });
  await store.ready;
  return { store: countingUnits(store, log, scope), log };
}

/** What a stretch of the log cost: write units (units, and lone writes) and data statements. */
export function costOf(ran: RanStatement[]): { units: number; statements: number } {
  const data = ran.filter((statement) => isDataStatement(statement.sql));
  const units = new Set(data.filter((s) => s.unit !== undefined).map((s) => s.unit));
  const loneWrites = data.filter((s) => s.unit === undefined && isWrite(s.sql)).length;
  return { units: units.size + loneWrites, statements: data.length };
}
