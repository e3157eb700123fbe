import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { type Db, shippedMigrations } from '../sqlite/database.ts';
import { TransferError } from './transfer-error.ts';

/** How long to wait for a writer that holds the file (the service mid-commit) before refusing. */
const LOCK_WAIT_MS = 5000;

export interface LockedSource {
  db: Db;
  /** Ends the read (nothing was written) and closes the file. */
  release(): void;
}

/**
 * Opens the embedded database for the copy and takes its write lock (BEGIN IMMEDIATE) for as long
 * as the copy lasts: nothing can change it meanwhile, and a service still running on it gets
 * SQLITE_BUSY on every write rather than a round lost between the copy and the switch. The
 * transaction only reads and ends in ROLLBACK. No migration runs: a file this build would still
 * migrate is refused (start and stop the service once on it first).
 */
export function openLockedSource(file: string): LockedSource {
  if (!existsSync(file)) throw new TransferError(`there is no embedded database at ${file}`);
  let db: Db;
  try {
    db = new Database(file, { fileMustExist: true });
  } catch (error) {
    throw new TransferError(`cannot open ${file}: ${(error as Error).message}`);
  }
  try {
    db.pragma(`busy_timeout = ${LOCK_WAIT_MS}`);
    // Every integer as a bigint: one outside JS's safe range is refused, not rounded (copyTable).
    db.defaultSafeIntegers(true);
    checkMigrations(db, file);
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      throw new TransferError(
        `another process is writing ${file} (${(error as Error).message}): stop the service before the copy`,
      );
    }
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    db,
    release() {
      if (db.inTransaction) db.exec('ROLLBACK');
      db.close();
    },
  };
}

function checkMigrations(db: Db, file: string): void {
  const known = db
    .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`)
    .get();
  if (!known) throw new TransferError(`${file} is not a Raspa database (it has no schema_migrations table)`);
  const applied = new Set(
    (db.prepare('SELECT name FROM schema_migrations').all() as { name: string }[]).map((row) => row.name),
  );
  const shipped = shippedMigrations();
  const missing = shipped.filter((name) => !applied.has(name));
  if (missing.length > 0) {
    throw new TransferError(
      `${file} is not at this version's schema (${missing.join(', ')} not applied): start the service ` +
        'on it once (it migrates), stop it, then copy',
    );
  }
  const unknown = [...applied].filter((name) => !shipped.includes(name));
  if (unknown.length > 0) {
    throw new TransferError(
      `${file} was migrated by a newer version (${unknown.join(', ')}): use that version`,
    );
  }
}
