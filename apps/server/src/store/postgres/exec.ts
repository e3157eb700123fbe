import type { Exec } from '../dialect/exec.ts';
import { type Statement, valuesOf } from '../dialect/statement.ts';
import type { Sql } from './sql.ts';

/**
 * The executor of the repositories written once (dialect/exec.ts) on PostgreSQL: each statement
 * through `sql` (units.ts: the current unit's connection, else the pool, named so each connection
 * plans it once).
 */
export function createPostgresExec(sql: Sql): Exec {
  const query = <R extends object>(statement: Statement<object, unknown>, params: object) => {
    const { text, names } = statement.render('postgres');
    return sql.query<R>(text, valuesOf(names, params));
  };
  return {
    dialect: 'postgres',
    get inUnit() {
      return sql.inUnit;
    },
    all: async (statement, params) => (await query(statement, params)).rows as never,
    first: async (statement, params) => (await query(statement, params)).rows[0] as never,
    run: async (statement, params) => (await query(statement, params)).rowCount,
    // The work's statements go through `sql` too, which finds the unit atomic opened by its context.
    atomic: (work) => sql.atomic(() => work()),
  };
}
