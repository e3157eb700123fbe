import { type FreeCardGrant, type FreeCardsState, freeCardsFigure } from '@raspa/core';
import type { PlayerGrant } from '../store/records.ts';

/** A stored grant as core's rules take it (times in epoch milliseconds). Pure. */
export function freeCardGrantOf(grant: PlayerGrant): FreeCardGrant {
  return {
    promotionId: grant.promotionId,
    count: grant.cards,
    used: grant.used,
    startAt: Date.parse(grant.startAt),
    expireAt: Date.parse(grant.expireAt),
    cancelledAt: grant.cancelledAt === null ? null : Date.parse(grant.cancelledAt),
  };
}

/** The page's `freeCards` (docs/play-protocol.md): core's figure, its time as ISO 8601 like the protocol's others. */
export function freeCardsState(grants: readonly FreeCardGrant[], now: number): FreeCardsState {
  const { count, expireAt } = freeCardsFigure(grants, now);
  return { count, expireAt: expireAt === null ? null : new Date(expireAt).toISOString() };
}

/** What the page is told when a buy found no usable card (a bought card's answer). */
export const NO_FREE_CARDS: FreeCardsState = { count: 0, expireAt: null };
