import { byFirstToExpire, cardsLeft, type FreeCardGrant, usableCards } from './free-card-choice.ts';
import { type PromotionStatus, promotionStatus } from './promotion-status.ts';

/**
 * The free-card figures a player is shown (docs/promotions.md): the `freeCards` of the play
 * protocol's `state` for the session's game, and the per-promotion list of
 * `GET /v1/user/{userId}/free-cards`. Times are epoch milliseconds.
 */

/** `state.freeCards`: the cards usable now and when the first of them expires (null when none). */
export interface FreeCardsFigure {
  count: number;
  expireAt: number | null;
}

export function freeCardsFigure(grants: readonly FreeCardGrant[], now: number): FreeCardsFigure {
  let count = 0;
  let expireAt: number | null = null;
  for (const grant of grants) {
    const usable = usableCards(grant, now);
    if (usable === 0) continue;
    count += usable;
    if (expireAt === null || grant.expireAt < expireAt) expireAt = grant.expireAt;
  }
  return { count, expireAt };
}

/** One promotion's line of a player's free cards: what is left of it, usable now or once it starts. */
export interface FreeCardsLine {
  promotionId: string;
  left: number;
  status: Extract<PromotionStatus, 'scheduled' | 'active'>;
  startAt: number;
  expireAt: number;
}

/** The promotions a player still has cards of, the first to expire first; spent, ended and cancelled ones are left out. */
export function freeCardsLines(grants: readonly FreeCardGrant[], now: number): FreeCardsLine[] {
  const lines: FreeCardsLine[] = [];
  for (const grant of grants) {
    const left = cardsLeft(grant, now);
    if (left === 0) continue;
    const status = promotionStatus(grant, now) === 'active' ? 'active' : 'scheduled';
    lines.push({
      promotionId: grant.promotionId,
      left,
      status,
      startAt: grant.startAt,
      expireAt: grant.expireAt,
    });
  }
  return lines.sort(byFirstToExpire);
}
