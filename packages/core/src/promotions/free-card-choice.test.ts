import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardsLeft, chooseFreeCard, type FreeCardGrant, planBuy, usableCards } from './free-card-choice.ts';
import { promotionStatus } from './promotion-status.ts';

const DAY = 86_400_000;
const NOW = Date.parse('2026-03-10T12:00:00.000Z');

function grant(promotionId: string, fields: Partial<FreeCardGrant> = {}): FreeCardGrant {
  return {
    promotionId,
    count: 3,
    used: 0,
    startAt: NOW - DAY,
    expireAt: NOW + DAY,
    cancelledAt: null,
    ...fields,
  };
}

describe('usableCards and cardsLeft', () => {
  it('counts the unused cards of an active grant, usable and left alike', () => {
    const g = grant('p', { count: 5, used: 2 });
    expect([usableCards(g, NOW), cardsLeft(g, NOW)]).toEqual([3, 3]);
  });

  it('has none usable before the start, but keeps them as left', () => {
    const g = grant('p', { startAt: NOW + 1 });
    expect([usableCards(g, NOW), cardsLeft(g, NOW)]).toEqual([0, 3]);
  });

  it('has none at all once expired, cancelled or spent', () => {
    for (const g of [
      grant('expired', { expireAt: NOW }),
      grant('cancelled', { cancelledAt: NOW - 1 }),
      grant('cancelled-before-start', { startAt: NOW + 1, cancelledAt: NOW - 1 }),
      grant('spent', { used: 3 }),
    ]) {
      expect([g.promotionId, usableCards(g, NOW), cardsLeft(g, NOW)]).toEqual([g.promotionId, 0, 0]);
    }
  });
});

describe('chooseFreeCard', () => {
  it('is null with no grants', () => {
    expect(chooseFreeCard([], NOW)).toBeNull();
  });

  it('takes the usable grant expiring first, skipping expired, cancelled, spent and scheduled ones', () => {
    const grants = [
      grant('later', { expireAt: NOW + 5 * DAY }),
      grant('expired', { expireAt: NOW - 1 }),
      grant('cancelled', { expireAt: NOW + 1, cancelledAt: NOW - DAY }),
      grant('spent', { expireAt: NOW + 2, used: 3 }),
      grant('scheduled', { startAt: NOW + 1, expireAt: NOW + 3 }),
      grant('first', { expireAt: NOW + 2 * DAY }),
    ];
    expect(chooseFreeCard(grants, NOW)?.promotionId).toBe('first');
  });

  it('breaks a tie of expiry by the earlier start, then by id, whatever the order given', () => {
    const grants = [grant('b'), grant('a'), grant('c', { startAt: NOW - 2 * DAY })];
    expect(chooseFreeCard(grants, NOW)?.promotionId).toBe('c');
    expect(chooseFreeCard(grants.slice(0, 2), NOW)?.promotionId).toBe('a');
    expect(chooseFreeCard(grants.slice(0, 2).reverse(), NOW)?.promotionId).toBe('a');
  });

  const arbitraryGrant = fc.record({
    promotionId: fc.string({ minLength: 1, maxLength: 3 }),
    count: fc.integer({ min: 1, max: 5 }),
    used: fc.integer({ min: 0, max: 5 }),
    startAt: fc.integer({ min: NOW - 3 * DAY, max: NOW + DAY }),
    expireAt: fc.integer({ min: NOW - DAY, max: NOW + 3 * DAY }),
    cancelledAt: fc.option(fc.constant(NOW - 1)),
  });

  it('for every set of grants: picks a usable one, none expiring earlier is usable, and null only when none is', () => {
    fc.assert(
      fc.property(fc.array(arbitraryGrant, { maxLength: 8 }), (grants) => {
        const chosen = chooseFreeCard(grants, NOW);
        const usable = grants.filter((g) => usableCards(g, NOW) > 0);
        if (chosen === null) {
          expect(usable).toEqual([]);
          return;
        }
        expect(promotionStatus(chosen, NOW)).toBe('active');
        expect(chosen.used).toBeLessThan(chosen.count);
        for (const other of usable) expect(other.expireAt).toBeGreaterThanOrEqual(chosen.expireAt);
        // The same grants in another order give the same choice: instances agree.
        expect(chooseFreeCard([...grants].reverse(), NOW)?.promotionId).toBe(chosen.promotionId);
      }),
    );
  });

  it('uses every usable card exactly once when buys repeat until none is left', () => {
    fc.assert(
      fc.property(fc.array(arbitraryGrant, { maxLength: 6 }), (generated) => {
        // Ids unique, as a player has one grant per promotion.
        const grants = generated.map((g, index) => ({ ...g, promotionId: `p${index}` }));
        const total = grants.reduce((sum, g) => sum + usableCards(g, NOW), 0);
        let free = 0;
        for (let chosen = chooseFreeCard(grants, NOW); chosen; chosen = chooseFreeCard(grants, NOW)) {
          chosen.used += 1;
          free += 1;
          expect(free).toBeLessThanOrEqual(total);
        }
        expect(free).toBe(total);
      }),
    );
  });
});

describe('planBuy', () => {
  it('plays a free round with no bet and paidMinor 0 when a card is usable', () => {
    expect(planBuy([grant('p')], 250, NOW)).toEqual({
      kind: 'free',
      promotionId: 'p',
      paidMinor: 0,
      sendsBet: false,
    });
  });

  it('buys the card at its price when no card is usable (expired or cancelled mid-play included)', () => {
    const bought = { kind: 'bought', promotionId: null, paidMinor: 250, sendsBet: true };
    expect(planBuy([], 250, NOW)).toEqual(bought);
    expect(planBuy([grant('p', { expireAt: NOW })], 250, NOW)).toEqual(bought);
    expect(planBuy([grant('p', { cancelledAt: NOW })], 250, NOW)).toEqual(bought);
  });
});
