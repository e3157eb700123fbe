import { afterAll, beforeAll } from 'vitest';
import { openDatabase } from '../src/store/sqlite/database.ts';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import type { Store } from '../src/store/store.ts';
import { usePostgresStore } from './postgres-database.ts';

/**
 * A store of the test file's own on the run's database, for tests of what sits on the store
 * without a server: in-memory SQLite, or in the server-postgres project (RASPA_TEST_STORE) a fresh
 * PostgreSQL database. Call at the top level; read `store` inside hooks and tests.
 */
export function useRunStore(): { readonly store: Store } {
  if (process.env.RASPA_TEST_STORE === 'postgres') return usePostgresStore();
  const opened = {} as { store: Store };
  beforeAll(() => {
    opened.store = createSqliteStore(openDatabase(':memory:'));
  });
  afterAll(() => opened.store?.close());
  return opened;
}
