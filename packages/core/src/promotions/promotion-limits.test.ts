import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROMOTION_LIMITS, promotionTimeProblems } from './promotion-limits.ts';

const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const DAY = 86_400_000;

describe('promotionTimeProblems', () => {
  it('accepts an expiry in the future, after the start, within 366 days of it', () => {
    expect(promotionTimeProblems({ startAt: null, expireAt: NOW + 1 }, NOW)).toEqual([]);
    expect(promotionTimeProblems({ startAt: NOW + DAY, expireAt: NOW + 2 * DAY }, NOW)).toEqual([]);
    expect(promotionTimeProblems({ startAt: NOW - DAY, expireAt: NOW + DAY }, NOW)).toEqual([]);
    expect(promotionTimeProblems({ startAt: NOW, expireAt: NOW + 366 * DAY }, NOW)).toEqual([]);
  });

  it('refuses an expiry now or past, before or at the start, or over 366 days after it', () => {
    const expireAt = (message: string) => [{ field: 'expireAt', message }];
    expect(promotionTimeProblems({ startAt: null, expireAt: NOW }, NOW)).toEqual(
      expireAt('must be in the future'),
    );
    expect(promotionTimeProblems({ startAt: NOW - 2 * DAY, expireAt: NOW - DAY }, NOW)).toEqual(
      expireAt('must be in the future'),
    );
    expect(promotionTimeProblems({ startAt: NOW + DAY, expireAt: NOW + DAY }, NOW)).toEqual(
      expireAt('must be after startAt'),
    );
    expect(promotionTimeProblems({ startAt: null, expireAt: NOW + 366 * DAY + 1 }, NOW)).toEqual(
      expireAt('must be at most 366 days after startAt'),
    );
  });

  it('accepts exactly the times whose cards can be used at some moment from now on', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: NOW - 400 * DAY, max: NOW + 400 * DAY })),
        fc.integer({ min: NOW - 400 * DAY, max: NOW + 800 * DAY }),
        (startAt, expireAt) => {
          const start = startAt ?? NOW;
          const usableLater = expireAt > NOW && expireAt > start;
          const shortEnough = expireAt - start <= PROMOTION_LIMITS.maxDurationMs;
          expect(promotionTimeProblems({ startAt, expireAt }, NOW).length === 0).toBe(
            usableLater && shortEnough,
          );
        },
      ),
    );
  });
});
