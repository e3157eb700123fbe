import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BuyInput, decideBuy } from './buy-decision.ts';
import type { LimitUsage } from './money-limits.ts';

const NOW = Date.parse('2026-11-26T03:00:00.000Z');
const MINUTE = 60_000;
const lossLimit: LimitUsage = {
  type: 'loss',
  period: 'day',
  currency: 'BRL',
  amount: 5000,
  used: 4800,
  resetAt: NOW + 3_600_000,
};

/** A buy that passes every check; each test turns one on. */
const buy = (input: Partial<BuyInput> = {}): BuyInput => ({
  now: NOW,
  price: 200,
  currency: 'BRL',
  exclusion: null,
  sessionStartedAt: NOW - 10 * MINUTE,
  sessionMinutes: null,
  realityCheckDueAt: null,
  lastBuyAt: null,
  minMsBetweenBuys: 0,
  limits: [],
  ...input,
});

describe('decideBuy', () => {
  it('passes a player with no limits', () => {
    expect(decideBuy(buy())).toEqual({ ok: true });
  });

  it('passes the card that reaches a loss limit and refuses the next', () => {
    expect(decideBuy(buy({ limits: [lossLimit] }))).toEqual({ ok: true });
    expect(decideBuy(buy({ limits: [{ ...lossLimit, used: 4801 }] }))).toEqual({
      ok: false,
      code: 'LIMIT_REACHED',
      limit: { ...lossLimit, used: 4801 },
    });
  });

  it('refuses an excluded player until the exclusion ends', () => {
    const exclusion = { reason: 'self' as const, until: NOW + 1 };
    expect(decideBuy(buy({ exclusion }))).toEqual({ ok: false, code: 'PLAYER_EXCLUDED', until: NOW + 1 });
    expect(decideBuy(buy({ exclusion, now: NOW + 1 }))).toEqual({ ok: true });
    expect(decideBuy(buy({ exclusion: { reason: 'operator', until: null } })).ok).toBe(false);
  });

  it('refuses a buy once the session has lasted its minutes', () => {
    const session = { sessionStartedAt: NOW - 30 * MINUTE, sessionMinutes: 30 };
    expect(decideBuy(buy({ ...session, now: NOW - 1 }))).toEqual({ ok: true });
    expect(decideBuy(buy(session))).toEqual({ ok: false, code: 'SESSION_TIME_LIMIT', endedAt: NOW });
  });

  it('holds the buy once a reality check is due', () => {
    expect(decideBuy(buy({ realityCheckDueAt: NOW + 1 }))).toEqual({ ok: true });
    expect(decideBuy(buy({ realityCheckDueAt: NOW }))).toEqual({
      ok: false,
      code: 'REALITY_CHECK',
      dueAt: NOW,
    });
  });

  it('makes a buy within the minimum time of the last one wait', () => {
    const pace = { lastBuyAt: NOW - 4_999, minMsBetweenBuys: 5_000 };
    expect(decideBuy(buy(pace))).toEqual({ ok: false, code: 'BUY_TOO_SOON', retryAt: NOW + 1 });
    expect(decideBuy(buy({ ...pace, now: NOW + 1 }))).toEqual({ ok: true });
  });

  it('answers the first failing check: exclusion, session time, reality check, pace, limits', () => {
    const everything = buy({
      exclusion: { reason: 'self', until: null },
      sessionStartedAt: NOW - 60 * MINUTE,
      sessionMinutes: 30,
      realityCheckDueAt: NOW,
      lastBuyAt: NOW,
      minMsBetweenBuys: 5_000,
      limits: [{ ...lossLimit, used: 5000 }],
    });
    const codes = [];
    let input = everything;
    for (const clear of [
      { exclusion: null },
      { sessionMinutes: null },
      { realityCheckDueAt: null },
      { lastBuyAt: null },
      { limits: [] },
    ]) {
      const decision = decideBuy(input);
      codes.push(decision.ok ? 'ok' : decision.code);
      input = { ...input, ...clear };
    }
    codes.push(decideBuy(input).ok ? 'ok' : 'refused');
    expect(codes).toEqual([
      'PLAYER_EXCLUDED',
      'SESSION_TIME_LIMIT',
      'REALITY_CHECK',
      'BUY_TOO_SOON',
      'LIMIT_REACHED',
      'ok',
    ]);
  });

  it('passes a buy exactly when no limit in its currency would be crossed (property)', () => {
    const anyLimit = fc.record({
      type: fc.constantFrom('loss' as const, 'wager' as const),
      period: fc.constantFrom('day' as const, 'week' as const, 'month' as const),
      currency: fc.constantFrom('BRL', 'USD'),
      amount: fc.integer({ min: 1, max: 1e7 }),
      used: fc.integer({ min: -1e7, max: 1e7 }),
      resetAt: fc.integer({ min: NOW + 1, max: NOW + 1e10 }),
    });
    fc.assert(
      fc.property(fc.array(anyLimit, { maxLength: 6 }), fc.integer({ min: 1, max: 1e6 }), (limits, price) => {
        const decision = decideBuy(buy({ limits, price }));
        const crossed = limits.filter(
          (limit) => limit.currency === 'BRL' && limit.used + price > limit.amount,
        );
        expect(decision.ok).toBe(crossed.length === 0);
        if (!decision.ok && decision.code === 'LIMIT_REACHED') {
          expect(crossed).toContain(decision.limit);
          for (const other of crossed) expect(other.resetAt).toBeLessThanOrEqual(decision.limit.resetAt);
        }
      }),
    );
  });
});
