// postgres-only: the storage contract on the PostgreSQL adapter, already run on the cluster in the server project
import { afterAll } from 'vitest';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { createTestDatabase, emptyDatabase, type TestDatabase } from './postgres-database.ts';
import { describeStoreContract } from './store-contract/contract.ts';

// One database for the file, emptied before each test: a new database per test costs ~400 ms
// (CREATE DATABASE with fsync on), emptying it a few ms.
let database: Promise<TestDatabase> | undefined;
afterAll(async () => {
  await (await database)?.drop();
});

describeStoreContract('PostgreSQL', async () => {
  database ??= createTestDatabase();
  const { url } = await database;
  await emptyDatabase(url);
  const store = openPostgresStore(url);
  await store.ready;
  return { store, close: () => store.close() };
});
