import { LIMIT_PERIODS, type LimitPeriod } from './limit-periods.ts';

/**
 * Loss and wager limits (CONTRACT §13). Amounts are integer minor units of the limit's currency.
 * Loss = completed bets − completed prizes − completed rollbacks; wager = completed bets.
 */

export const LIMIT_TYPES = ['loss', 'wager'] as const;
export type LimitType = (typeof LIMIT_TYPES)[number];

/** Which limit: one per type, period and currency. */
export interface LimitKey {
  type: LimitType;
  period: LimitPeriod;
  currency: string;
}

export interface MoneyLimit extends LimitKey {
  amount: number;
}

/** A limit with what the player has lost or wagered in its current period (may be negative for a loss). */
export interface LimitUsage extends MoneyLimit {
  used: number;
  resetAt: number;
}

/** A player's completed wallet movements in one currency over a period, minor units, each sum ≥ 0. */
export interface PeriodTotals {
  bets: number;
  prizes: number;
  rollbacks: number;
}

/**
 * What a limit has used of its amount, as CONTRACT §13 defines it: loss = completed bets − completed
 * prizes − completed rollbacks, wager = completed bets. A voided round's bet is `completed` beside its
 * refund (docs/reconciliation.md's pair rule), so it counts toward a wager limit though it came back;
 * docs/player-protection.md proposes netting rollbacks out of the wager, not adopted.
 */
export function limitUsed(type: LimitType, totals: PeriodTotals): number {
  return type === 'wager' ? totals.bets : totals.bets - totals.prizes - totals.rollbacks;
}

/** A stable text key of a limit, e.g. `loss:day:BRL`, for maps and storage. */
export function limitKeyOf(limit: LimitKey): string {
  return `${limit.type}:${limit.period}:${limit.currency}`;
}

export function parseLimitKey(key: string): LimitKey | undefined {
  const [type, period, currency, extra] = key.split(':');
  if (extra !== undefined || currency === undefined || !/^[A-Z]{3}$/.test(currency)) return undefined;
  if (!(LIMIT_TYPES as readonly string[]).includes(type as string)) return undefined;
  if (!(LIMIT_PERIODS as readonly string[]).includes(period as string)) return undefined;
  return { type: type as LimitType, period: period as LimitPeriod, currency };
}

/**
 * Whether a card of `price` would take the usage past the limit. Reaching the amount exactly is allowed:
 * the card before the one that would cross it passes. A loss limit counts the price as lost, the worst
 * case, because the prize is not known to count until the card is revealed.
 */
export function wouldCross(usage: Pick<LimitUsage, 'amount' | 'used'>, price: number): boolean {
  return usage.used + price > usage.amount;
}

/**
 * Of the limits in the card's currency, the one the card would cross; when several, the one that resets
 * last, since the player may buy again only when it has reset. Undefined: the card passes every limit.
 */
export function crossedLimit(
  usages: readonly LimitUsage[],
  price: number,
  currency: string,
): LimitUsage | undefined {
  let crossed: LimitUsage | undefined;
  for (const usage of usages) {
    if (usage.currency !== currency || !wouldCross(usage, price)) continue;
    if (crossed === undefined || usage.resetAt > crossed.resetAt) crossed = usage;
  }
  return crossed;
}
