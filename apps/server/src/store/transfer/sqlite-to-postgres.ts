import type pg from 'pg';
import { migrate } from '../postgres/database.ts';
import type { Db } from '../sqlite/database.ts';
import { createTableDigest, digestDifferences, type TableDigest } from './table-digest.ts';
import { TransferError } from './transfer-error.ts';

/**
 * `pnpm admin migrate-to-postgres` (docs/store.md): copies an embedded database into an empty
 * PostgreSQL one, then checks every table row for row before it commits. The only module that
 * knows both adapters' tables: both schemas keep the same table and column names, so a table is
 * copied column by column. The tables each adapter derives from the rows itself (the lists' counts,
 * their watermark, round_types) are reported, not copied.
 */

export interface TableCopied {
  table: string;
  rows: number;
  /** The sum of each money column (`*_minor`), in minor units, the same on both sides. */
  sums: Record<string, bigint>;
}

export interface TransferReport {
  tables: TableCopied[];
  /** SQLite tables with no PostgreSQL twin, each with why it is not copied. */
  notCopied: { table: string; why: string }[];
}

/**
 * Tables both adapters have, each derived by its own adapter from the rows: never copied. Their
 * watermarks differ (SQLite's is a rowid, PostgreSQL's a transaction id).
 */
const OWN_TABLES: Record<string, string> = {
  ledger_day_counts:
    "SQLite's per-day counts of the lists, folded from its rows; PostgreSQL folds its own from the copied rows",
  ledger_count_folds:
    "where each adapter's fold of the lists' counts stopped (SQLite: a rowid; PostgreSQL: a transaction id)",
  round_types:
    "the rounds by transaction type, kept by each adapter's trigger; PostgreSQL's fills as the transactions are copied",
  write_generation:
    "the oldest code generation that may write, set by each database's own migrations (the same build sets the same)",
};

/** Tables the migrations themselves fill: an empty target has their rows. */
const MIGRATION_FILLED = new Set(['write_generation']);

/** The migrations' own record: each database keeps its own (PostgreSQL's is written by migrate()). */
const MIGRATIONS_TABLE = 'schema_migrations';

interface TargetColumn {
  name: string;
  type: string;
  required: boolean;
  identity: boolean;
}

/** Rows per INSERT: 500 × at most 18 columns stays far below PostgreSQL's 65,535 parameters. */
const BATCH_ROWS = 500;
const READ_BACK_ROWS = 5000;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function targetTables(client: pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return rows.map((row) => row.name);
}

async function tablesWithRows(client: pg.PoolClient, tables: string[]): Promise<string[]> {
  const filled: string[] = [];
  for (const table of tables) {
    const { rows } = await client.query(`SELECT 1 FROM ${quote(table)} LIMIT 1`);
    if (rows.length > 0) filled.push(table);
  }
  return filled;
}

/**
 * Makes the target ready: refused (nothing changed) when it holds anything, or tables that are
 * not Raspa's; otherwise the PostgreSQL adapter's own migrate() brings it to this version's
 * schema. Returns the migrations it applied.
 */
export async function prepareTarget(pool: pg.Pool): Promise<string[]> {
  const client = await pool.connect();
  try {
    const tables = await targetTables(client);
    if (tables.length > 0 && !tables.includes(MIGRATIONS_TABLE)) {
      throw new TransferError(
        `the target database holds tables that are not Raspa's (${tables.slice(0, 5).join(', ')}` +
          `${tables.length > 5 ? ', …' : ''}): give an empty database`,
      );
    }
    const filled = await tablesWithRows(
      client,
      tables.filter((table) => table !== MIGRATIONS_TABLE && !MIGRATION_FILLED.has(table)),
    );
    if (filled.length > 0) throw notEmpty(filled);
  } finally {
    client.release();
  }
  return migrate(pool);
}

const notEmpty = (filled: string[]) =>
  new TransferError(
    `the target database is not empty (${filled.join(', ')} ${filled.length === 1 ? 'has' : 'have'} rows): ` +
      'nothing was copied; give an empty database',
  );

/** Tables in an order where every row's foreign keys point at rows already copied. */
async function tablesInKeyOrder(client: pg.PoolClient, tables: string[]): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT child.relname AS child, parent.relname AS parent
     FROM pg_constraint c
     JOIN pg_class child ON child.oid = c.conrelid
     JOIN pg_class parent ON parent.oid = c.confrelid
     WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace`,
  );
  const parents = new Map(tables.map((table) => [table, new Set<string>()]));
  for (const { child, parent } of rows) if (child !== parent) parents.get(child)?.add(parent);
  const ordered: string[] = [];
  const visit = (table: string, path: string[]) => {
    if (ordered.includes(table)) return;
    if (path.includes(table))
      throw new TransferError(`foreign keys form a cycle: ${[...path, table].join(' → ')}`);
    for (const parent of parents.get(table) ?? []) if (parents.has(parent)) visit(parent, [...path, table]);
    ordered.push(table);
  };
  for (const table of [...tables].sort()) visit(table, []);
  return ordered;
}

async function targetColumns(client: pg.PoolClient, table: string): Promise<TargetColumn[]> {
  const { rows } = await client.query<{
    name: string;
    type: string;
    nullable: string;
    fallback: string | null;
    identity: string;
  }>(
    `SELECT column_name AS name, data_type AS type, is_nullable AS nullable, column_default AS fallback,
       is_identity AS identity
     FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1
     ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((row) => ({
    name: row.name,
    type: row.type,
    required: row.nullable === 'NO' && row.fallback === null && row.identity !== 'YES',
    identity: row.identity === 'YES',
  }));
}

/**
 * A SQLite value (integers read as bigint) as PostgreSQL's column takes it: a flag is 0/1 there,
 * BOOLEAN here; an integer outside JS's safe range is refused (the adapter could not read it back).
 */
function toTarget(value: unknown, column: TargetColumn, table: string): unknown {
  if (value === null || value === undefined) return null;
  if (column.type === 'boolean') {
    if (value === 0n || value === 1n) return value === 1n;
    throw new TransferError(`${table}.${column.name} holds ${String(value)}, not a 0/1 flag`);
  }
  if (typeof value === 'bigint') {
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER))
      throw new TransferError(`${table}.${column.name} holds ${value}, beyond a safe integer`);
    return Number(value);
  }
  return value;
}

/** The last value SQLite's AUTOINCREMENT handed out for `table`, 0 if none. */
function sqliteSequence(source: Db, table: string): bigint {
  const known = source
    .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'`)
    .get();
  if (!known) return 0n;
  const row = source.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').get(table) as
    | { seq: bigint }
    | undefined;
  return row ? BigInt(row.seq) : 0n;
}

async function copyTable(
  source: Db,
  client: pg.PoolClient,
  table: string,
): Promise<{ columns: string[]; source: TableDigest }> {
  const sourceColumns = (source.pragma(`table_info(${quote(table)})`) as { name: string }[]).map(
    (c) => c.name,
  );
  const target = await targetColumns(client, table);
  const targetNames = new Set(target.map((column) => column.name));
  const dropped = sourceColumns.filter((name) => !targetNames.has(name));
  if (dropped.length > 0)
    throw new TransferError(
      `${table}: PostgreSQL has no column ${dropped.join(', ')}; nothing would hold it`,
    );
  const missing = target.filter((column) => column.required && !sourceColumns.includes(column.name));
  if (missing.length > 0)
    throw new TransferError(`${table}: the SQLite file has no ${missing.map((c) => c.name).join(', ')}`);
  const columns = target.filter((column) => sourceColumns.includes(column.name));
  const names = columns.map((column) => column.name);
  const list = names.map(quote).join(', ');
  // webhook_events.seq is GENERATED ALWAYS: the copied values are kept, so the outbox keeps its order.
  const overriding = columns.some((column) => column.identity) ? ' OVERRIDING SYSTEM VALUE' : '';
  const digest = createTableDigest(names);
  let batch: unknown[][] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const values = batch
      .map((_, row) => `(${names.map((_, column) => `$${row * names.length + column + 1}`).join(', ')})`)
      .join(', ');
    await client.query(`INSERT INTO ${quote(table)} (${list})${overriding} VALUES ${values}`, batch.flat());
    batch = [];
  };
  const rows = source.prepare(`SELECT ${list} FROM ${quote(table)}`).iterate() as Iterable<
    Record<string, unknown>
  >;
  for (const row of rows) {
    digest.add(row);
    batch.push(columns.map((column) => toTarget(row[column.name], column, table)));
    if (batch.length === BATCH_ROWS) await flush();
  }
  await flush();
  for (const column of columns.filter((c) => c.identity)) {
    // The identity carries on after the last value SQLite handed out, as its AUTOINCREMENT would.
    const { rows: maxima } = await client.query<{ last: number | null }>(
      `SELECT max(${quote(column.name)}) AS last FROM ${quote(table)}`,
    );
    const last = [BigInt(maxima[0]?.last ?? 0), sqliteSequence(source, table)].reduce((a, b) =>
      a > b ? a : b,
    );
    await client.query('SELECT setval(pg_get_serial_sequence($1, $2), $3, false)', [
      table,
      column.name,
      String(last + 1n),
    ]);
  }
  return { columns: names, source: digest.result() };
}

/** Reads a table back from PostgreSQL through a cursor, a page at a time, digesting it. */
async function targetDigest(client: pg.PoolClient, table: string, columns: string[]): Promise<TableDigest> {
  const digest = createTableDigest(columns);
  await client.query(
    `DECLARE copy_check NO SCROLL CURSOR FOR SELECT ${columns.map(quote).join(', ')} FROM ${quote(table)}`,
  );
  for (;;) {
    const { rows } = await client.query<Record<string, unknown>>(`FETCH ${READ_BACK_ROWS} FROM copy_check`);
    for (const row of rows) digest.add(row);
    if (rows.length < READ_BACK_ROWS) break;
  }
  await client.query('CLOSE copy_check');
  return digest.result();
}

/**
 * Copies every table of `source` (held still by the caller: sqlite-source.ts) into the empty,
 * migrated PostgreSQL database of `pool`, in one transaction that locks the target's tables
 * against other writers and commits only if every table reads back the same: counts, money sums
 * and every row. Anything else rolls back and throws, leaving the target as it was.
 */
export async function copySqliteToPostgres(
  source: Db,
  pool: pg.Pool,
  progress: (line: string) => void = () => {},
): Promise<TransferReport> {
  const sourceTables = (
    source
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
      )
      .all() as { name: string }[]
  )
    .map((row) => row.name)
    .filter((name) => name !== MIGRATIONS_TABLE);
  const client = await pool.connect();
  try {
    const present = new Set(await targetTables(client));
    const notCopied = sourceTables
      .filter((table) => !present.has(table) || table in OWN_TABLES)
      .map((table) => ({ table, why: OWN_TABLES[table] }));
    const unknown = notCopied.filter((entry) => entry.why === undefined).map((entry) => entry.table);
    if (unknown.length > 0)
      throw new TransferError(`PostgreSQL has no table ${unknown.join(', ')}: the copy would lose its rows`);
    const shared = sourceTables.filter((table) => present.has(table) && !(table in OWN_TABLES));
    const dataTables = [...present].filter((table) => table !== MIGRATIONS_TABLE);
    await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
    try {
      // Nothing else writes the target meanwhile; a lock another session holds fails the copy, not waits forever.
      await client.query("SET LOCAL lock_timeout = '10s'");
      await client.query(`LOCK TABLE ${dataTables.map(quote).join(', ')} IN EXCLUSIVE MODE`);
      const filled = await tablesWithRows(
        client,
        dataTables.filter((table) => !MIGRATION_FILLED.has(table)),
      );
      if (filled.length > 0) throw notEmpty(filled);
      const copies: { table: string; columns: string[]; source: TableDigest }[] = [];
      for (const table of await tablesInKeyOrder(client, shared)) {
        try {
          const copy = await copyTable(source, client, table);
          copies.push({ table, ...copy });
          progress(`  ${table}: ${copy.source.rows} rows copied`);
        } catch (error) {
          if (error instanceof TransferError) throw error;
          throw new TransferError(`copying ${table} failed: ${(error as Error).message}`);
        }
      }
      progress('Reading every table back from PostgreSQL, row for row…');
      const tables: TableCopied[] = [];
      for (const copy of copies) {
        const target = await targetDigest(client, copy.table, copy.columns);
        const differences = digestDifferences(copy.source, target);
        if (differences.length > 0)
          throw new TransferError(`${copy.table} reads back differently: ${differences.join('; ')}`);
        tables.push({ table: copy.table, rows: copy.source.rows, sums: copy.source.sums });
      }
      await client.query('COMMIT');
      return {
        tables,
        notCopied: notCopied.map((entry) => ({ table: entry.table, why: entry.why ?? '' })),
      };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  } finally {
    client.release();
  }
}
