import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  crossedLimit,
  type LimitUsage,
  limitKeyOf,
  limitUsed,
  parseLimitKey,
  wouldCross,
} from './money-limits.ts';

const RESET = Date.parse('2026-11-27T03:00:00.000Z');
const usage = (input: Partial<LimitUsage>): LimitUsage => ({
  type: 'loss',
  period: 'day',
  currency: 'BRL',
  amount: 5000,
  used: 0,
  resetAt: RESET,
  ...input,
});

describe('wouldCross', () => {
  it('passes the card that reaches the limit exactly and refuses the one past it', () => {
    expect(wouldCross({ amount: 5000, used: 4800 }, 200)).toBe(false);
    expect(wouldCross({ amount: 5000, used: 4801 }, 200)).toBe(true);
  });

  it('counts winnings: a player ahead on the day may spend what they won', () => {
    expect(wouldCross({ amount: 1000, used: -3000 }, 3900)).toBe(false);
  });

  it('refuses the card that would cross and passes the one before it (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e9 }),
        fc.integer({ min: 1, max: 1e6 }),
        fc.integer({ min: 0, max: 1000 }),
        (amount, price, cards) => {
          // A player buying card after card (all lost) passes exactly floor(amount / price) of them.
          const allowed = Math.floor(amount / price);
          const used = Math.min(cards, allowed) * price;
          expect(wouldCross({ amount, used }, price)).toBe(used + price > amount);
          expect(wouldCross({ amount, used: (allowed - 1) * price }, price)).toBe(false);
          expect(wouldCross({ amount, used: allowed * price }, price)).toBe(true);
        },
      ),
    );
  });
});

describe('crossedLimit', () => {
  it('ignores limits in another currency', () => {
    expect(crossedLimit([usage({ currency: 'USD', used: 5000 })], 200, 'BRL')).toBeUndefined();
  });

  it('names the crossed limit that resets last', () => {
    const day = usage({ used: 4900 });
    const week = usage({
      type: 'wager',
      period: 'week',
      used: 9900,
      amount: 10000,
      resetAt: RESET + 4 * 86_400_000,
    });
    const month = usage({ period: 'month', used: 0, amount: 100000, resetAt: RESET + 20 * 86_400_000 });
    expect(crossedLimit([day, week, month], 200, 'BRL')).toBe(week);
    expect(crossedLimit([day, month], 200, 'BRL')).toBe(day);
    expect(crossedLimit([month], 200, 'BRL')).toBeUndefined();
  });

  it('passes a player with no limits', () => {
    expect(crossedLimit([], 200, 'BRL')).toBeUndefined();
  });
});

describe('limit keys', () => {
  it('round-trip and refuse anything else', () => {
    const key = limitKeyOf({ type: 'wager', period: 'month', currency: 'JPY' });
    expect(key).toBe('wager:month:JPY');
    expect(parseLimitKey(key)).toEqual({ type: 'wager', period: 'month', currency: 'JPY' });
    for (const bad of ['loss:day', 'loss:year:BRL', 'win:day:BRL', 'loss:day:brl', 'loss:day:BRL:x']) {
      expect(parseLimitKey(bad)).toBeUndefined();
    }
  });
});

describe('limitUsed', () => {
  it('counts a loss as bets − prizes − rollbacks and a wager as bets (CONTRACT §13)', () => {
    const totals = { bets: 1000, prizes: 300, rollbacks: 200 };
    expect(limitUsed('loss', totals)).toBe(500);
    expect(limitUsed('wager', totals)).toBe(1000);
    expect(limitUsed('loss', { bets: 200, prizes: 5000, rollbacks: 0 })).toBe(-4800);
  });
});
