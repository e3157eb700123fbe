import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BatchPlanInput, planBatches } from './batch-plan.ts';
import { orderKey, type Queued } from './send-order.ts';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const event = (seq: number, roundId: string | null, dueMs = 0): Queued => ({
  seq,
  roundId,
  nextAttemptAt: at(dueMs),
});

const base = {
  roundsInFlight: new Set<string>(),
  inFlight: 0,
  window: 32,
  maxEvents: 100,
  maxWaitMs: 250,
  now: T0,
};

describe('planBatches', () => {
  it('an idle webhook’s one event goes at once, alone', () => {
    expect(planBatches({ ...base, queued: [event(1, 'a')] })).toEqual({
      send: [[event(1, 'a')]],
      wakeInMs: null,
    });
  });

  it('while a request is in flight, events wait for maxWaitMs or maxEvents', () => {
    const queued = [event(1, 'a'), event(2, 'b')];
    expect(planBatches({ ...base, queued, inFlight: 1, now: T0 + 100 })).toEqual({ send: [], wakeInMs: 150 });
    expect(planBatches({ ...base, queued, inFlight: 1, now: T0 + 250 }).send).toEqual([queued]);
    expect(planBatches({ ...base, queued, inFlight: 1, maxEvents: 2 }).send).toEqual([queued]);
  });

  it('a close-round goes with its open-round, or waits while its open-round is unanswered', () => {
    const queued = [event(1, 'a'), event(2, 'a')];
    expect(planBatches({ ...base, queued }).send).toEqual([queued]);
    const held = planBatches({
      ...base,
      queued: [event(2, 'a'), event(3, 'b')],
      roundsInFlight: new Set(['a']),
    });
    expect(held.send).toEqual([[event(3, 'b')]]);
  });

  it('a retry not yet due holds back everything after it', () => {
    const queued = [event(1, 'a'), event(2, 'b', 5000), event(3, 'c')];
    expect(planBatches({ ...base, queued }).send).toEqual([[event(1, 'a')]]);
  });

  const roundOf = (round: number) => (round === 6 ? null : `r${round}`);
  const inputs = fc
    .record({
      rounds: fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 600 })), {
        maxLength: 30,
      }),
      roundsInFlight: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { maxLength: 3 }),
      inFlight: fc.integer({ min: 0, max: 4 }),
      window: fc.integer({ min: 1, max: 4 }),
      maxEvents: fc.integer({ min: 1, max: 5 }),
      maxWaitMs: fc.integer({ min: 0, max: 500 }),
      nowMs: fc.integer({ min: 0, max: 1000 }),
    })
    .map(
      (r): BatchPlanInput<Queued> => ({
        // Round 6 stands for the webhook's anchor events (no round): they keep their order too.
        queued: r.rounds.map(([round, due], i) => event(i + 1, roundOf(round), due)),
        roundsInFlight: new Set(r.roundsInFlight.map((round) => orderKey({ roundId: roundOf(round) }))),
        inFlight: r.inFlight,
        window: r.window,
        maxEvents: r.maxEvents,
        maxWaitMs: r.maxWaitMs,
        now: T0 + r.nowMs,
      }),
    );

  it('for any queue: batches within bounds, due, in order, each round in one unanswered request', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const { send, wakeInMs } = planBatches(input);
        const stop = input.queued.findIndex((e) => Date.parse(e.nextAttemptAt) > input.now);
        const due = stop === -1 ? input.queued : input.queued.slice(0, stop);
        const sent = send.flat();
        expect(new Set(sent).size).toBe(sent.length);
        for (const e of sent) expect(due).toContain(e);
        expect(send.length).toBeLessThanOrEqual(Math.max(0, input.window - input.inFlight));
        const roundsSent = new Map<string, number>();
        send.forEach((batch, i) => {
          expect(batch.length).toBeGreaterThan(0);
          expect(batch.length).toBeLessThanOrEqual(input.maxEvents);
          expect(batch.map((e) => e.seq)).toEqual([...batch.map((e) => e.seq)].sort((x, y) => x - y));
          // A non-full batch goes beside other requests only once its oldest event waited maxWaitMs.
          if (input.inFlight + i > 0 && batch.length < input.maxEvents) {
            const oldest = Math.min(...batch.map((e) => Date.parse(e.nextAttemptAt)));
            expect(input.now - oldest).toBeGreaterThanOrEqual(input.maxWaitMs);
          }
          for (const e of batch) {
            expect(input.roundsInFlight.has(orderKey(e))).toBe(false);
            expect(roundsSent.get(orderKey(e)) ?? i).toBe(i);
            roundsSent.set(orderKey(e), i);
          }
        });
        // Within a round, events go in seq order: none is sent while an earlier one of its round waits.
        for (const e of sent) {
          const earlier = due.filter((d) => orderKey(d) === orderKey(e) && d.seq < e.seq);
          for (const d of earlier) expect(sent).toContain(d);
        }
        if (wakeInMs !== null) {
          expect(wakeInMs).toBeGreaterThan(0);
          expect(wakeInMs).toBeLessThanOrEqual(input.maxWaitMs);
        } else if (input.inFlight + send.length < input.window) {
          // Nothing left that could go: every due event not sent has its round busy.
          for (const e of due.filter((d) => !sent.includes(d))) {
            expect(input.roundsInFlight.has(orderKey(e)) || roundsSent.has(orderKey(e))).toBe(true);
          }
        }
        // Idle with something sendable: it goes at once.
        const sendable = due.filter((e) => !input.roundsInFlight.has(orderKey(e)));
        if (input.inFlight === 0 && sendable.length > 0) {
          expect(send[0]).toEqual(sendable.slice(0, input.maxEvents));
        }
      }),
      { numRuns: 500 },
    );
  });
});
