/**
 * A digest of every row of every table of a test server's database, whichever adapter it runs
 * on: how a test asserts that a request changed nothing. Tables in `skip` are left out.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { TestServer } from './harness.ts';

export interface DatabaseSnapshots {
  snapshot(): Promise<string>;
  close(): Promise<void>;
}

/** Tables and their rows as text, sorted (some SQLite tables have no rowid to order by). */
function digest(tables: Array<{ name: string; rows: unknown[] }>): string {
  const hash = createHash('sha256');
  for (const { name, rows } of tables.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    hash.update(name);
    for (const row of rows.map((each) => JSON.stringify(each)).sort()) hash.update(row);
  }
  return hash.digest('hex');
}

export async function databaseSnapshots(
  server: TestServer,
  skip: ReadonlySet<string>,
): Promise<DatabaseSnapshots> {
  const url = server.config.DATABASE_URL;
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return {
      async snapshot() {
        const names = await client.query<{ name: string }>(
          "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
        );
        const tables = [];
        for (const { name } of names.rows.filter((row) => !skip.has(row.name))) {
          tables.push({ name, rows: (await client.query(`SELECT * FROM "${name}"`)).rows });
        }
        return digest(tables);
      },
      close: () => client.end(),
    };
  }
  const reader = new Database(join(server.dataDir, 'raspa.sqlite'), { readonly: true, fileMustExist: true });
  return {
    snapshot: async () =>
      digest(
        reader
          .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
          .all()
          .filter((row) => !skip.has(row.name))
          .map(({ name }) => ({ name, rows: reader.prepare(`SELECT * FROM "${name}"`).all() })),
      ),
    close: async () => void reader.close(),
  };
}
