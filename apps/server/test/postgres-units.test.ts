/**
 * What the PostgreSQL adapter does beyond the shared contract: a unit PostgreSQL aborts as a
 * serialization failure is run again, and the callbacks of the attempt that rolled back never
 * run (store/postgres/units.ts); instances opening one database together migrate it once.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { shippedMigrations } from '../src/store/postgres/database.ts';
import { openPostgresStore, type PostgresStore } from '../src/store/postgres/postgres-store.ts';
import { createTestDatabase, type TestDatabase } from './postgres-database.ts';
import { seedSeat } from './store-contract/fixtures.ts';

let database: TestDatabase;
let store: PostgresStore;
beforeAll(async () => {
  database = await createTestDatabase();
  store = openPostgresStore(database.url);
  await store.ready;
});
afterAll(async () => {
  await store.close();
  await database.drop();
});

it('runs a unit that lost a serialization conflict again, its rolled-back callbacks never', async () => {
  const seat = await seedSeat(store);
  await store.demoWallet.insertAccount(seat.player.id, 'BRL', 0);
  let bothRead = () => {};
  const read = new Promise<void>((resolve) => (bothRead = resolve));
  let reads = 0;
  const runs = { A: 0, B: 0 };
  const calls: string[] = [];
  // Both units read the balance before either writes it: under SERIALIZABLE the second to
  // commit is aborted (40001) and must be run again to see the first one's write.
  const unit = (name: 'A' | 'B') =>
    store.transaction(async (tx) => {
      runs[name] += 1;
      const balance = (await tx.demoWallet.findBalance(seat.player.id, 'BRL')) ?? 0;
      tx.afterCommit(() => calls.push(`${name}:${runs[name]}`));
      if (++reads === 2) bothRead();
      await read;
      await tx.demoWallet.setBalance(seat.player.id, 'BRL', balance + 1);
    });
  await Promise.all([unit('A'), unit('B')]);
  expect(await store.demoWallet.findBalance(seat.player.id, 'BRL')).toBe(2);
  expect(runs.A + runs.B).toBe(3); // one of them ran twice
  // One callback per unit, from the attempt that committed.
  expect(calls.sort()).toEqual([`A:${runs.A}`, `B:${runs.B}`]);
});

it('migrates an empty database once when several instances open it together', async () => {
  const empty = await createTestDatabase({ unmigrated: true });
  const instances = Array.from({ length: 4 }, () => openPostgresStore(empty.url, { maxConnections: 2 }));
  try {
    await Promise.all(instances.map((instance) => instance.ready));
    for (const instance of instances) expect(await instance.ops.health()).toEqual({ ok: true });
    const client = new pg.Client({ connectionString: empty.url });
    await client.connect();
    try {
      const applied = await client.query<{ name: string }>(
        'SELECT name FROM schema_migrations ORDER BY name',
      );
      expect(applied.rows.map((row) => row.name)).toEqual(shippedMigrations());
    } finally {
      await client.end();
    }
  } finally {
    await Promise.all(instances.map((instance) => instance.close()));
    await empty.drop();
  }
});
