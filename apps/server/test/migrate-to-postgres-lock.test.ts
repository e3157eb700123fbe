// sqlite-only: the copy's write lock on its SQLite source file
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/store/sqlite/database.ts';
import { openLockedSource } from '../src/store/transfer/sqlite-source.ts';

/** migrate-to-postgres holds the embedded database still: the write lock both ways. */
const dir = mkdtempSync(join(tmpdir(), 'raspa-lock-'));
const file = join(dir, 'raspa.sqlite');
openDatabase(file).close();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const writer = () => {
  const db = new Database(file);
  db.pragma('busy_timeout = 0');
  return db;
};

describe('the copy source', () => {
  it('while the copy holds it, another process cannot write', () => {
    const source = openLockedSource(file);
    const other = writer();
    try {
      expect(() => other.prepare("INSERT INTO captchas VALUES ('c1', 'h', 'x', NULL)").run()).toThrow(
        /database is locked/,
      );
    } finally {
      other.close();
      source.release();
    }
    const after = writer();
    expect(after.prepare('SELECT count(*) AS n FROM captchas').get()).toEqual({ n: 0 });
    after.close();
  });

  it('refuses to start while another process is writing', () => {
    const other = writer();
    other.exec('BEGIN IMMEDIATE');
    try {
      expect(() => openLockedSource(file)).toThrow(/another process is writing .*stop the service/);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  });
});
