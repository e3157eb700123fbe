import { type PromotionTimes, promotionStatus } from './promotion-status.ts';

/**
 * Which free card a buy uses (docs/promotions.md). Pure: the caller reads the player's grants for
 * the game and applies the choice in the same database transaction as the round's insert, so a
 * card is used once however many buys race (the store's guard, not this rule, makes that true).
 */

/** A player's cards of one promotion for one game, with that promotion's times. */
export interface FreeCardGrant extends PromotionTimes {
  promotionId: string;
  /** Cards granted to the player by this promotion. */
  count: number;
  /** Cards already used (a round opened with each). */
  used: number;
}

/** Cards of `grant` the player may still use now: none before it starts, after it ends or once cancelled. */
export function usableCards(grant: FreeCardGrant, now: number): number {
  if (promotionStatus(grant, now) !== 'active') return 0;
  return Math.max(0, grant.count - grant.used);
}

/** Cards of `grant` still to come: usable now or once it starts. Ended and cancelled grants have none. */
export function cardsLeft(grant: FreeCardGrant, now: number): number {
  const status = promotionStatus(grant, now);
  if (status !== 'active' && status !== 'scheduled') return 0;
  return Math.max(0, grant.count - grant.used);
}

/** Orders grants by the card to use first: the earliest expiry, then the earliest start, then the id. */
export function byFirstToExpire(
  a: Pick<FreeCardGrant, 'promotionId' | 'startAt' | 'expireAt'>,
  b: Pick<FreeCardGrant, 'promotionId' | 'startAt' | 'expireAt'>,
): number {
  if (a.expireAt !== b.expireAt) return a.expireAt - b.expireAt;
  if (a.startAt !== b.startAt) return a.startAt - b.startAt;
  return a.promotionId < b.promotionId ? -1 : a.promotionId > b.promotionId ? 1 : 0;
}

/**
 * The grant a buy at `now` takes its card from: the usable one expiring first (so the player loses
 * as few cards to expiry as possible), or null when none is usable and the card is bought.
 * Ties are broken by start and id, so every instance picks the same grant.
 */
export function chooseFreeCard(grants: readonly FreeCardGrant[], now: number): FreeCardGrant | null {
  let chosen: FreeCardGrant | null = null;
  for (const grant of grants) {
    if (usableCards(grant, now) === 0) continue;
    if (chosen === null || byFirstToExpire(grant, chosen) < 0) chosen = grant;
  }
  return chosen;
}

/**
 * What the round of a buy records and whether the wallet is asked for a bet. A free round is a
 * round like any other (same pool draw, same prize flow, a prize sent with its `promotionId`); it
 * only skips the bet. Once opened it never looks at its promotion again, so a card in play when
 * the promotion is cancelled or expires finishes and its prize is paid.
 */
export type BuyPlan =
  | { kind: 'free'; promotionId: string; paidMinor: 0; sendsBet: false }
  | { kind: 'bought'; promotionId: null; paidMinor: number; sendsBet: true };

export function planBuy(grants: readonly FreeCardGrant[], priceMinor: number, now: number): BuyPlan {
  const grant = chooseFreeCard(grants, now);
  if (grant === null) return { kind: 'bought', promotionId: null, paidMinor: priceMinor, sendsBet: true };
  return { kind: 'free', promotionId: grant.promotionId, paidMinor: 0, sendsBet: false };
}
