import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardsLeft, type FreeCardGrant, usableCards } from './free-card-choice.ts';
import { freeCardsFigure, freeCardsLines } from './free-cards-figure.ts';

const DAY = 86_400_000;
const NOW = Date.parse('2026-03-10T12:00:00.000Z');

function grant(promotionId: string, fields: Partial<FreeCardGrant> = {}): FreeCardGrant {
  return {
    promotionId,
    count: 2,
    used: 0,
    startAt: NOW - DAY,
    expireAt: NOW + DAY,
    cancelledAt: null,
    ...fields,
  };
}

describe('freeCardsFigure (state.freeCards)', () => {
  it('is zero cards and no expiry when the player has none usable', () => {
    expect(freeCardsFigure([], NOW)).toEqual({ count: 0, expireAt: null });
    expect(freeCardsFigure([grant('spent', { used: 2 }), grant('later', { startAt: NOW + 1 })], NOW)).toEqual(
      { count: 0, expireAt: null },
    );
  });

  it('adds the usable cards of every grant and gives the first expiry among them', () => {
    const grants = [
      grant('a', { count: 3, used: 1, expireAt: NOW + 3 * DAY }),
      grant('b', { count: 1, expireAt: NOW + DAY }),
      grant('spent-earlier', { used: 2, expireAt: NOW + 1 }),
      grant('cancelled', { cancelledAt: NOW - 1, expireAt: NOW + 2 }),
    ];
    expect(freeCardsFigure(grants, NOW)).toEqual({ count: 3, expireAt: NOW + DAY });
  });

  it('falls by one for each card used, to zero', () => {
    const g = grant('a', { count: 2 });
    const counts = [freeCardsFigure([g], NOW).count];
    g.used += 1;
    counts.push(freeCardsFigure([g], NOW).count);
    g.used += 1;
    counts.push(freeCardsFigure([g], NOW).count);
    expect(counts).toEqual([2, 1, 0]);
  });
});

describe('freeCardsLines (a player’s free cards per promotion)', () => {
  it('lists scheduled and active promotions with cards left, the first to expire first', () => {
    const grants = [
      grant('active-late', { expireAt: NOW + 5 * DAY, used: 1 }),
      grant('scheduled', { startAt: NOW + DAY, expireAt: NOW + 2 * DAY }),
      grant('ended', { expireAt: NOW }),
      grant('cancelled', { cancelledAt: NOW - 1 }),
      grant('spent', { used: 2 }),
    ];
    expect(freeCardsLines(grants, NOW)).toEqual([
      { promotionId: 'scheduled', left: 2, status: 'scheduled', startAt: NOW + DAY, expireAt: NOW + 2 * DAY },
      { promotionId: 'active-late', left: 1, status: 'active', startAt: NOW - DAY, expireAt: NOW + 5 * DAY },
    ]);
  });

  it('agrees with the figure for every set of grants: the active lines add up to its count', () => {
    const arbitraryGrant = fc.record({
      promotionId: fc.uuid(),
      count: fc.integer({ min: 1, max: 4 }),
      used: fc.integer({ min: 0, max: 4 }),
      startAt: fc.integer({ min: NOW - 2 * DAY, max: NOW + DAY }),
      expireAt: fc.integer({ min: NOW - DAY, max: NOW + 2 * DAY }),
      cancelledAt: fc.option(fc.constant(NOW - 1)),
    });
    fc.assert(
      fc.property(fc.array(arbitraryGrant, { maxLength: 8 }), (grants) => {
        const figure = freeCardsFigure(grants, NOW);
        const lines = freeCardsLines(grants, NOW);
        const active = lines.filter((line) => line.status === 'active');
        expect(active.reduce((sum, line) => sum + line.left, 0)).toBe(figure.count);
        expect(figure.expireAt).toBe(active[0]?.expireAt ?? null);
        expect(lines.reduce((sum, line) => sum + line.left, 0)).toBe(
          grants.reduce((sum, g) => sum + cardsLeft(g, NOW), 0),
        );
        for (const g of grants) expect(usableCards(g, NOW)).toBeLessThanOrEqual(cardsLeft(g, NOW));
      }),
    );
  });
});
