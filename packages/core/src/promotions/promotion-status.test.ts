import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cancelOutcome,
  isPromotionOpen,
  PROMOTION_STATUSES,
  type PromotionTimes,
  promotionStatus,
} from './promotion-status.ts';

const START = Date.parse('2026-03-01T00:00:00.000Z');
const EXPIRE = Date.parse('2026-03-08T00:00:00.000Z');
const open: PromotionTimes = { startAt: START, expireAt: EXPIRE, cancelledAt: null };

describe('promotionStatus', () => {
  it('is scheduled before startAt, active from startAt, ended from expireAt', () => {
    expect(promotionStatus(open, START - 1)).toBe('scheduled');
    expect(promotionStatus(open, START)).toBe('active');
    expect(promotionStatus(open, EXPIRE - 1)).toBe('active');
    expect(promotionStatus(open, EXPIRE)).toBe('ended');
  });

  it('is cancelled once cancelled, before, during and after its window', () => {
    const cancelled = { ...open, cancelledAt: START + 10 };
    for (const now of [START - 1, START, START + 10, EXPIRE - 1, EXPIRE, EXPIRE + 1]) {
      expect(promotionStatus(cancelled, now)).toBe('cancelled');
    }
  });

  it('moves only forward with the clock: scheduled, then active, then ended', () => {
    const order = (status: string) => PROMOTION_STATUSES.indexOf(status as never);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e12 }),
        fc.integer({ min: 1, max: 1e10 }),
        fc.integer({ min: -1e10, max: 1e12 }),
        fc.nat(1e10),
        (startAt, length, now, later) => {
          const times = { startAt, expireAt: startAt + length, cancelledAt: null };
          const before = promotionStatus(times, now);
          const after = promotionStatus(times, now + later);
          expect(order(after)).toBeGreaterThanOrEqual(order(before));
          expect(before === 'active').toBe(now >= startAt && now < startAt + length);
        },
      ),
    );
  });
});

describe('cancelOutcome and isPromotionOpen', () => {
  it('cancels only an open promotion; a repeat is already cancelled, an ended one a conflict', () => {
    expect(
      PROMOTION_STATUSES.map((status) => [status, cancelOutcome(status), isPromotionOpen(status)]),
    ).toEqual([
      ['scheduled', 'cancel', true],
      ['active', 'cancel', true],
      ['ended', 'already-ended', false],
      ['cancelled', 'already-cancelled', false],
    ]);
  });
});
