import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clockOffsetMs, secondsLeft, waitAfterBuyMs, waitForRetryMs } from './buy-pace.ts';

const GAP = 5000;
const T = Date.parse('2026-03-01T12:00:00.000Z');

describe('the wait between buys', () => {
  it("after the page's own buy: the rest of the gap, none once it has passed or without a gap", () => {
    expect(waitAfterBuyMs(null, T, GAP)).toBe(0);
    expect(waitAfterBuyMs(T, T, GAP)).toBe(5000);
    expect(waitAfterBuyMs(T, T + 1200, GAP)).toBe(3800);
    expect(waitAfterBuyMs(T, T + 5000, GAP)).toBe(0);
    expect(waitAfterBuyMs(T, T + 1000, 0)).toBe(0);
  });

  it("until a refusal's retryAt on the server's clock, corrected by the offset seen", () => {
    const retryAt = new Date(T + 5000).toISOString();
    expect(waitForRetryMs(retryAt, T + 1000, 0, GAP)).toBe(4000);
    // The page's clock is 10 minutes behind the server's: the server's now is T + 1000.
    expect(waitForRetryMs(retryAt, T + 1000 - 600_000, 600_000, GAP)).toBe(4000);
    expect(waitForRetryMs(retryAt, T + 6000, 0, GAP)).toBe(0);
  });

  it('never waits 0 on an unreadable retryAt, so a refusal is never retried at once', () => {
    expect(waitForRetryMs(undefined, T, 0, GAP)).toBe(GAP);
    expect(waitForRetryMs('soon', T, 0, 0)).toBe(1000);
  });

  it('never waits more than one gap, whatever the clocks say', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4e12 }),
        fc.integer({ min: 0, max: 4e12 }),
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.integer({ min: 1, max: 60_000 }),
        (at, now, offset, gap) => {
          const retry = waitForRetryMs(new Date(at).toISOString(), now, offset, gap);
          const after = waitAfterBuyMs(at, now, gap);
          for (const wait of [retry, after]) {
            expect(wait).toBeGreaterThanOrEqual(0);
            expect(wait).toBeLessThanOrEqual(gap);
          }
        },
      ),
    );
  });

  it('reads the server clock offset from a time it stamped', () => {
    expect(clockOffsetMs(new Date(T).toISOString(), T - 250)).toBe(250);
    expect(clockOffsetMs('not a time', T)).toBe(0);
  });

  it('counts down in whole seconds, at least 1 while anything is left', () => {
    expect([5000, 4001, 4000, 1, 0, -3].map(secondsLeft)).toEqual([5, 5, 4, 1, 0, 0]);
  });
});
