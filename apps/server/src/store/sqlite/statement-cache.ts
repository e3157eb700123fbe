import type { Statement } from 'better-sqlite3';
import type { Db } from './database.ts';

/**
 * Prepares each SQL text once. For lists whose WHERE depends on which filters are given: the
 * texts are a handful of fixed combinations, the values always go in as parameters.
 */
export function statementCache(db: Db) {
  const prepared = new Map<string, Statement<[Record<string, unknown>]>>();
  return <Row>(sql: string): Statement<[Record<string, unknown>], Row> => {
    let found = prepared.get(sql);
    if (!found) {
      found = db.prepare<[Record<string, unknown>]>(sql);
      prepared.set(sql, found);
    }
    return found as Statement<[Record<string, unknown>], Row>;
  };
}
