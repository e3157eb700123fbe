import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  changeLimit,
  changeLimits,
  isAtLeastAsStrict,
  LIMIT_COOLING_OFF_MS,
  type LimitState,
  NO_LIMIT,
  settleLimit,
} from './limit-changes.ts';

const NOW = Date.parse('2026-11-26T03:00:00.000Z');
const limitOf = (value: number | null): LimitState => ({ value, pending: null });

describe('changeLimit', () => {
  it('applies a lower limit at once', () => {
    expect(changeLimit(limitOf(5000), 2000, NOW)).toEqual(limitOf(2000));
  });

  it('applies a first limit at once (from none, any limit is stricter)', () => {
    expect(changeLimit(NO_LIMIT, 2000, NOW)).toEqual(limitOf(2000));
  });

  it('keeps a higher limit waiting 24 h, then applies it', () => {
    const raised = changeLimit(limitOf(2000), 5000, NOW);
    expect(raised).toEqual({ value: 2000, pending: { value: 5000, appliesAt: NOW + LIMIT_COOLING_OFF_MS } });
    expect(settleLimit(raised, NOW + LIMIT_COOLING_OFF_MS - 1)).toEqual(raised);
    expect(settleLimit(raised, NOW + LIMIT_COOLING_OFF_MS)).toEqual(limitOf(5000));
  });

  it('keeps a removal waiting 24 h like any raise', () => {
    expect(changeLimit(limitOf(2000), null, NOW)).toEqual({
      value: 2000,
      pending: { value: null, appliesAt: NOW + LIMIT_COOLING_OFF_MS },
    });
  });

  it('does not restart the clock when the same raise is asked again', () => {
    const raised = changeLimit(limitOf(2000), 5000, NOW);
    expect(changeLimit(raised, 5000, NOW + 3_600_000)).toEqual(raised);
  });

  it('restarts the clock for a different raise', () => {
    const raised = changeLimit(limitOf(2000), 5000, NOW);
    expect(changeLimit(raised, 9000, NOW + 1000).pending).toEqual({
      value: 9000,
      appliesAt: NOW + 1000 + LIMIT_COOLING_OFF_MS,
    });
  });

  it('drops a waiting raise when the limit is lowered or kept', () => {
    const raised = changeLimit(limitOf(2000), 5000, NOW);
    expect(changeLimit(raised, 1000, NOW + 1)).toEqual(limitOf(1000));
    expect(changeLimit(raised, 2000, NOW + 1)).toEqual(limitOf(2000));
  });

  it('raises from the value in force once a raise has applied', () => {
    const raised = changeLimit(limitOf(2000), 5000, NOW);
    const later = NOW + LIMIT_COOLING_OFF_MS + 1;
    expect(changeLimit(raised, 4000, later)).toEqual(limitOf(4000));
  });

  const ceiling = fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: null });
  const anyState = fc.record({
    value: ceiling,
    pending: fc.option(
      fc.record({ value: ceiling, appliesAt: fc.integer({ min: NOW - 1e8, max: NOW + 1e8 }) }),
      {
        nil: null,
      },
    ),
  });

  it('applies a stricter value at once and keeps a looser one out for 24 h (property)', () => {
    fc.assert(
      fc.property(
        anyState,
        ceiling,
        fc.integer({ min: 0, max: LIMIT_COOLING_OFF_MS - 1 }),
        (state, requested, wait) => {
          const before = settleLimit(state, NOW);
          const changed = changeLimit(state, requested, NOW);
          if (isAtLeastAsStrict(requested, before.value)) {
            expect(changed).toEqual({ value: requested, pending: null });
          } else if (before.pending?.value !== requested) {
            // A looser value asked for now: the limit in force stays as it was for the whole cooling-off.
            expect(settleLimit(changed, NOW + wait).value).toBe(before.value);
          } else {
            expect(changed).toEqual(before);
          }
        },
      ),
    );
  });

  it('gives the value asked for once 24 h have passed (property)', () => {
    fc.assert(
      fc.property(anyState, ceiling, (state, requested) => {
        const later = Math.max(NOW, state.pending?.appliesAt ?? NOW) + LIMIT_COOLING_OFF_MS;
        expect(settleLimit(changeLimit(state, requested, NOW), later).value).toBe(requested);
      }),
    );
  });
});

describe('changeLimits', () => {
  it('lowers, raises, adds and removes a whole set at once', () => {
    const current = new Map<string, LimitState>([
      ['loss:day:BRL', limitOf(5000)],
      ['wager:week:BRL', limitOf(10000)],
      ['loss:month:BRL', limitOf(20000)],
    ]);
    const next = changeLimits(
      current,
      new Map([
        ['loss:day:BRL', 3000],
        ['wager:week:BRL', 15000],
        ['wager:day:BRL', 1000],
      ]),
      NOW,
    );
    expect(Object.fromEntries(next)).toEqual({
      'loss:day:BRL': limitOf(3000),
      'wager:week:BRL': { value: 10000, pending: { value: 15000, appliesAt: NOW + LIMIT_COOLING_OFF_MS } },
      'loss:month:BRL': { value: 20000, pending: { value: null, appliesAt: NOW + LIMIT_COOLING_OFF_MS } },
      'wager:day:BRL': limitOf(1000),
    });
  });

  it('forgets a limit once its removal has applied', () => {
    const removing = new Map<string, LimitState>([
      ['loss:day:BRL', { value: 5000, pending: { value: null, appliesAt: NOW } }],
    ]);
    expect(changeLimits(removing, new Map(), NOW).size).toBe(0);
  });
});
