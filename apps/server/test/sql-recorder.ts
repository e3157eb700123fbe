import type { Db } from '../src/store/sqlite/database.ts';

/** One statement a repository ran, with its parameters. */
export interface RecordedStatement {
  sql: string;
  params: unknown[];
}

/**
 * The database seen through prepare(): every statement a repository runs with all() or get() is
 * pushed to `into`, so a test or bench can EXPLAIN and time exactly what it ran.
 */
export function recordingDb(db: Db, into: RecordedStatement[]): Db {
  return new Proxy(db, {
    get(target, key, receiver) {
      if (key !== 'prepare') return Reflect.get(target, key, receiver);
      return (sql: string) =>
        new Proxy(target.prepare(sql), {
          get(statement, name, statementReceiver) {
            const value = Reflect.get(statement, name, statementReceiver);
            if (name !== 'all' && name !== 'get') return value;
            return (...params: unknown[]) => {
              into.push({ sql, params });
              return (value as (...args: unknown[]) => unknown).apply(statement, params);
            };
          },
        });
    },
  });
}

/** EXPLAIN QUERY PLAN of a recorded statement, one detail line each. */
export function queryPlan(db: Db, statement: RecordedStatement): string[] {
  return db
    .prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
    .all(...statement.params)
    .map((row) => (row as { detail: string }).detail);
}
