import { describe, expect, it } from 'vitest';
import { sendInBatches } from './send-in-batches.ts';

const ids = Array.from({ length: 25 }, (_, index) => `p-${index}`);

describe('sendInBatches', () => {
  it('sends every item in order, in calls of at most the size, saying the progress after each', async () => {
    const calls: Array<[number, number]> = [];
    const progress: number[] = [];
    const outcome = await sendInBatches(
      ids,
      10,
      async (batch, index) => calls.push([index, batch.length]),
      (sent, total) => progress.push(sent / total),
    );
    expect(outcome).toEqual({ sent: 25 });
    expect(calls).toEqual([
      [0, 10],
      [1, 10],
      [2, 5],
    ]);
    expect(progress).toEqual([0, 0.4, 0.8, 1]);
  });

  it('stops at the first failed call and says how many items the calls before it carried', async () => {
    const failure = new Error('409');
    let calls = 0;
    const outcome = await sendInBatches(ids, 10, async (_batch, index) => {
      calls++;
      if (index === 1) throw failure;
    });
    expect(outcome).toEqual({ sent: 10, error: failure });
    expect(calls).toBe(2);
  });
});
