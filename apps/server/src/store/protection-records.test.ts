import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exclusionOf, moneyStatesOf, rowOf, stateOf } from './protection-records.ts';

const instant = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) });
const amount = fc.option(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), { nil: null });
const state = fc.record({
  value: amount,
  pending: fc.option(fc.record({ value: amount, appliesAt: instant }), { nil: null }),
});

describe('protection records', () => {
  it('keep a limit state as it was through a stored row and back', () => {
    fc.assert(
      fc.property(state, (each) => {
        expect(stateOf(rowOf('loss:day:BRL', each))).toEqual(each);
      }),
    );
  });

  it('tell money limits from the session’s and reality check’s rows', () => {
    const rows = [
      rowOf('wager:week:USD', { value: 100, pending: null }),
      rowOf('session-minutes', { value: 30, pending: null }),
      rowOf('reality-check-minutes', { value: 60, pending: null }),
    ];
    expect([...moneyStatesOf(rows).keys()]).toEqual(['wager:week:USD']);
  });

  it('read a stored exclusion as the rule takes it', () => {
    expect(exclusionOf(undefined)).toBeNull();
    const base = { playerId: 'p', createdAt: '2026-01-01T00:00:00.000Z' };
    expect(exclusionOf({ ...base, reason: 'self', endsAt: null })).toEqual({ reason: 'self', until: null });
    expect(exclusionOf({ ...base, reason: 'operator', endsAt: '2026-01-02T00:00:00.000Z' })).toEqual({
      reason: 'operator',
      until: Date.UTC(2026, 0, 2),
    });
  });
});
