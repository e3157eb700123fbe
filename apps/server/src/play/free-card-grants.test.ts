import { describe, expect, it } from 'vitest';
import type { PlayerGrant } from '../store/records.ts';
import { freeCardGrantOf, freeCardsState, NO_FREE_CARDS } from './free-card-grants.ts';

const grant = (over: Partial<PlayerGrant> = {}): PlayerGrant => ({
  promotionId: 'promo-1',
  gameId: 'game-1',
  name: 'Welcome',
  cards: 3,
  used: 1,
  startAt: '2026-03-01T00:00:00.000Z',
  expireAt: '2026-03-02T00:00:00.000Z',
  cancelledAt: null,
  ...over,
});

const NOON = Date.parse('2026-03-01T12:00:00.000Z');

describe('free card grants', () => {
  it('a stored grant becomes core’s, its times in milliseconds', () => {
    expect(freeCardGrantOf(grant({ cancelledAt: '2026-03-01T06:00:00.000Z' }))).toEqual({
      promotionId: 'promo-1',
      count: 3,
      used: 1,
      startAt: Date.parse('2026-03-01T00:00:00.000Z'),
      expireAt: Date.parse('2026-03-02T00:00:00.000Z'),
      cancelledAt: Date.parse('2026-03-01T06:00:00.000Z'),
    });
  });

  it('the page’s figure counts the usable cards and gives the first expiry as ISO 8601', () => {
    const grants = [
      grant(),
      grant({ promotionId: 'promo-2', cards: 1, used: 0, expireAt: '2026-03-01T18:00:00.000Z' }),
      grant({ promotionId: 'spent', cards: 2, used: 2, expireAt: '2026-03-01T13:00:00.000Z' }),
      grant({ promotionId: 'cancelled', cancelledAt: '2026-03-01T01:00:00.000Z' }),
      grant({ promotionId: 'later', startAt: '2026-03-01T20:00:00.000Z' }),
    ].map(freeCardGrantOf);
    expect(freeCardsState(grants, NOON)).toEqual({ count: 3, expireAt: '2026-03-01T18:00:00.000Z' });
    expect(freeCardsState([], NOON)).toEqual(NO_FREE_CARDS);
    expect(freeCardsState(grants, Date.parse('2026-03-02T00:00:00.000Z'))).toEqual(NO_FREE_CARDS);
  });
});
