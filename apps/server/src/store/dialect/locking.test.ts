import { describe, expect, it } from 'vitest';
import type { Exec } from './exec.ts';
import { lockingRead } from './locking.ts';

const on = (dialect: Exec['dialect'], inUnit: boolean) => ({ dialect, inUnit }) as Exec;

describe('lockingRead', () => {
  const read = lockingRead<{ id: string }, unknown>('SELECT 1 FROM rounds WHERE id = :id', 'FOR UPDATE');

  it('locks on PostgreSQL inside a unit only', () => {
    expect(read(on('postgres', true)).render('postgres').text).toBe(
      'SELECT 1 FROM rounds WHERE id = $1 FOR UPDATE',
    );
    expect(read(on('postgres', false)).render('postgres').text).toBe('SELECT 1 FROM rounds WHERE id = $1');
  });

  it('never locks on SQLite, whose executor is never in a unit of row locks', () => {
    expect(read(on('sqlite', false)).render('sqlite').text).toBe('SELECT 1 FROM rounds WHERE id = ?');
  });

  it('keeps one statement of each kind, so each is rendered and prepared once', () => {
    expect(read(on('postgres', true))).toBe(read(on('postgres', true)));
    expect(read(on('postgres', false))).not.toBe(read(on('postgres', true)));
  });
});
