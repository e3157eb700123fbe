import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createGroupCommit } from './group-commit.ts';

function table() {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (x INTEGER PRIMARY KEY)');
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  const rows = () =>
    db
      .prepare<[], { x: number }>('SELECT x FROM t ORDER BY x')
      .all()
      .map((row) => row.x);
  return { db, insert, rows, commits: createGroupCommit(db) };
}

describe('createGroupCommit', () => {
  it('commits the units of one turn together, in order, each answered with its own value', async () => {
    const { insert, rows, commits } = table();
    const answers = await Promise.all(
      [1, 2, 3].map((x) =>
        commits.unit(async () => {
          insert.run(x);
          return x * 10;
        }),
      ),
    );
    expect(answers).toEqual([10, 20, 30]);
    expect(rows()).toEqual([1, 2, 3]);
  });

  it('undoes a failing unit alone and rejects it; the others commit', async () => {
    const { insert, rows, commits } = table();
    const results = await Promise.allSettled([
      commits.unit(async () => insert.run(1)),
      commits.unit(async () => {
        insert.run(2);
        throw new Error('no');
      }),
      commits.unit(async () => insert.run(3)),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(rows()).toEqual([1, 3]);
  });

  it('answers nobody before the commit, and later units go in a later batch', async () => {
    const { insert, rows, commits } = table();
    const first = commits.unit(async () => insert.run(1));
    expect(rows()).toEqual([]);
    await first;
    expect(rows()).toEqual([1]);
    await commits.unit(async () => insert.run(2));
    expect(rows()).toEqual([1, 2]);
  });

  it('waits for another connection’s write lock on timers, so this process keeps running meanwhile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'raspa-group-commit-'));
    const file = join(dir, 'db.sqlite');
    const other = new Database(file);
    other.pragma('journal_mode = WAL');
    other.exec('CREATE TABLE t (x INTEGER PRIMARY KEY)');
    const db = new Database(file);
    db.pragma('busy_timeout = 5000');
    try {
      other.exec('BEGIN IMMEDIATE');
      // Only this process's own timer releases the lock: SQLite's busy sleep would block it, and
      // the unit would fail with SQLITE_BUSY after 5 s instead.
      setTimeout(() => other.exec('COMMIT'), 20);
      await createGroupCommit(db).unit(async () => db.prepare('INSERT INTO t VALUES (7)').run());
      expect(other.prepare('SELECT x FROM t').pluck().all()).toEqual([7]);
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    } finally {
      db.close();
      other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects every unit when the transaction cannot start', async () => {
    const { db, insert, commits } = table();
    db.close();
    await expect(commits.unit(async () => insert.run(1))).rejects.toThrow();
  });

  it('keeps calls from outside a unit out of the open batch: they wait and see only what committed', async () => {
    const { db, insert, rows, commits } = table();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const seen: number[][] = [];
    const unit = commits.unit(async () => {
      insert.run(1);
      await held; // a unit that yields to the event loop while its batch is open
      insert.run(2);
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(db.inTransaction).toBe(true);
    const outsideRead = commits.outside(() => seen.push(rows()));
    const outsideWrite = commits.outside(() => insert.run(3));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([]);
    release();
    await Promise.all([unit, outsideRead, outsideWrite]);
    expect(seen).toEqual([[1, 2]]);
    expect(rows()).toEqual([1, 2, 3]);
  });

  it('runs a unit opened inside a unit as a savepoint of it, undone alone if it throws', async () => {
    const { insert, rows, commits } = table();
    await commits.unit(async () => {
      insert.run(1);
      await expect(
        commits.unit(async () => {
          insert.run(2);
          throw new Error('inner');
        }),
      ).rejects.toThrow('inner');
      await commits.unit(async () => insert.run(3));
      // A call "from outside" made by the unit itself runs at once instead of waiting for itself.
      await commits.outside(() => insert.run(4));
    });
    expect(rows()).toEqual([1, 3, 4]);
  });

  it('runs afterCommit callbacks once the commit is done, and never for a unit that rolled back', async () => {
    const { rows, insert, commits } = table();
    const calls: string[] = [];
    await Promise.allSettled([
      commits.unit(async (unit) => {
        insert.run(1);
        unit.afterCommit(() => calls.push(`kept sees ${rows().join(',')}`));
        await commits.unit(async (inner) => {
          inner.afterCommit(() => calls.push('nested kept'));
        });
      }),
      commits.unit(async (unit) => {
        unit.afterCommit(() => calls.push('undone'));
        throw new Error('no');
      }),
    ]);
    expect(calls).toEqual(['kept sees 1', 'nested kept']);
  });
});
