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

/** An API client 'c', its demo profile 'pr' (USD) and a game 'g', in the columns every migration since 001 keeps. */
export function seedGame(db: Database.Database, now: string): void {
  db.exec(`
      INSERT INTO api_clients (id, name, email, api_key_hash, created_at) VALUES ('c', 'C', 'c@x', 'h', '${now}');
      INSERT INTO profiles (id, client_id, name, type, currency, created_at, updated_at)
        VALUES ('pr', 'c', 'P', 'demo', 'USD', '${now}', '${now}');
      INSERT INTO games (id, client_id, profile_id, game_model, version, active, lang, currency, rtp_ppm, sampling,
        prized_ppm, bet_minor, ladder_json, created_at)
        VALUES ('g', 'c', 'pr', 'oxe-ganhei', 1, 1, 'en', 'USD', 900000, 100001, 500000, 200, '{}', '${now}');
  `);
}
