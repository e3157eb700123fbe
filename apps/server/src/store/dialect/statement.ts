/** The two SQL dialects the store speaks. */
export type Dialect = 'sqlite' | 'postgres';

/** A statement's text as one dialect runs it, and the parameter names in the order it binds them. */
export interface Rendered {
  text: string;
  /** The name bound at each position: of each `?` on SQLite, of each `$n` on PostgreSQL. */
  names: readonly string[];
}

/**
 * One statement for both databases (issue 24): SQL text with `:name` parameters and quoted
 * camelCase aliases (`AS "clientId"`: both fold unquoted names, the records are camelCase), or a
 * function of the dialect for the little that truly differs (locking clauses, booleans, a
 * function one of them lacks). `P` is the parameters object, `R` the row. Rendered once per
 * dialect, on first use, so a call costs what a hand-written statement does.
 */
export interface Statement<P extends object, R> {
  render(dialect: Dialect): Rendered;
  /** Types only: the parameters and row this statement takes and gives. */
  readonly types?: { params: P; row: R };
}

/** `:name`, but not a PostgreSQL cast (`::text`) nor the second colon of one. */
const PARAMETER = /(?<!:):([A-Za-z_]\w*)/g;

/**
 * The text of `source` for `dialect`: `$n` per name on PostgreSQL (one n per name), `?` per
 * occurrence on SQLite (better-sqlite3 takes `?NNN` for a named one). Both bind by position:
 * better-sqlite3 binds named parameters by looking each name up, slower on a short statement.
 */
export function render(source: string, dialect: Dialect): Rendered {
  const names: string[] = [];
  const text = source.replace(PARAMETER, (_match, name: string) => {
    if (dialect === 'sqlite') {
      names.push(name);
      return '?';
    }
    let at = names.indexOf(name);
    if (at < 0) at = names.push(name) - 1;
    return `$${at + 1}`;
  });
  return { text, names };
}

/** The values of `params` in the order `names` binds them; a missing one throws (PostgreSQL would bind NULL silently). */
export function valuesOf(names: readonly string[], params: object): unknown[] {
  const values = new Array<unknown>(names.length);
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const value = (params as Record<string, unknown>)[name];
    if (value === undefined) throw new Error(`missing parameter :${name}`);
    values[i] = value;
  }
  return values;
}

/** A statement with `:name` parameters (see Statement). */
export function statement<P extends object = Record<string, never>, R = Record<string, unknown>>(
  source: string | ((dialect: Dialect) => string),
): Statement<P, R> {
  const rendered: Partial<Record<Dialect, Rendered>> = {};
  return {
    render(dialect) {
      let done = rendered[dialect];
      if (!done) {
        done = render(typeof source === 'string' ? source : source(dialect), dialect);
        rendered[dialect] = done;
      }
      return done;
    },
  };
}

const assembled = new Map<string, Statement<object, unknown>>();

/**
 * The statement of a text assembled at run time from fixed SQL pieces (a list's WHERE for the
 * filters given): one Statement per text, kept, so each is rendered and prepared once. The texts
 * are a bounded set of combinations; every value goes in as a parameter, never into the text.
 */
export function assembledStatement<P extends object, R>(source: string): Statement<P, R> {
  let found = assembled.get(source);
  if (!found) {
    found = statement(source);
    assembled.set(source, found);
  }
  return found as Statement<P, R>;
}

/** `column AS "key"` for each entry, the quoted camelCase alias both dialects keep as written. */
export const selectList = (fields: Record<string, string>, alias = ''): string =>
  Object.entries(fields)
    .map(([key, column]) => `${alias}${column} AS "${key}"`)
    .join(', ');
