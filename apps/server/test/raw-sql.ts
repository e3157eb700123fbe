/**
 * Plain SQL on a test service's own database, beside the service, whichever adapter it runs on: how
 * a test does what the store never does (delete a round, rewrite an audit entry or an anchor), as
 * someone with database access would. Write `?` for parameters; on PostgreSQL they become $1, $2, …
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

/** A service's database as its settings name it: the PostgreSQL URL, else the SQLite file in its DATA_DIR. */
export interface DatabaseOf {
  dataDir: string;
  config: { DATABASE_URL?: string | undefined };
}

export interface RawSql {
  all<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Rows changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
  close(): Promise<void>;
}

export async function rawSql(server: DatabaseOf): Promise<RawSql> {
  const url = server.config.DATABASE_URL;
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const numbered = (sql: string) => {
      let n = 0;
      return sql.replace(/\?/g, () => `$${++n}`);
    };
    return {
      all: async <T>(sql: string, params: unknown[] = []) =>
        (await client.query(numbered(sql), params)).rows as T[],
      run: async (sql, params = []) => (await client.query(numbered(sql), params)).rowCount ?? 0,
      close: () => client.end(),
    };
  }
  const db = new Database(join(server.dataDir, 'raspa.sqlite'), { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return {
    all: async <T>(sql: string, params: unknown[] = []) => db.prepare(sql).all(...params) as T[],
    run: async (sql, params = []) => db.prepare(sql).run(...params).changes,
    close: async () => void db.close(),
  };
}
