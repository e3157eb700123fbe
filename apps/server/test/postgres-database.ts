/**
 * A fresh PostgreSQL database for a test: a copy of the migrated template the global setup made
 * (postgres-global-setup.ts), dropped again by `drop()`.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { openPostgresStore, type PostgresStore } from '../src/store/postgres/postgres-store.ts';
import { withDatabase } from './postgres-global-setup.ts';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

async function onAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** A migrated, empty database; `unmigrated`: one without even the migrations. */
export async function createTestDatabase(options: { unmigrated?: boolean } = {}): Promise<TestDatabase> {
  const name = `raspa_test_${randomBytes(6).toString('hex')}`;
  const template = options.unmigrated ? 'template0' : inject('postgresTemplate');
  await onAdmin((admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return {
    url: withDatabase(inject('postgresUrl'), name),
    drop: () =>
      onAdmin(async (admin) => void (await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}

/**
 * A store on a fresh database for the tests of the file (or describe block) this is called in:
 * opened before them, closed and its database dropped after them. Read `store` inside a test.
 */
export function usePostgresStore(): { readonly store: PostgresStore; readonly url: string } {
  let database: TestDatabase | undefined;
  const opened = {} as { store: PostgresStore; url: string };
  beforeAll(async () => {
    database = await createTestDatabase();
    opened.url = database.url;
    opened.store = openPostgresStore(database.url);
    await opened.store.ready;
  });
  afterAll(async () => {
    await opened.store?.close();
    await database?.drop();
  });
  return opened;
}

/**
 * Empties every table but the migrations' record and the write generation they set, as fresh as a
 * new copy of the template: DELETE
 * with the foreign keys' triggers off, in one transaction (TRUNCATE or CREATE DATABASE cost
 * ~400 ms each here with fsync on, DELETE on a test's few rows a few).
 */
export async function emptyDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      "SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('schema_migrations', 'write_generation')",
    );
    await client.query(
      [
        'BEGIN',
        'SET LOCAL session_replication_role = replica',
        ...rows.map((row) => `DELETE FROM ${row.name}`),
        "SELECT setval(pg_get_serial_sequence('webhook_events', 'seq'), 1, false)",
        'COMMIT',
      ].join(';\n'),
    );
  } finally {
    await client.end();
  }
}
