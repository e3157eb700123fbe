import type { Statement as Prepared } from 'better-sqlite3';
import type { Exec } from '../dialect/exec.ts';
import { SQLITE_FOLD } from '../dialect/fragments.ts';
import { type Statement, valuesOf } from '../dialect/statement.ts';
import type { Db } from './database.ts';

/** better-sqlite3 binds no booleans: a flag goes in as 1 or 0, as SQLite stores it. */
function bindable(values: unknown[]): unknown[] {
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (typeof value === 'boolean') values[i] = value ? 1 : 0;
  }
  return values;
}

/** How `atomic` runs its work: the store's group commit (a unit, or a savepoint of the current one). */
export interface AtomicUnits {
  unit<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * The executor of the repositories written once (dialect/exec.ts) on one better-sqlite3
 * connection: synchronous, each statement prepared once, on first use, through `db.prepare` (so
 * the statement diagnostics see it). `units`: the group commit `atomic` runs in; without it (a
 * bare executor in a test) `atomic` refuses, as nothing could make the work all or nothing.
 */
export function createSqliteExec(db: Db, units?: AtomicUnits): Exec {
  db.function(SQLITE_FOLD, { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
  const preparedOf = new Map<
    Statement<object, unknown>,
    { prepared: Prepared<unknown[]>; names: readonly string[] }
  >();
  const call = <T>(
    statement: Statement<object, unknown>,
    params: object,
    method: 'all' | 'get' | 'run',
  ): T => {
    let found = preparedOf.get(statement);
    if (!found) {
      const { text, names } = statement.render('sqlite');
      found = { prepared: db.prepare<unknown[]>(text), names };
      preparedOf.set(statement, found);
    }
    // One array binds its items in order: no spread of the arguments.
    return found.prepared[method](bindable(valuesOf(found.names, params))) as T;
  };
  return {
    dialect: 'sqlite',
    // A batch's transaction holds the write lock: no row needs locking on its own.
    inUnit: false,
    all: (statement, params) => call(statement, params, 'all'),
    first: (statement, params) => call(statement, params, 'get'),
    run: (statement, params) => call<{ changes: number }>(statement, params, 'run').changes,
    // better-sqlite3's db.transaction takes no async work; a unit of the group commit does, and
    // its statements answer at once, so the unit holds the connection only while the work runs.
    atomic: (work) =>
      units ? units.unit(() => work()) : Promise.reject(new Error('atomic needs the group commit')),
  };
}
