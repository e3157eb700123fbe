import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { countStatements } from './statement-stats.ts';

export type Db = Database.Database;

/** How long a write waits for another process's write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Opens the ledger: WAL so readers never wait on the writer, synchronous=FULL so a committed
 * round survives power loss (docs/contract.md §6), foreign keys on, and a busy timeout for the rare
 * second process (the admin command).
 */
export function openDatabase(
  file: string,
  options: { readonly?: boolean; statementStats?: string | undefined } = {},
): Db {
  if (options.readonly) {
    // A reader beside the live service (verify-pool): no migration, no pragma that writes.
    const reader = new Database(file, { readonly: true, fileMustExist: true });
    reader.pragma('busy_timeout = 5000');
    return reader;
  }
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  if (options.statementStats) countStatements(db, options.statementStats);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // Statement journals (every ledger INSERT has them: the list counts' triggers write other tables)
  // and sorts stay in memory instead of temp files: half the triggers' cost per round.
  db.pragma('temp_store = MEMORY');
  migrate(db);
  return db;
}

/** Applies the numbered `migrations/NNN_name.sql` files not yet applied, each in its own transaction. */
export function migrate(db: Db): string[] {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL) STRICT',
  );
  const applied = new Set(
    db
      .prepare<[], { name: string }>('SELECT name FROM schema_migrations')
      .all()
      .map((row) => row.name),
  );
  const files = shippedMigrations();
  const ran: string[] = [];
  for (const name of files) {
    if (applied.has(name)) continue;
    const sql = readFileSync(join(MIGRATIONS_DIR, name), 'utf8');
    immediate(db, () => {
      db.exec(sql);
      db.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)').run(
        name,
        new Date().toISOString(),
      );
    });
    ran.push(name);
  }
  return ran;
}

/** The migration files this build ships, in the order they apply. */
export function shippedMigrations(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((name) => /^\d{3}_[\w-]+\.sql$/.test(name))
    .sort();
}

/** Runs `work` in one `BEGIN IMMEDIATE` transaction: it takes the write lock up front, so it never deadlocks. */
export function immediate<T>(db: Db, work: () => T): T {
  return db.transaction(work).immediate();
}
