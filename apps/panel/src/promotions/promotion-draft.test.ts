import { PROMOTION_LIMITS } from '@raspa/core';
import { describe, expect, it } from 'vitest';
import { parsePlayerIds } from './player-ids.ts';
import { checkPromotionDraft, type PromotionDraft, utcInputToIso } from './promotion-draft.ts';

const NOW = Date.parse('2026-11-26T07:00:00.000Z');
const draft = (change: Partial<PromotionDraft> = {}): PromotionDraft => ({
  name: ' Welcome ',
  cardsPerPlayer: '3',
  startAt: '',
  expireAt: '2026-12-31T23:59',
  ids: parsePlayerIds('p-1\np-2\np-1'),
  ...change,
});
const kinds = (change: Partial<PromotionDraft>) => {
  const checked = checkPromotionDraft(draft(change), NOW);
  return checked.ok
    ? []
    : checked.problems.map((problem) => ('rule' in problem ? problem.rule : problem.kind));
};

describe('checkPromotionDraft', () => {
  it('answers the body to send, the name trimmed, the ids once, the times in UTC', () => {
    expect(checkPromotionDraft(draft({ startAt: '2026-12-01T00:00' }), NOW)).toEqual({
      ok: true,
      value: {
        name: 'Welcome',
        cardsPerPlayer: 3,
        startAt: '2026-12-01T00:00:00.000Z',
        expireAt: '2026-12-31T23:59:00.000Z',
        players: ['p-1', 'p-2'],
      },
    });
  });

  it('holds the service’s limits on the name and the cards per player, at their edges', () => {
    const { nameLength, cardsPerPlayer } = PROMOTION_LIMITS;
    expect(kinds({ name: '   ' })).toEqual(['name']);
    expect(kinds({ name: 'x'.repeat(nameLength.max) })).toEqual([]);
    expect(kinds({ name: 'x'.repeat(nameLength.max + 1) })).toEqual(['name']);
    expect(kinds({ cardsPerPlayer: String(cardsPerPlayer.max) })).toEqual([]);
    for (const cards of ['0', String(cardsPerPlayer.max + 1), '1.5', '', 'two']) {
      expect(kinds({ cardsPerPlayer: cards })).toEqual(['cards']);
    }
  });

  it('refuses no ids, and ids with lines it cannot use', () => {
    expect(kinds({ ids: parsePlayerIds('\n\n') })).toEqual(['no-ids']);
    expect(kinds({ ids: parsePlayerIds('p-1\nJoão Silva') })).toEqual(['id-lines']);
  });

  it('checks the times by the core’s rule: in the future, after the start, at most 366 days', () => {
    expect(kinds({ expireAt: '2026-11-26T06:59' })).toEqual(['future']);
    expect(kinds({ startAt: '2026-12-31T23:59' })).toEqual(['order']);
    expect(kinds({ startAt: '2026-12-01T00:00', expireAt: '2027-12-02T00:01' })).toEqual(['long']);
    expect(kinds({ expireAt: 'soon' })).toEqual(['bad-time']);
    expect(kinds({ startAt: '2026-13-01T00:00' })).toEqual(['bad-time']);
  });
});

describe('utcInputToIso', () => {
  it('reads a datetime-local value as UTC', () => {
    expect(utcInputToIso('2026-03-01T12:00')).toBe('2026-03-01T12:00:00.000Z');
    expect(utcInputToIso('2026-03-01T12:00:30')).toBe('2026-03-01T12:00:30.000Z');
    expect(utcInputToIso('2026-03-01')).toBeUndefined();
  });
});
