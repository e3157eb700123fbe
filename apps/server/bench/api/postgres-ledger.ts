import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createPool } from '../../src/store/postgres/database.ts';
import { createLedgerCounts } from '../../src/store/postgres/ledger-counts.ts';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.ts';
import { createUnits } from '../../src/store/postgres/units.ts';
import { type BenchDatabase, startBenchDatabase } from '../play/bench-database.ts';
import type { SeededLedger } from '../seed-ledger.ts';

/**
 * The seeded ledger (seed-ledger.ts, SQLite, cached) loaded into an empty PostgreSQL database for
 * `bench:api --database postgres`: the same rows, so the figures of both adapters compare. The
 * schema is the adapter's own migrations. Rows go in 5,000 at a time as one `INSERT … SELECT FROM
 * unnest(…)` per batch (one array parameter per column), into the ledger's tables without their
 * secondary indexes, which are built after the load and then `VACUUM ANALYZE`d (index-only scans
 * need the visibility map), as on a database that has been running. The load skips fsyncs
 * (`synchronous_commit=off`): the database is thrown away after the run.
 */

const BATCH_ROWS = 5000;
/**
 * Tables not copied: SQLite's own bookkeeping, and what each adapter derives from the rows itself
 * (its list counts and their watermark; PostgreSQL's round_types is filled after the load, below).
 */
const NOT_COPIED = new Set([
  'round_types',
  'schema_migrations',
  'sqlite_sequence',
  'ledger_day_counts',
  'ledger_count_folds',
]);
/** Columns sent dictionary-coded (see loadTable). */
const DICTIONARY_CODED = new Set(['rounds.card_json']);
/** The big tables, loaded without their secondary indexes. */
const BULK = ['rounds', 'transactions', 'wallet_call_attempts', 'round_types'];

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** PostgreSQL's tables in an order where every referenced table comes first. */
async function tablesInKeyOrder(client: pg.Client): Promise<string[]> {
  const { rows: tables } = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  const { rows: edges } = await client.query<{ child: string; parent: string }>(
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
     FROM pg_constraint c WHERE c.contype = 'f'`,
  );
  const ordered: string[] = [];
  const pending = new Set(tables.map((row) => row.name));
  while (pending.size > 0) {
    const ready = [...pending].filter((table) =>
      edges.every((edge) => edge.child !== table || edge.parent === table || !pending.has(edge.parent)),
    );
    if (ready.length === 0) throw new Error(`foreign keys in a cycle among ${[...pending].join(', ')}`);
    for (const table of ready.sort()) {
      ordered.push(table);
      pending.delete(table);
    }
  }
  return ordered;
}

async function loadTable(source: Database.Database, client: pg.Client, table: string): Promise<number> {
  const sourceColumns = new Set(
    (source.pragma(`table_info(${quote(table)})`) as { name: string }[]).map((column) => column.name),
  );
  if (sourceColumns.size === 0) return 0;
  const { rows: target } = await client.query<{ name: string; type: string; identity: string }>(
    `SELECT column_name AS name, udt_name AS type, is_identity AS identity FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  const columns = target.filter((column) => sourceColumns.has(column.name));
  const list = columns.map((column) => quote(column.name)).join(', ');
  const overriding = columns.some((column) => column.identity === 'YES') ? ' OVERRIDING SYSTEM VALUE' : '';
  // A column of few distinct long values (the rounds' cards) goes as a batch's distinct values
  // plus an index per row: escaping every card into an array literal would cost minutes.
  const coded = columns.findIndex((column) => DICTIONARY_CODED.has(`${table}.${column.name}`));
  const dictionary = `$${columns.length + 1}::text[]`;
  const insert = `INSERT INTO ${quote(table)} (${list})${overriding} SELECT ${columns
    .map((_, i) => (i === coded ? `(${dictionary})[u.c${i}]` : `u.c${i}`))
    .join(', ')} FROM unnest(${columns
    .map((column, i) => `$${i + 1}::${i === coded ? 'int4' : column.type}[]`)
    .join(', ')}) AS u(${columns.map((_, i) => `c${i}`).join(', ')})`;
  const read = source.prepare(`SELECT ${list} FROM ${quote(table)}`).raw(true);
  let batch: unknown[][] = columns.map(() => []);
  let distinct = new Map<unknown, number>();
  let loaded = 0;
  let inBatch = 0;
  const flush = async () => {
    if (inBatch === 0) return;
    await client.query(insert, coded < 0 ? batch : [...batch, [...distinct.keys()]]);
    loaded += inBatch;
    inBatch = 0;
    batch = columns.map(() => []);
    distinct = new Map();
  };
  const code = (value: unknown) => {
    if (value === null) return null;
    const known = distinct.get(value);
    if (known !== undefined) return known;
    const index = distinct.size + 1;
    distinct.set(value, index);
    return index;
  };
  for (const row of read.iterate() as Iterable<unknown[]>) {
    row.forEach((value, i) => {
      const column = columns[i];
      batch[i]?.push(
        i === coded ? code(value) : column?.type === 'bool' && value !== null ? value === 1 : value,
      );
    });
    if (++inBatch === BATCH_ROWS) await flush();
  }
  await flush();
  return loaded;
}

/**
 * What a list's exact total cost before the folded counts: a `count(*)` over the rows (index-only
 * scans on a vacuumed table), the median of 3, for the whole client and its biggest profile.
 */
async function timeRowCounts(client: pg.Client, seeded: SeededLedger, log: (line: string) => void) {
  const [big] = [...seeded.profiles].sort((a, b) => b.rounds - a.rounds);
  for (const table of ['rounds', 'transactions']) {
    for (const profileId of [null, big?.id ?? null]) {
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const result = await client.query<{ n: string }>(
          `SELECT count(*) AS n FROM ${table} WHERE client_id = $1${profileId ? ' AND profile_id = $2' : ''}`,
          profileId ? [seeded.clientId, profileId] : [seeded.clientId],
        );
        times.push(performance.now() - started);
        rows = Number(result.rows[0]?.n);
      }
      const median = times.sort((a, b) => a - b)[1] ?? 0;
      log(
        `  count(*) of ${table}${profileId ? ' of the biggest profile' : ''}: ${rows} rows in ${median.toFixed(1)} ms`,
      );
    }
  }
}

/** Loads `seeded` into the empty database at `url`; `log` gets a line per table. */
export async function loadLedgerIntoPostgres(
  seeded: SeededLedger,
  url: string,
  log: (line: string) => void,
): Promise<void> {
  const store = openPostgresStore(url, { maxConnections: 1 });
  await store.ready;
  await store.close();
  const source = new Database(join(seeded.dir, 'raspa.sqlite'), { readonly: true });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SET synchronous_commit = off');
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
       WHERE i.schemaname = current_schema() AND i.tablename = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
      [BULK],
    );
    for (const index of indexes) await client.query(`DROP INDEX ${quote(index.name)}`);
    // round_types in one statement after the load rather than by its trigger, a row at a time.
    await client.query('ALTER TABLE transactions DISABLE TRIGGER transactions_round_types');
    for (const table of await tablesInKeyOrder(client)) {
      if (NOT_COPIED.has(table)) continue;
      const started = performance.now();
      const rows = await loadTable(source, client, table);
      if (rows > 0) log(`  ${table}: ${rows} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    const started = performance.now();
    await client.query(
      `INSERT INTO round_types (round_id, type, client_id, profile_id, created_at)
       SELECT DISTINCT t.round_id, t.type, r.client_id, r.profile_id, r.created_at
       FROM transactions t JOIN rounds r ON r.id = t.round_id`,
    );
    await client.query('ALTER TABLE transactions ENABLE TRIGGER transactions_round_types');
    await client.query('SET maintenance_work_mem = "512MB"');
    for (const index of indexes) await client.query(index.definition);
    await client.query('VACUUM ANALYZE');
    log(
      `  round_types filled, indexes built and vacuumed in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    await timeRowCounts(client, seeded, log);
    // The per-day counts a running service would have folded by now (ledger-counts.ts).
    const folding = performance.now();
    const pool = createPool(url, { max: 1 });
    try {
      const counts = createLedgerCounts(createUnits(pool, async () => {}).outside);
      await counts.fold('round', { wait: true });
      await counts.fold('transaction', { wait: true });
    } finally {
      await pool.end();
    }
    log(`  per-day counts folded in ${((performance.now() - folding) / 1000).toFixed(1)} s`);
  } finally {
    source.close();
    await client.end();
  }
}

const PG_MIGRATIONS = fileURLToPath(new URL('../../src/store/postgres/migrations/', import.meta.url));

/**
 * Where the loaded cluster of `seeded` is kept: beside the SQLite ledger, a new folder whenever the
 * ledger, PostgreSQL's migrations, the fold or this loader change.
 */
function keptClusterDir(seeded: SeededLedger): string {
  const hash = createHash('sha256').update(seeded.dir);
  for (const file of [
    fileURLToPath(import.meta.url),
    fileURLToPath(new URL('../../src/store/postgres/ledger-counts.ts', import.meta.url)),
  ])
    hash.update(readFileSync(file));
  for (const name of readdirSync(PG_MIGRATIONS).sort())
    hash.update(name).update(readFileSync(join(PG_MIGRATIONS, name)));
  return `${seeded.dir}-postgres-${hash.digest('hex').slice(0, 12)}`;
}

/**
 * A cluster holding `seeded`: a copy of the one kept by an earlier run (seconds), or a new one
 * loaded here (about ten minutes for a million rounds) and kept, stopped for the copy, before
 * anything else writes to it. `rebuild` loads anew.
 */
export async function startLedgerDatabase(
  seeded: SeededLedger,
  log: (line: string) => void,
  options: { rebuild?: boolean } = {},
): Promise<BenchDatabase> {
  const kept = keptClusterDir(seeded);
  if (!options.rebuild && existsSync(join(kept, 'PG_VERSION'))) {
    log(`reusing the PostgreSQL ledger kept in ${kept}`);
    return startBenchDatabase({ dataFrom: kept });
  }
  // Older loads are never reused: make room (a million rounds take ~3 GB here too).
  for (const name of readdirSync(dirname(kept)))
    if (name.startsWith(`${basename(seeded.dir)}-postgres-`))
      rmSync(join(dirname(kept), name), { recursive: true, force: true });
  const database = await startBenchDatabase();
  try {
    log('loading the ledger into PostgreSQL');
    await loadLedgerIntoPostgres(seeded, database.url, log);
    const building = `${kept}.building-${process.pid}`;
    try {
      await database.saveData(building);
      renameSync(building, kept); // whole or nothing
      log(`kept the loaded cluster in ${kept}`);
    } finally {
      rmSync(building, { recursive: true, force: true });
    }
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}
