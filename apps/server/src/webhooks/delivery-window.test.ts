import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deliveryWindow, headLateness, STARTING_WINDOW, STEP_MS } from './delivery-window.ts';

const cap = fc.integer({ min: 1, max: 256 });
const lateMs = fc.integer({ min: -60_000, max: 10 * 24 * 3600 * 1000 });

describe('deliveryWindow', () => {
  it('keeps the starting window (or the cap below it) while the head is on time', () => {
    expect(deliveryWindow({ cap: 256, lateMs: 0 })).toBe(STARTING_WINDOW);
    expect(deliveryWindow({ cap: 256, lateMs: STEP_MS - 1 })).toBe(STARTING_WINDOW);
    expect(deliveryWindow({ cap: 8, lateMs: 0 })).toBe(8);
    expect(deliveryWindow({ cap: 256, lateMs: -5000 })).toBe(STARTING_WINDOW);
  });

  it('doubles at each step of lateness up to the cap', () => {
    const windows = [0, 1, 2, 3, 4, 40].map((steps) => deliveryWindow({ cap: 256, lateMs: steps * STEP_MS }));
    expect(windows).toEqual([32, 64, 128, 256, 256, 256]);
    expect(deliveryWindow({ cap: 100, lateMs: 10 * STEP_MS })).toBe(100);
  });

  it('never passes the cap, never goes under 1, and never narrows as the head gets later', () => {
    fc.assert(
      fc.property(cap, lateMs, fc.nat({ max: 3_600_000 }), (limit, late, more) => {
        const window = deliveryWindow({ cap: limit, lateMs: late });
        expect(Number.isInteger(window)).toBe(true);
        expect(window).toBeGreaterThanOrEqual(Math.min(limit, STARTING_WINDOW));
        expect(window).toBeLessThanOrEqual(limit);
        expect(deliveryWindow({ cap: limit, lateMs: late + more })).toBeGreaterThanOrEqual(window);
      }),
    );
  });

  it('with a cap of 1 sends one at a time however late', () => {
    fc.assert(fc.property(lateMs, (late) => deliveryWindow({ cap: 1, lateMs: late }) === 1));
  });
});

describe('headLateness', () => {
  const at = (ms: number) => ({ nextAttemptAt: new Date(ms).toISOString() });
  const now = Date.parse('2030-01-01T00:00:10.000Z');

  it('is how long the oldest event has been due, 0 for none or for events not yet due', () => {
    expect(headLateness([], now)).toBe(0);
    expect(headLateness([at(now - 700), at(now - 2500), at(now + 1000)], now)).toBe(2500);
    expect(headLateness([at(now + 1000)], now)).toBe(0);
  });
});
