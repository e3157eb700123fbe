// sqlite-only: the storage contract on the SQLite adapter; store-contract.postgres.test.ts runs it on PostgreSQL
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { describeStoreContract } from './store-contract/contract.ts';

describeStoreContract('SQLite in memory', async () => {
  const store = openSqliteStore(':memory:');
  return { store, close: () => store.close() };
});

describeStoreContract('SQLite on a file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'raspa-store-contract-'));
  const store = openSqliteStore(join(dir, 'raspa.sqlite'));
  return {
    store,
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
