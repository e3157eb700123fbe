import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSqliteExec } from '../sqlite/exec.ts';
import { assembledStatement, render, statement, valuesOf } from './statement.ts';

describe('render', () => {
  it('numbers each name once on PostgreSQL, in the order of first use', () => {
    expect(render('WHERE a = :a AND b = :b AND c > :a', 'postgres')).toEqual({
      text: 'WHERE a = $1 AND b = $2 AND c > $1',
      names: ['a', 'b'],
    });
  });

  it('gives each use its own ? on SQLite', () => {
    expect(render('WHERE a = :a AND b = :b AND c > :a', 'sqlite')).toEqual({
      text: 'WHERE a = ? AND b = ? AND c > ?',
      names: ['a', 'b', 'a'],
    });
  });

  it('leaves a PostgreSQL cast and a quoted alias as they are', () => {
    expect(render('SELECT :ids::text[] AS "clientId", x::int', 'postgres')).toEqual({
      text: 'SELECT $1::text[] AS "clientId", x::int',
      names: ['ids'],
    });
  });

  const name = fc.stringMatching(/^[A-Za-z_]\w{0,8}$/);
  const filler = fc.constantFrom(' = ', ' AND ', ', ', ' + ', ')');

  it('binds, for any names in any order, the value of the name written at each place', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, filler), { minLength: 1, maxLength: 12 }), (parts) => {
        const source = parts.map(([n, f]) => `:${n}${f}`).join('');
        const params = Object.fromEntries(parts.map(([n]) => [n, `v_${n}`]));
        const written = parts.map(([n]) => `v_${n}`);
        const sqlite = render(source, 'sqlite');
        expect(valuesOf(sqlite.names, params)).toEqual(written);
        expect(sqlite.text.split('?').length - 1).toBe(parts.length);
        const pg = render(source, 'postgres');
        const values = valuesOf(pg.names, params);
        const placed = [...pg.text.matchAll(/\$(\d+)/g)].map((m) => values[Number(m[1]) - 1]);
        expect(placed).toEqual(written);
        expect(new Set(pg.names).size).toBe(pg.names.length);
      }),
    );
  });
});

describe('valuesOf', () => {
  it('refuses a missing parameter instead of binding NULL', () => {
    expect(() => valuesOf(['a', 'b'], { a: 1 })).toThrow('missing parameter :b');
    expect(valuesOf(['a'], { a: null })).toEqual([null]);
  });
});

describe('statement', () => {
  it('renders a function of the dialect for that dialect, once', () => {
    let calls = 0;
    const s = statement((d) => {
      calls++;
      return d === 'sqlite' ? 'x = 1' : 'x';
    });
    expect(s.render('sqlite').text).toBe('x = 1');
    expect(s.render('sqlite').text).toBe('x = 1');
    expect(s.render('postgres').text).toBe('x');
    expect(calls).toBe(2);
  });
});

describe('assembledStatement', () => {
  it('keeps one statement per text, so each text is rendered and prepared once', () => {
    const where = (filters: string[]) => `SELECT 1 FROM t WHERE ${filters.join(' AND ')}`;
    const first = assembledStatement(where(['a = :a', 'b = :b']));
    expect(assembledStatement(where(['a = :a', 'b = :b']))).toBe(first);
    expect(assembledStatement(where(['a = :a']))).not.toBe(first);
  });
});

describe('the SQLite executor', () => {
  it('answers at once, binds a flag as 1/0 and a repeated name at each use', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, on_ INTEGER NOT NULL, a TEXT, b TEXT)');
    const x = createSqliteExec(db);
    const insert = statement<{ id: string; on: boolean; v: string }>(
      'INSERT INTO t (id, on_, a, b) VALUES (:id, :on, :v, :v)',
    );
    const byId = statement<{ id: string }, { on: number; a: string; b: string }>(
      'SELECT on_ AS "on", a, b FROM t WHERE id = :id',
    );
    expect(x.run(insert, { id: 'one', on: true, v: 'same' })).toBe(1);
    expect(x.first(byId, { id: 'one' })).toEqual({ on: 1, a: 'same', b: 'same' });
    expect(x.all(statement('SELECT count(*) AS n FROM t'), {})).toEqual([{ n: 1 }]);
    db.close();
  });

  it('runs atomic work as a unit of the group commit it is given, and refuses without one', async () => {
    const db = new Database(':memory:');
    const units: string[] = [];
    const x = createSqliteExec(db, {
      unit: async (work) => {
        units.push('unit');
        return work();
      },
    });
    await expect(x.atomic(async () => 'done')).resolves.toBe('done');
    expect(units).toEqual(['unit']);
    await expect(createSqliteExec(db).atomic(async () => 'done')).rejects.toThrow(
      'atomic needs the group commit',
    );
    db.close();
  });
});
