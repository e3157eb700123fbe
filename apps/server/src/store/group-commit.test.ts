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
  return { db, insert, rows };
}

describe('createGroupCommit', () => {
  it('commits the units of one turn together, in order, each answered with its own value', async () => {
    const { db, insert, rows } = table();
    const batch = createGroupCommit(db);
    const answers = await Promise.all(
      [1, 2, 3].map((x) =>
        batch(() => {
          insert.run(x);
          return x * 10;
        }),
      ),
    );
    expect(answers).toEqual([10, 20, 30]);
    expect(rows()).toEqual([1, 2, 3]);
  });

  it('undoes a failing unit alone and rejects it; the others commit', async () => {
    const { db, insert, rows } = table();
    const batch = createGroupCommit(db);
    const results = await Promise.allSettled([
      batch(() => insert.run(1)),
      batch(() => {
        insert.run(2);
        throw new Error('no');
      }),
      batch(() => insert.run(3)),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(rows()).toEqual([1, 3]);
  });

  it('answers nobody before the commit, and later units go in a later batch', async () => {
    const { db, insert, rows } = table();
    const batch = createGroupCommit(db);
    const first = batch(() => insert.run(1));
    expect(rows()).toEqual([]);
    await first;
    expect(rows()).toEqual([1]);
    await batch(() => insert.run(2));
    expect(rows()).toEqual([1, 2]);
  });

  it('rejects every unit when the transaction cannot start', async () => {
    const { db, insert } = table();
    const batch = createGroupCommit(db);
    db.close();
    await expect(batch(() => insert.run(1))).rejects.toThrow();
  });
});
