import type { Dialect, Statement } from './statement.ts';

/** SQLite answers at once (a plain value), PostgreSQL later (a promise): `await` takes either. */
export type Answer<T> = T | Promise<T>;

/**
 * What a repository written once runs its statements on (store/repos/). The SQLite executor
 * (sqlite/exec.ts) answers synchronously, so a repository method's awaits settle in the same
 * turn and a group-commit unit never yields the connection mid-method; the PostgreSQL one
 * (postgres/exec.ts) runs on units.ts' Sql: in the current unit if there is one, else on the pool.
 */
export interface Exec {
  readonly dialect: Dialect;
  /**
   * Whether a read locks the rows it reads (dialect/locking.ts): on PostgreSQL inside a unit (its
   * connection's transaction), never on SQLite, whose unit holds the whole database's write lock.
   */
  readonly inUnit: boolean;
  /** Every row. */
  all<P extends object, R>(statement: Statement<P, R>, params: P): Answer<R[]>;
  /** The first row, if any. */
  first<P extends object, R>(statement: Statement<P, R>, params: P): Answer<R | undefined>;
  /** Runs a write: how many rows it changed. */
  run<P extends object>(statement: Statement<P, unknown>, params: P): Answer<number>;
  /**
   * Runs `work`'s statements as one, all or nothing: outside a unit in a unit of their own, inside
   * one as part of it (SQLite: a savepoint of the batch's transaction; PostgreSQL: the unit's
   * connection, the unit already all or nothing).
   */
  atomic<T>(work: () => Promise<T>): Promise<T>;
}
