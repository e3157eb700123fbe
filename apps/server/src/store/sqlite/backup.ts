import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, fsyncSync, linkSync, openSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { BUSY_TIMEOUT_MS } from './database.ts';

/** What a backup wrote, as `pnpm backup` prints it. */
export interface SqliteBackup {
  file: string;
  bytes: number;
  /** The last migration the copy is at (schema_migrations), or null for a file without any. */
  migration: string | null;
  rounds: number;
  transactions: number;
}

/**
 * Copies the SQLite database `source` to `out` (which must not exist), safe while the service
 * runs on it (issue 36 item 2): SQLite's online backup API, its first step of 100 pages and then
 * every other page in one, each under a read transaction; a write by the service between the two
 * makes SQLite start the copy again, so the copy is one consistent snapshot. In WAL mode it never
 * blocks the service's writer. Pages are copied as they are, rowids included, so the lists' folded
 * counts and their rowid watermark (sqlite/ledger-counts.ts) stay true in the copy: a restore has
 * nothing to rebuild.
 *
 * The copy is written beside `out` under a name of its own, turned into a single self-contained
 * file (rollback journal, no WAL beside it), checked with `quick_check`, made readable by its owner
 * only, synced, then linked as `out`, which fails if a file took that name meanwhile: `out` is a
 * whole checked copy, or what was there before, never replaced.
 */
export async function backupSqliteFile(source: string, out: string): Promise<SqliteBackup> {
  if (existsSync(out)) throw new Error(`${out} already exists: a backup never overwrites a file`);
  const partial = `${out}.${process.pid}-${randomBytes(4).toString('hex')}.partial`;
  // Read and write, not read-only: a read-only connection cannot open a WAL file whose -shm is
  // missing (the service stopped). It changes nothing in the source: no migration, no pragma that
  // writes (closing it may checkpoint the WAL, as closing any connection does).
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // The first step only measures; the handler then asks for every page in the next one.
    await db.backup(partial, { progress: () => 0x7fffffff });
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
  try {
    const written = checkCopy(partial);
    // As secret as the database: tokens' digests, sealed wallet tokens, players.
    chmodSync(partial, 0o600);
    syncFile(partial);
    linkOrRefuse(partial, out);
    syncFile(dirname(out));
    return { file: out, bytes: statSync(out).size, ...written };
  } finally {
    rmSync(partial, { force: true });
  }
}

/** Gives the copy its name, unless a file took that name since the backup began. */
function linkOrRefuse(partial: string, out: string): void {
  try {
    linkSync(partial, out);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new Error(`${out} appeared while the backup ran: a backup never overwrites a file`);
    throw error;
  }
}

/** Makes the copy one file (no WAL), checks it, and reads what the report says of it. */
function checkCopy(file: string): Omit<SqliteBackup, 'file' | 'bytes'> {
  const copy = new Database(file, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the copy fails SQLite's quick_check: ${String(check)}`);
    const tables = new Set(
      copy
        .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table'")
        .all()
        .map((row) => row.name),
    );
    const count = (table: string) =>
      tables.has(table)
        ? (copy.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0)
        : 0;
    const migration = tables.has('schema_migrations')
      ? (copy.prepare<[], { name: string }>('SELECT max(name) AS name FROM schema_migrations').get()?.name ??
        null)
      : null;
    return { migration, rounds: count('rounds'), transactions: count('transactions') };
  } finally {
    copy.close();
  }
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
