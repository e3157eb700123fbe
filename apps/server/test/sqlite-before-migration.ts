import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const MIGRATIONS = fileURLToPath(new URL('../src/store/sqlite/migrations/', import.meta.url));

/**
 * An in-memory SQLite database as the shipped migrations before `first` (e.g. '005') left it, to
 * test a migration on the data an older version wrote.
 */
export function sqliteBefore(first: string, appliedAt: string): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  db.exec('CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL) STRICT');
  for (const name of readdirSync(MIGRATIONS).sort()) {
    if (name >= first) continue;
    db.exec(readFileSync(`${MIGRATIONS}${name}`, 'utf8'));
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?)').run(name, appliedAt);
  }
  return db;
}
