import { describe, expect, it } from 'vitest';
import { createTurns } from './turns.ts';

describe('turns', () => {
  it('runs work on one key one at a time, in order, and a failure does not stop the next', async () => {
    const turns = createTurns();
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = turns.take('a', async () => {
      seen.push('a1 start');
      await gate;
      seen.push('a1 end');
      throw new Error('a1 failed');
    });
    const second = turns.take('a', async () => {
      seen.push('a2');
      return 2;
    });
    const other = turns.take('b', async () => {
      seen.push('b');
      return 'b';
    });
    expect(await other).toBe('b');
    expect(seen).toEqual(['a1 start', 'b']);
    release();
    await expect(first).rejects.toThrow('a1 failed');
    expect(await second).toBe(2);
    expect(seen).toEqual(['a1 start', 'b', 'a1 end', 'a2']);
  });
});
