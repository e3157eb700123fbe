/**
 * A promotion's status from its times, its cancellation and the clock (docs/contract.md §14,
 * docs/promotions.md). Times are epoch milliseconds; `now` is always passed in.
 */

export const PROMOTION_STATUSES = ['scheduled', 'active', 'ended', 'cancelled'] as const;
export type PromotionStatus = (typeof PROMOTION_STATUSES)[number];

/** What decides a promotion's status. Its cards are usable in [startAt, expireAt). */
export interface PromotionTimes {
  startAt: number;
  expireAt: number;
  /** When it was cancelled; null while it is not. */
  cancelledAt: number | null;
}

export function promotionStatus(promotion: PromotionTimes, now: number): PromotionStatus {
  // A cancellation is final whatever the clock says: its unused cards ended with it.
  if (promotion.cancelledAt !== null) return 'cancelled';
  if (now < promotion.startAt) return 'scheduled';
  if (now < promotion.expireAt) return 'active';
  return 'ended';
}

/** Whether the promotion's cards may still be granted or cancelled: it has not ended either way. */
export function isPromotionOpen(status: PromotionStatus): boolean {
  return status === 'scheduled' || status === 'active';
}

/**
 * What `DELETE /v1/promotion/{id}` does: cancels an open promotion; a cancelled one answers as it
 * did (a repeated DELETE changes nothing); an ended one is a CONFLICT, since its cards ended anyway
 * and calling it cancelled would rewrite its history.
 */
export type CancelOutcome = 'cancel' | 'already-cancelled' | 'already-ended';

export function cancelOutcome(status: PromotionStatus): CancelOutcome {
  if (status === 'cancelled') return 'already-cancelled';
  if (status === 'ended') return 'already-ended';
  return 'cancel';
}
