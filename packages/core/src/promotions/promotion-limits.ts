/**
 * The limits of the promotions API (docs/contract.md §14, docs/promotions.md), shared by the wire
 * schemas and the panel's form. Checks that need the clock are here, pure, with `now` passed in
 * (epoch milliseconds): a zod schema has no clock.
 */

export const PROMOTION_LIMITS = {
  /** Cards each listed player gets. */
  cardsPerPlayer: { min: 1, max: 1000 },
  /** Players per create or add-players call; more are added with further calls. */
  playersPerCall: { min: 1, max: 10_000 },
  /** The promotion's name, for the operator's staff. */
  nameLength: { min: 1, max: 120 },
  /** At most this long from start to expiry, so a mistyped year cannot keep cards alive for ages. */
  maxDurationMs: 366 * 86_400_000,
} as const;

export interface PromotionTimesInput {
  /** Null when not given: the promotion starts when it is created. */
  startAt: number | null;
  expireAt: number;
}

export interface PromotionProblem {
  field: 'startAt' | 'expireAt';
  message: string;
}

/** Why a promotion's times cannot be accepted at `now`, one problem per field at most; empty when they can. */
export function promotionTimeProblems(input: PromotionTimesInput, now: number): PromotionProblem[] {
  const startAt = input.startAt ?? now;
  if (input.expireAt <= now) return [{ field: 'expireAt', message: 'must be in the future' }];
  if (input.expireAt <= startAt) return [{ field: 'expireAt', message: 'must be after startAt' }];
  if (input.expireAt - startAt > PROMOTION_LIMITS.maxDurationMs) {
    return [{ field: 'expireAt', message: 'must be at most 366 days after startAt' }];
  }
  return [];
}
