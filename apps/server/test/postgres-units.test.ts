/**
 * What the PostgreSQL adapter does beyond the shared contract: a unit PostgreSQL aborts as a
 * serialization failure is run again, and the callbacks of the attempt that rolled back never
 * run (store/postgres/units.ts); `rowLocks` units wait on the round they read instead of
 * aborting, and one that lost a unique key to another is run again once; instances opening one
 * database together migrate it once.
 */
import pg from 'pg';
import { expect, it } from 'vitest';
import { shippedMigrations } from '../src/store/postgres/database.ts';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { ROW_LOCKS } from '../src/store/store.ts';
import { createTestDatabase, usePostgresStore } from './postgres-database.ts';
import { roundRecord, seedSeat } from './store-contract/fixtures.ts';

/** A gate both units reach before either goes on: they are sure to overlap. */
function meetingPoint() {
  let arrived = 0;
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    if (++arrived === 2) open();
    return opened;
  };
}

const opened = usePostgresStore();

it('runs a unit that lost a serialization conflict again, its rolled-back callbacks never', async () => {
  const { store } = opened;
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

it('runs rowLocks units on one round one after the other, without aborting either', async () => {
  const { store } = opened;
  const seat = await seedSeat(store);
  const round = roundRecord(seat, { status: 'open', prizeMinor: 0 });
  await store.rounds.insertRound(round);
  const started = meetingPoint();
  const runs = { A: 0, B: 0 };
  // Each adds to what it read: a lost update would leave 100 instead of 200.
  const unit = (name: 'A' | 'B') =>
    store.transaction(async (tx) => {
      runs[name] += 1;
      await tx.ledger.findRoundDetail(round.id); // any read first, so both units are under way
      await started();
      const read = await tx.rounds.findRound(round.id);
      await tx.rounds.updateRound(round.id, { prizeMinor: (read?.prizeMinor ?? 0) + 100 });
    }, ROW_LOCKS);
  await Promise.all([unit('A'), unit('B')]);
  expect((await store.rounds.findRound(round.id))?.prizeMinor).toBe(200);
  expect(runs).toEqual({ A: 1, B: 1 });
});

it('runs a rowLocks unit that lost a unique key again, where its own read decides', async () => {
  const { store } = opened;
  const seat = await seedSeat(store);
  const started = meetingPoint();
  const runs = { A: 0, B: 0 };
  // Both look for the player's live round before either inserts one: the second insert breaks
  // the one-live-round constraint, and its rerun finds the first one's round.
  const buy = (name: 'A' | 'B') =>
    store.transaction(async (tx) => {
      runs[name] += 1;
      const live = await tx.rounds.findLiveRound(seat.player.id);
      if (runs[name] === 1) await started();
      if (live) return 'in progress';
      await tx.rounds.insertRound(roundRecord(seat, { status: 'pending' }));
      return 'bought';
    }, ROW_LOCKS);
  const answers = await Promise.all([buy('A'), buy('B')]);
  expect(answers.sort()).toEqual(['bought', 'in progress']);
  expect(runs.A + runs.B).toBe(3);
});

it('gives up on a unique key a rowLocks unit keeps breaking', async () => {
  const { store } = opened;
  const seat = await seedSeat(store);
  const round = roundRecord(seat);
  await store.rounds.insertRound(round);
  let runs = 0;
  const again = store.transaction(async (tx) => {
    runs += 1;
    await tx.rounds.insertRound(round);
  }, ROW_LOCKS);
  await expect(again).rejects.toMatchObject({ code: '23505' });
  expect(runs).toBe(2);
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
