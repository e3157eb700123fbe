// postgres-only: the PostgreSQL adapter's own units, already run on the cluster in the server project
/**
 * What the PostgreSQL adapter does beyond the shared contract: a unit PostgreSQL aborts as a
 * serialization failure is run again, and the callbacks of the attempt that rolled back never
 * run (store/postgres/units.ts); `rowLocks` units wait on the round they read instead of
 * aborting, and one that lost a unique key to another is run again once; instances opening one
 * database together migrate it once; pipelined units send BEGIN, savepoints and statements sent
 * together without waiting, and a COMMIT with the statement the work calls its last, and still fail
 * and undo as a whole; the lists' totals stay exact across folds of their per-day counts
 * (ledger-counts.ts), whatever the rows' times and the order of their commits.
 */
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, shippedMigrations } from '../src/store/postgres/database.ts';
import { createLedgerCounts } from '../src/store/postgres/ledger-counts.ts';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import type { RoundTrips } from '../src/store/postgres/round-trips.ts';
import { createUnits, type Units } from '../src/store/postgres/units.ts';
import type { LedgerFilter, RoundRecord, TransactionRecord } from '../src/store/records.ts';
import { type Repositories, ROW_LOCKS } from '../src/store/store.ts';
import { createTestDatabase, usePostgresStore } from './postgres-database.ts';
import {
  ledgerFilter,
  roundRecord,
  seedRound,
  seedSeat,
  seedTransaction,
} from './store-contract/fixtures.ts';

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

describe('pipelined units (pg pipeline mode, units.ts)', () => {
  let pool: pg.Pool;
  const counted = { trips: 0, sent: 0, units: 0 };
  const trips: RoundTrips = {
    sent: (waiting) => {
      counted.sent++;
      if (waiting === 0) counted.trips++;
    },
    unit: () => void counted.units++,
    checkout: () => {},
  };
  let units: Units;
  beforeAll(async () => {
    pool = createPool(opened.url, { pipeline: true, max: 2 });
    units = createUnits(pool, async () => {}, { pipelined: true, trips });
    await pool.query('CREATE TABLE pipeline_probe (n INT PRIMARY KEY)');
  });
  afterAll(async () => {
    await pool.end();
  });
  const probe = async () =>
    (await pool.query<{ n: number }>('SELECT n FROM pipeline_probe ORDER BY n')).rows.map((row) => row.n);
  const reset = async () => {
    await pool.query('DELETE FROM pipeline_probe');
    Object.assign(counted, { trips: 0, sent: 0, units: 0 });
  };

  it('sends BEGIN with the first statement, and statements sent together in one round trip', async () => {
    await reset();
    await units.unit(async (sql) => {
      await sql.query('INSERT INTO pipeline_probe (n) VALUES (1)');
      await Promise.all([
        sql.query('INSERT INTO pipeline_probe (n) VALUES (2)'),
        sql.query('INSERT INTO pipeline_probe (n) VALUES (3)'),
      ]);
    });
    // BEGIN + the first insert, the two inserts together, COMMIT.
    expect(counted).toEqual({ trips: 3, sent: 5, units: 1 });
    expect(await probe()).toEqual([1, 2, 3]);
  });

  it('fails the whole unit when one of the statements sent together fails, and undoes it', async () => {
    await reset();
    const unit = units.unit(async (sql) => {
      await sql.query('INSERT INTO pipeline_probe (n) VALUES (1)');
      await Promise.all([
        sql.query('INSERT INTO pipeline_probe (n) VALUES (1)'),
        sql.query('INSERT INTO pipeline_probe (n) VALUES (2)'),
      ]);
    });
    await expect(unit).rejects.toMatchObject({ code: '23505' });
    expect(await probe()).toEqual([]);
  });

  it('undoes a failed nested unit alone, its savepoint sent ahead', async () => {
    await reset();
    await units.unit(async (sql) => {
      await sql.query('INSERT INTO pipeline_probe (n) VALUES (1)');
      await expect(
        units.unit(async (inner) => {
          await inner.query('INSERT INTO pipeline_probe (n) VALUES (2)');
          await inner.query('INSERT INTO pipeline_probe (n) VALUES (1)');
        }),
      ).rejects.toMatchObject({ code: '23505' });
      await units.unit(
        async (inner) => void (await inner.query('INSERT INTO pipeline_probe (n) VALUES (3)')),
      );
    });
    expect(await probe()).toEqual([1, 3]);
  });

  it('refuses to report a unit committed when PostgreSQL answered its COMMIT with ROLLBACK', async () => {
    await reset();
    // A work that swallows a refused statement leaves the transaction aborted: PostgreSQL then
    // answers COMMIT with ROLLBACK, not with an error. Before, the unit resolved as if committed.
    const unit = units.unit(async (sql) => {
      await sql.query('INSERT INTO pipeline_probe (n) VALUES (1)');
      await sql.query('SELECT 1 / 0').catch(() => {});
    });
    await expect(unit).rejects.toThrow(/did not commit \(ROLLBACK\)/);
    expect(await probe()).toEqual([]);
  });

  it('sends the COMMIT with the statement the work calls its last, in the same round trip', async () => {
    await reset();
    const committed: string[] = [];
    await units.unit(async (sql, control) => {
      await sql.query('INSERT INTO pipeline_probe (n) VALUES (1)');
      control.afterCommit(() => committed.push('after'));
      control.lastStatement();
      await sql.query('INSERT INTO pipeline_probe (n) VALUES (2)');
    });
    // BEGIN + the first insert, the last insert + COMMIT.
    expect(counted).toEqual({ trips: 2, sent: 4, units: 1 });
    expect(await probe()).toEqual([1, 2]);
    expect(committed).toEqual(['after']);
  });

  it('undoes a unit whose last statement fails, its COMMIT already sent', async () => {
    await reset();
    const unit = units.unit(async (sql, control) => {
      await sql.query('INSERT INTO pipeline_probe (n) VALUES (1)');
      control.lastStatement();
      await sql.query('INSERT INTO pipeline_probe (n) VALUES (1)');
    });
    await expect(unit).rejects.toMatchObject({ code: '23505' });
    expect(await probe()).toEqual([]);
    // The connection is clean for the next unit.
    await units.unit(async (sql) => void (await sql.query('INSERT INTO pipeline_probe (n) VALUES (3)')));
    expect(await probe()).toEqual([3]);
  });

  it('refuses a statement after the last one, and a nested unit’s last is not the transaction’s', async () => {
    await reset();
    await units.unit(async (sql, control) => {
      await units.unit(async (inner, nested) => {
        nested.lastStatement(); // a savepoint: ignored
        await inner.query('INSERT INTO pipeline_probe (n) VALUES (1)');
      });
      control.lastStatement();
      await sql.query('INSERT INTO pipeline_probe (n) VALUES (2)');
      await expect(sql.query('INSERT INTO pipeline_probe (n) VALUES (3)')).rejects.toThrow(/after the last/);
    });
    expect(await probe()).toEqual([1, 2]);
  });
});

const BASE = Date.UTC(2025, 0, 1);
const minute = (n: number) => new Date(BASE + n * 60_000).toISOString();
const HOUR = 60;
const DAY = 24 * HOUR;

it('keeps the lists’ totals exact across folds, whatever the rows’ times and the order of commits', async () => {
  // A database of its own: the watermarks are one per table for every client.
  const own = await createTestDatabase();
  const store = openPostgresStore(own.url); // the counts are folded by default
  const pool = createPool(own.url, { max: 2 });
  const one = await seedSeat(store);
  const two = await seedSeat(store, { client: one.client });
  const rounds: RoundRecord[] = [];
  const transactions: TransactionRecord[] = [];
  /** A round and its bet at each minute; a prize every 4th, a rollback every 7th. */
  const write = async (minutes: number[], repos: Repositories = store) => {
    for (const [i, at] of minutes.entries()) {
      const createdAt = minute(at);
      const round = await seedRound(repos, i % 3 === 0 ? two : one, { createdAt });
      rounds.push(round);
      transactions.push(await seedTransaction(repos, round));
      if (i % 4 === 0)
        transactions.push(await seedTransaction(repos, round, { type: 'prize', amountMinor: 1 }));
      if (i % 7 === 0) transactions.push(await seedTransaction(repos, round, { type: 'rollback' }));
    }
  };
  const spread = (from: number, count: number, step: number) =>
    Array.from({ length: count }, (_, i) => from + i * step + (i % 5));
  const filters: Partial<LedgerFilter>[] = [
    {},
    { profileId: two.profile.id },
    { type: 'prize' },
    { type: 'rollback', profileId: two.profile.id },
    { profileId: one.profile.id, type: 'bet' },
    { from: minute(DAY), before: minute(3 * DAY) },
    { from: minute(95), before: minute(2 * DAY + 13) },
    { from: minute(2 * DAY), type: 'prize' },
    { before: minute(DAY - 1), profileId: one.profile.id },
    { from: minute(DAY + 7), before: minute(DAY + 500) },
  ];
  const keeps = (filter: Partial<LedgerFilter>, row: RoundRecord | TransactionRecord) =>
    (filter.profileId == null || row.profileId === filter.profileId) &&
    (filter.from == null || row.createdAt >= filter.from) &&
    (filter.before == null || row.createdAt < filter.before);
  const newestFirst = (a: RoundRecord, b: RoundRecord) =>
    a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1;
  const check = async (when: string) => {
    for (const over of filters) {
      const filter = ledgerFilter(one.client.id, over);
      const label = `${when}: ${JSON.stringify(over)}`;
      const tx = transactions.filter(
        (row) => keeps(over, row) && (over.type == null || row.type === over.type),
      );
      expect(
        (await store.ledger.listTransactions(filter, { pageIndex: 1, pageSize: 1 })).totalCount,
        label,
      ).toBe(tx.length);
      const listed = rounds
        .filter(
          (row) =>
            keeps(over, row) &&
            (over.type == null || transactions.some((t) => t.roundId === row.id && t.type === over.type)),
        )
        .sort(newestFirst);
      const page = await store.ledger.listRounds(filter, { pageIndex: 2, pageSize: 3 });
      expect(page.totalCount, label).toBe(listed.length);
      expect(
        page.items.map((item) => item.id),
        label,
      ).toEqual(listed.slice(3, 6).map((row) => row.id));
    }
  };
  const counts = createLedgerCounts(createUnits(pool, async () => {}).outside);
  const foldAll = async () => {
    await counts.fold('round', { wait: true });
    await counts.fold('transaction', { wait: true });
  };
  const marks = async () =>
    Object.fromEntries(
      (
        await pool.query<{ source: string; mark: string }>(
          'SELECT source, folded_xid::text AS mark FROM ledger_count_folds',
        )
      ).rows.map((row) => [row.source, BigInt(row.mark)]),
    );
  try {
    await write(spread(0, 40, 97)); // about 2.7 days
    await check('nothing folded');
    await foldAll();
    const first = await marks();
    expect(Object.keys(first).sort()).toEqual(['round_types', 'rounds', 'transactions']);
    await check('all folded');
    // Rows written after the fold with older times than what it counted (a fixture's past days;
    // in use, a unit that took long, or another instance's clock), and newer ones.
    await write([3, 17, 1 * DAY + 2, 2 * DAY + 600]);
    await check('late rows past the watermark');
    await foldAll();
    const second = await marks();
    for (const source of Object.keys(first)) expect(second[source]).toBeGreaterThan(first[source] as bigint);
    await check('late rows folded');
    // A unit still open while a fold runs: the fold cannot see its rows and must not step over
    // them; they are counted past the watermark once committed, and folded by a later fold.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let wrote = () => {};
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const open = store.transaction(async (repos) => {
      await write([5, 2 * DAY + 30], repos);
      wrote();
      await held;
    }, ROW_LOCKS);
    await written;
    await foldAll();
    release();
    await open;
    await check('committed after a fold that ran while it was open');
    await foldAll();
    await check('folded again');
    // A round and its transaction inserted by one statement (as a unit that writes the round and
    // its bet, or closes it and adds the prize, at once might): the trigger still sees the round.
    const [model] = rounds;
    const modelBet = transactions.find((row) => row.roundId === model?.id);
    if (!model || !modelBet) throw new Error('no round to copy');
    const copy = { ...model, id: `${model.id}-copy` };
    const prize = { ...modelBet, id: `${modelBet.id}-copy`, roundId: copy.id, type: 'prize' as const };
    await pool.query(
      `WITH r AS (
         INSERT INTO rounds SELECT (jsonb_populate_record(NULL::rounds, to_jsonb(o) || jsonb_build_object(
           'id', $1::text, 'written_xid', pg_current_xact_id()::text, 'pool_id', NULL, 'draw_index', NULL))).*
         FROM rounds o WHERE o.id = $2 RETURNING id)
       INSERT INTO transactions SELECT (jsonb_populate_record(NULL::transactions, to_jsonb(t) || jsonb_build_object(
         'id', $3::text, 'round_id', (SELECT id FROM r), 'type', 'prize', 'written_xid', pg_current_xact_id()::text))).*
       FROM transactions t WHERE t.id = $4`,
      [copy.id, model.id, prize.id, modelBet.id],
    );
    rounds.push(copy);
    transactions.push(prize);
    await check('a round and its prize written by one statement');
    await foldAll();
    await check('that folded');
    // The plain count (LEDGER_COUNT_FOLD=false) agrees.
    const plain = openPostgresStore(own.url, { foldCounts: false });
    try {
      const filter = ledgerFilter(one.client.id, { type: 'prize' });
      const page = { pageIndex: 1, pageSize: 1 };
      expect((await plain.ledger.listRounds(filter, page)).totalCount).toBe(
        (await store.ledger.listRounds(filter, page)).totalCount,
      );
    } finally {
      await plain.close();
    }
    // What the counts are keyed on never changes (a fold counted the row where it was).
    await expect(
      pool.query('UPDATE rounds SET created_at = $1 WHERE id = $2', [minute(9), rounds[0]?.id]),
    ).rejects.toThrow(/never change/);
  } finally {
    await pool.end();
    await store.close();
    await own.drop();
  }
});

it('keeps every total equal to its rows for any writes, folds and filters (property)', async () => {
  const own = await createTestDatabase();
  const store = openPostgresStore(own.url);
  const pool = createPool(own.url, { max: 2 });
  const counts = createLedgerCounts(createUnits(pool, async () => {}).outside);
  const time = fc.integer({ min: 0, max: 4 * DAY }).map(minute);
  const step = fc.oneof(
    fc.record({
      kind: fc.constant('write' as const),
      at: time,
      second: fc.boolean(),
      more: fc.subarray(['prize', 'rollback'] as const),
    }),
    fc.record({
      kind: fc.constant('fold' as const),
      list: fc.constantFrom('round' as const, 'transaction' as const),
    }),
  );
  const filter = fc.record({
    second: fc.boolean(),
    profile: fc.boolean(),
    type: fc.constantFrom(null, null, 'bet' as const, 'prize' as const, 'rollback' as const),
    from: fc.option(time),
    before: fc.option(time),
  });
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 12 }),
        fc.array(filter, { minLength: 1, maxLength: 4 }),
        async (steps, filters) => {
          // A client of its own per run; the watermarks are shared, as with several clients in use.
          const one = await seedSeat(store);
          const two = await seedSeat(store, { client: one.client });
          const rounds: RoundRecord[] = [];
          const transactions: TransactionRecord[] = [];
          for (const item of steps) {
            if (item.kind === 'fold') {
              await counts.fold(item.list, { wait: true });
              continue;
            }
            const round = await seedRound(store, item.second ? two : one, { createdAt: item.at });
            rounds.push(round);
            transactions.push(await seedTransaction(store, round));
            for (const type of item.more) transactions.push(await seedTransaction(store, round, { type }));
          }
          for (const over of filters) {
            const filter = ledgerFilter(one.client.id, {
              profileId: over.profile ? (over.second ? two : one).profile.id : null,
              type: over.type,
              from: over.from,
              before: over.before,
            });
            const keeps = (row: RoundRecord | TransactionRecord) =>
              (filter.profileId === null || row.profileId === filter.profileId) &&
              (filter.from === null || row.createdAt >= filter.from) &&
              (filter.before === null || row.createdAt < filter.before);
            const page = { pageIndex: 1, pageSize: 1 };
            expect((await store.ledger.listTransactions(filter, page)).totalCount).toBe(
              transactions.filter((row) => keeps(row) && (filter.type === null || row.type === filter.type))
                .length,
            );
            expect((await store.ledger.listRounds(filter, page)).totalCount).toBe(
              rounds.filter(
                (row) =>
                  keeps(row) &&
                  (filter.type === null ||
                    transactions.some((t) => t.roundId === row.id && t.type === filter.type)),
              ).length,
            );
          }
        },
      ),
      { numRuns: 15 },
    );
  } finally {
    await pool.end();
    await store.close();
    await own.drop();
  }
});
