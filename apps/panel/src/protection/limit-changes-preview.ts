import { isAtLeastAsStrict, type LimitKey, limitKeyOf, type MoneyLimit, toMinor } from '@raspa/core';

/**
 * What saving the limits form would do, before it is sent, by the core's own rule (`isAtLeastAsStrict`,
 * docs/player-protection.md "Limit changes"): a stricter limit applies at once, a looser one or a
 * removal waits 24 hours. Amounts are compared in minor units, never as doubles.
 */

export interface LimitChange extends LimitKey {
  /** The amount in force now (major units, as the API shows it); null: none. */
  from: number | null;
  /** The amount asked for; null: removed. */
  to: number | null;
  /** When it will apply: now, or once the 24 h cooling-off has passed. */
  applies: 'at-once' | 'after-24h';
}

const minorOf = (amount: number | null, currency: string): number | null => {
  if (amount === null) return null;
  const minor = toMinor(amount, currency);
  return minor.ok ? minor.minor : Number.NaN;
};

/**
 * The limits that change between those in force and those asked for (a limit left out is removed), in
 * the order asked, removals last. A limit asked for with an amount the currency cannot hold is left to
 * the service to refuse.
 */
export function previewLimitChanges(
  current: readonly MoneyLimit[],
  requested: readonly MoneyLimit[],
): LimitChange[] {
  const inForce = new Map(current.map((limit) => [limitKeyOf(limit), limit]));
  const asked = new Map(requested.map((limit) => [limitKeyOf(limit), limit]));
  const changes: LimitChange[] = [];
  const add = (key: LimitKey, from: number | null, to: number | null) => {
    const fromMinor = minorOf(from, key.currency);
    const toMinorValue = minorOf(to, key.currency);
    if (fromMinor === toMinorValue || Number.isNaN(toMinorValue)) return;
    const applies = isAtLeastAsStrict(toMinorValue, fromMinor) ? 'at-once' : 'after-24h';
    changes.push({ type: key.type, period: key.period, currency: key.currency, from, to, applies });
  };
  for (const [key, limit] of asked) add(limit, inForce.get(key)?.amount ?? null, limit.amount);
  for (const [key, limit] of inForce) if (!asked.has(key)) add(limit, limit.amount, null);
  return changes;
}

/** A looser value waiting for its 24 hours (amount null: the limit's removal). */
export interface WaitingLimit extends LimitKey {
  amount: number | null;
}

/**
 * The limits as last asked for: those in force, with each looser value waiting in place of its
 * limit's (a removal waiting leaves the limit out). The form starts from these, so saving it again
 * unchanged asks for the same values and keeps their clocks, instead of cancelling what waits.
 */
export function lastAskedLimits(
  inForce: readonly MoneyLimit[],
  waiting: readonly WaitingLimit[],
): MoneyLimit[] {
  const pending = new Map(waiting.map((limit) => [limitKeyOf(limit), limit]));
  const asked: MoneyLimit[] = [];
  for (const limit of inForce) {
    const next = pending.get(limitKeyOf(limit));
    if (next === undefined) asked.push(limit);
    else if (next.amount !== null) asked.push({ ...limit, amount: next.amount });
    pending.delete(limitKeyOf(limit));
  }
  for (const limit of pending.values())
    if (limit.amount !== null) asked.push({ ...limit, amount: limit.amount });
  return asked;
}
