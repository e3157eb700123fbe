import { LIMIT_PERIODS, LIMIT_TYPES, type MoneyLimit } from '@raspa/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lastAskedLimits, previewLimitChanges } from './limit-changes-preview.ts';

const loss = (amount: number, currency = 'BRL'): MoneyLimit => ({
  type: 'loss',
  period: 'day',
  currency,
  amount,
});

describe('previewLimitChanges', () => {
  it('applies a first limit and a lower one at once, and makes a raise or a removal wait 24 h', () => {
    const wager: MoneyLimit = { type: 'wager', period: 'week', currency: 'BRL', amount: 500 };
    expect(previewLimitChanges([], [loss(50)])).toEqual([
      { type: 'loss', period: 'day', currency: 'BRL', from: null, to: 50, applies: 'at-once' },
    ]);
    expect(previewLimitChanges([loss(50)], [loss(20)])[0]?.applies).toBe('at-once');
    expect(previewLimitChanges([loss(50)], [loss(80)])[0]?.applies).toBe('after-24h');
    expect(previewLimitChanges([loss(50), wager], [loss(50)])).toEqual([
      { type: 'wager', period: 'week', currency: 'BRL', from: 500, to: null, applies: 'after-24h' },
    ]);
  });

  it('lists nothing for an unchanged limit, even written with other decimals', () => {
    expect(previewLimitChanges([loss(0.1)], [loss(0.1)])).toEqual([]);
    expect(previewLimitChanges([loss(12)], [loss(12.0)])).toEqual([]);
  });

  it('leaves an amount the currency cannot hold to the service (JPY has no decimals)', () => {
    expect(previewLimitChanges([], [loss(1.5, 'JPY')])).toEqual([]);
  });

  it('waits exactly when the new amount is looser than the one in force, for any limits', () => {
    const limit = fc.record({
      type: fc.constantFrom(...LIMIT_TYPES),
      period: fc.constantFrom(...LIMIT_PERIODS),
      currency: fc.constant('BRL'),
      amount: fc.integer({ min: 1, max: 100_000 }).map((cents) => cents / 100),
    });
    fc.assert(
      fc.property(
        fc.option(limit, { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 100_000 })),
        (now, cents) => {
          const current = now ? [now] : [];
          const key = now ?? { type: 'loss' as const, period: 'day' as const, currency: 'BRL' };
          const requested = cents === null ? [] : [{ ...key, amount: cents / 100 }];
          const [change, ...rest] = previewLimitChanges(current, requested);
          expect(rest).toEqual([]);
          const from = now?.amount ?? null;
          const to = cents === null ? null : cents / 100;
          const looser = to === null || (from !== null && to > from);
          if (from === to) expect(change).toBeUndefined();
          else expect(change).toMatchObject({ from, to, applies: looser ? 'after-24h' : 'at-once' });
        },
      ),
    );
  });
});

describe('lastAskedLimits', () => {
  it('shows each looser value waiting in place of the one in force, and leaves out a removal waiting', () => {
    const wager: MoneyLimit = { type: 'wager', period: 'week', currency: 'BRL', amount: 500 };
    const asked = lastAskedLimits(
      [loss(50), wager],
      [
        { ...loss(0), amount: 80 },
        { ...wager, amount: null },
      ],
    );
    expect(asked).toEqual([loss(80)]);
    // Saved again unchanged, it asks for exactly what waits: nothing applies at once.
    const changes = previewLimitChanges([loss(50), wager], asked);
    expect(changes.every((change) => change.applies === 'after-24h')).toBe(true);
  });

  it('is the limits in force when nothing waits', () => {
    expect(lastAskedLimits([loss(50)], [])).toEqual([loss(50)]);
  });
});
