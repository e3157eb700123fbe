import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_BATCH, nextBatch } from './record-batches.ts';

const answers = fc.array(fc.record({ success: fc.boolean() }), { maxLength: 40 });

describe('nextBatch', () => {
  it('takes nothing when nothing waits', () => {
    expect(nextBatch([])).toBe(0);
  });

  it('takes a failure alone, and the successes before a failure without it', () => {
    expect(nextBatch([{ success: false }, { success: false }])).toBe(1);
    expect(nextBatch([{ success: true }, { success: true }, { success: false }, { success: true }])).toBe(2);
    expect(nextBatch([{ success: true }, { success: true }])).toBe(2);
  });

  it('caps a batch at MAX_BATCH', () => {
    expect(nextBatch(Array.from({ length: MAX_BATCH + 5 }, () => ({ success: true })))).toBe(MAX_BATCH);
  });

  it('taken batch after batch, writes every answer once, in order, never a failure with another', () => {
    fc.assert(
      fc.property(answers, fc.integer({ min: 1, max: 8 }), (waiting, max) => {
        const batches: { success: boolean }[][] = [];
        let rest = waiting;
        for (let n = nextBatch(rest, max); n > 0; n = nextBatch(rest, max)) {
          batches.push(rest.slice(0, n));
          rest = rest.slice(n);
        }
        expect(rest).toEqual([]);
        expect(batches.flat()).toEqual(waiting);
        for (const batch of batches) {
          expect(batch.length).toBeLessThanOrEqual(max);
          if (batch.some((answer) => !answer.success)) expect(batch.length).toBe(1);
        }
      }),
    );
  });
});
