import type { Dialect } from './statement.ts';

/**
 * The name of the case fold SQLite lacks: its lower() and LIKE fold ASCII only, and players'
 * names are often not ASCII (João, ÑANDÚ). Registered on each connection by sqlite/exec.ts.
 */
export const SQLITE_FOLD = 'raspa_fold';

/**
 * `column` folded to lower case beyond ASCII: the JS fold on SQLite, lower() under the ICU root
 * collation on PostgreSQL (whatever the database's locale). Search text is lowered by JS for both.
 */
export const folded = (d: Dialect, column: string): string =>
  d === 'sqlite' ? `${SQLITE_FOLD}(${column})` : `lower(${column} COLLATE "und-x-icu")`;

/**
 * A flag column tested as set: SQLite stores 1 or 0 (`= 1`, as its partial indexes are written),
 * PostgreSQL a BOOLEAN.
 */
export const isSet = (d: Dialect, column: string): string => (d === 'sqlite' ? `${column} = 1` : column);

/** A flag column tested as clear (the negation of `isSet`). */
export const isClear = (d: Dialect, column: string): string =>
  d === 'sqlite' ? `${column} = 0` : `NOT ${column}`;

/** The literal of a flag value (for a SET or a comparison). */
export const flag = (d: Dialect, value: boolean): string =>
  d === 'sqlite' ? (value ? '1' : '0') : value ? 'true' : 'false';

/**
 * A list of ids bound as one parameter, so one statement text serves any number of them (10,000
 * players in one call are one statement, not 10,000): a JSON array on SQLite, a text[] on PostgreSQL.
 */
export const idListParam = <T extends string | number>(d: Dialect, ids: readonly T[]): string | T[] =>
  d === 'sqlite' ? JSON.stringify(ids) : [...ids];

/** The ids of an `idListParam` parameter as rows of one column, `value`: a subquery for `IN (…)` or a source of rows. */
export const idRows = (d: Dialect, param: string): string =>
  d === 'sqlite' ? `SELECT value FROM json_each(:${param})` : `SELECT unnest(:${param}::text[]) AS value`;
