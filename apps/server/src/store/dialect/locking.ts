import type { Exec } from './exec.ts';
import { type Dialect, type Statement, statement } from './statement.ts';

/**
 * A read that locks its rows on PostgreSQL inside a unit (`lock`: `FOR UPDATE`, `FOR SHARE`,
 * `FOR UPDATE OF r`), as a `rowLocks` unit relies on (store.ts UnitOptions), and reads plainly
 * elsewhere: outside a unit (a lone read locks nothing) and on SQLite, whose batch holds the
 * database's write lock. Two statements, each rendered and prepared once; `x` chooses.
 */
export function lockingRead<P extends object, R>(
  source: string | ((dialect: Dialect) => string),
  lock: string,
): (x: Exec) => Statement<P, R> {
  const plain = statement<P, R>(source);
  const locked = statement<P, R>((d) => `${typeof source === 'string' ? source : source(d)} ${lock}`);
  return (x) => (x.inUnit ? locked : plain);
}
