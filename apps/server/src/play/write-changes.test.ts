import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { RoundRecord } from '../store/records.ts';
import type { Transaction } from '../store/store.ts';
import { type RoundEventQueue, writeChanges } from './play-runtime.ts';

/**
 * writeChanges's `before`: statements the unit sent ahead of its writes. When nothing is checked
 * (`held`) and no event follows, the unit's COMMIT rides with its last write, sent before `before`
 * is answered: a check there (a promise that fails on what a statement answered) would fail after
 * the unit committed. A check belongs there only with `held`, where every answer comes first.
 */
const PLAY_DIR = new URL('./', import.meta.url);

/** Each writeChanges call of the play flows, with the names its options pass in `before`. */
function callsWithBefore(): { file: string; source: string; options: string; names: string[] }[] {
  const found = [];
  for (const file of readdirSync(PLAY_DIR).filter(
    (name) => name.endsWith('.ts') && !name.includes('.test.'),
  )) {
    const source = readFileSync(new URL(file, PLAY_DIR), 'utf8');
    for (const match of source.matchAll(/writeChanges\([^;]*?\{([^{}]*before: \[([^\]]*)\][^{}]*)\}\)/g)) {
      const names = (match[2] ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      found.push({ file, source, options: match[1] ?? '', names });
    }
  }
  return found;
}

describe("writeChanges's `before`", () => {
  it('holds statements only where the COMMIT can ride with the writes (no `held`)', () => {
    const calls = callsWithBefore();
    // The flows that send ahead today: the bet's answer (held) and the retrier's answers (not held).
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const { file, source, options, names } of calls.filter((call) => !/held: true/.test(call.options))) {
      for (const name of names) {
        // A statement: bound to a repository call in the unit (`tx.rounds.…(…)` or `attempt(tx)`).
        const bound = new RegExp(`const ${name} = (tx\\.\\w+\\.\\w+\\(|attempt\\(tx\\))`);
        expect(bound.test(source), `${file}: writeChanges({${options}}) sends ${name} ahead`).toBe(true);
      }
    }
  });

  it('with `held`, a failed check sent ahead stops the unit before its COMMIT and its event', async () => {
    const lastStatement = vi.fn();
    const enqueue = vi.fn(async () => {});
    const tx = {
      lastStatement,
      rounds: { updateRoundWhile: async () => true },
    } as unknown as Transaction;
    const round = { id: 'round-1', status: 'pending', clientId: 'client-1' } as RoundRecord;
    const blockGone = Promise.reject(new Error('block gone'));
    void blockGone.catch(() => {});

    await expect(
      writeChanges(
        tx,
        { enqueue } as unknown as RoundEventQueue,
        { round, calls: [], player: { balanceMinor: 0 } } as never,
        { round: { status: 'open' }, event: 'open-round' },
        { held: true, last: true, before: [blockGone] },
      ),
    ).rejects.toThrow('block gone');
    expect(lastStatement).not.toHaveBeenCalled();
    expect(enqueue).not.toHaveBeenCalled();
  });
});
