import { createHash } from 'node:crypto';
import type pg from 'pg';

/** What a repository runs its statements on: the pool (each call its own unit) or a unit's connection. */
export interface Sql {
  query<Row extends object = Record<string, unknown>>(
    text: string,
    values?: readonly unknown[],
  ): Promise<{ rows: Row[]; rowCount: number }>;
  /**
   * Runs several statements as one: inside a unit on the unit's connection (the unit is already
   * all or nothing), outside one in a transaction of their own.
   */
  atomic<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * On a unit's connection: a read the unit decides on locks its row until the unit ends (a
   * `rowLocks` unit relies on it, store.ts UnitOptions). A lone read outside a unit locks nothing.
   */
  readonly inUnit: boolean;
}

/** The first row, if any. */
export async function first<Row extends object>(
  sql: Sql,
  text: string,
  values?: readonly unknown[],
): Promise<Row | undefined> {
  return (await sql.query<Row>(text, values)).rows[0];
}

const names = new Map<string, string>();
/**
 * Starts a statement that is planned for its values at each run (sent unnamed) instead of once per
 * connection: for one whose best plan depends on a value the planner can only estimate when it
 * sees it (PostgreSQL's plan cache moves a prepared statement to a generic plan after five runs).
 */
export const PLANNED_EACH_RUN = '/* planned each run */ ';

/**
 * A named statement, so each connection parses and plans a text once (node-postgres prepares a
 * statement only when it is named). The name is a digest of the text: one text, one name.
 */
export function prepared(text: string, values: readonly unknown[] | undefined): pg.QueryConfig {
  if (text.startsWith(PLANNED_EACH_RUN)) return { text, values: (values ?? []) as unknown[] };
  let name = names.get(text);
  if (!name) {
    name = `r${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return { name, text, values: (values ?? []) as unknown[] };
}
