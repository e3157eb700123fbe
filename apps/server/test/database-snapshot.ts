/**
 * A digest of every row of each table of a test server's database, whichever adapter it runs
 * on: how a test asserts that a request changed nothing. Tables in `skip` (or for which it
 * answers true) are left out, and always the instances' heartbeats. `text()` is every row as JSON, for "this value is stored nowhere".
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { TestServer } from './harness.ts';

export interface DatabaseSnapshots {
  snapshot(): Promise<string>;
  text(): Promise<string>;
  close(): Promise<void>;
}

type Tables = Array<{ name: string; rows: unknown[] }>;

/** Tables and their rows as text, sorted (some SQLite tables have no rowid to order by). */
function asText(tables: Tables): string[] {
  const lines: string[] = [];
  for (const { name, rows } of tables.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    lines.push(name, ...rows.map((each) => JSON.stringify(each)).sort());
  }
  return lines;
}

/** A digest per table, one line each: a failed comparison names the tables that changed. */
function digest(tables: Tables): string {
  return tables
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map(({ name, rows }) => {
      const hash = createHash('sha256');
      for (const line of rows.map((each) => JSON.stringify(each)).sort()) hash.update(line);
      return `${name} ${rows.length} rows ${hash.digest('hex').slice(0, 16)}`;
    })
    .join('\n');
}

export async function databaseSnapshots(
  server: TestServer,
  skip: ReadonlySet<string> | ((table: string) => boolean),
): Promise<DatabaseSnapshots> {
  const skippedByTest = typeof skip === 'function' ? skip : (table: string) => skip.has(table);
  // Each instance's heartbeat (every 5 s on PostgreSQL) is the process's, not a request's doing.
  const skipped = (table: string) => table === 'instance_heartbeats' || skippedByTest(table);
  const url = server.config.DATABASE_URL;
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const read = async () => {
      const names = await client.query<{ name: string }>(
        "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
      );
      const tables = [];
      for (const { name } of names.rows.filter((row) => !skipped(row.name))) {
        tables.push({ name, rows: (await client.query(`SELECT * FROM "${name}"`)).rows });
      }
      return tables;
    };
    return {
      snapshot: async () => digest(await read()),
      text: async () => asText(await read()).join('\n'),
      close: () => client.end(),
    };
  }
  const reader = new Database(join(server.dataDir, 'raspa.sqlite'), { readonly: true, fileMustExist: true });
  const read = () =>
    reader
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .filter((row) => !skipped(row.name))
      .map(({ name }) => ({ name, rows: reader.prepare(`SELECT * FROM "${name}"`).all() }));
  return {
    snapshot: async () => digest(read()),
    text: async () => asText(read()).join('\n'),
    close: async () => void reader.close(),
  };
}
