import { type Exclusion, isExcluded } from './exclusion.ts';
import { nextBuyAllowedAt } from './jurisdictions.ts';
import { crossedLimit, type LimitUsage } from './money-limits.ts';
import { sessionTimeEndsAt } from './session-time.ts';

/**
 * Whether a buy may go ahead, decided before the wallet is called (CONTRACT §13). The checks run in a
 * fixed order and the first that fails is the answer: an excluded player is told so whatever else
 * holds; then the session's end, the reality check, the pace of buys; the money limits last, as the only
 * check that needs the usage read from the store. Times are epoch ms; money is integer minor units.
 */

export interface BuyInput {
  now: number;
  price: number;
  currency: string;
  exclusion: Exclusion | null;
  sessionStartedAt: number;
  sessionMinutes: number | null;
  /** When the next reality check falls due (realityCheckDueAt); null: none. */
  realityCheckDueAt: number | null;
  lastBuyAt: number | null;
  minMsBetweenBuys: number;
  /** The player's loss and wager limits with their usage (any currency; others are ignored). */
  limits: readonly LimitUsage[];
}

export type BuyDecision =
  | { ok: true }
  | { ok: false; code: 'PLAYER_EXCLUDED'; until: number | null }
  | { ok: false; code: 'SESSION_TIME_LIMIT'; endedAt: number }
  | { ok: false; code: 'REALITY_CHECK'; dueAt: number }
  | { ok: false; code: 'BUY_TOO_SOON'; retryAt: number }
  | { ok: false; code: 'LIMIT_REACHED'; limit: LimitUsage };

export type BuyRefusal = Exclude<BuyDecision, { ok: true }>;

export function decideBuy(input: BuyInput): BuyDecision {
  const { now } = input;
  if (isExcluded(input.exclusion, now)) {
    return { ok: false, code: 'PLAYER_EXCLUDED', until: input.exclusion?.until ?? null };
  }
  const endsAt = sessionTimeEndsAt(input.sessionStartedAt, input.sessionMinutes);
  if (endsAt !== null && now >= endsAt) return { ok: false, code: 'SESSION_TIME_LIMIT', endedAt: endsAt };
  if (input.realityCheckDueAt !== null && now >= input.realityCheckDueAt) {
    return { ok: false, code: 'REALITY_CHECK', dueAt: input.realityCheckDueAt };
  }
  const allowedAt = nextBuyAllowedAt(input.lastBuyAt, input.minMsBetweenBuys, now);
  if (allowedAt > now) return { ok: false, code: 'BUY_TOO_SOON', retryAt: allowedAt };
  const limit = crossedLimit(input.limits, input.price, input.currency);
  if (limit !== undefined) return { ok: false, code: 'LIMIT_REACHED', limit };
  return { ok: true };
}
