import { type Exclusion, type LimitKey, type LimitState, parseLimitKey } from '@raspa/core';
import type { ExclusionRecord, StoredLimitRecord } from './records.ts';

/**
 * The stored limit rows and exclusion (015_player_protection.sql) as the core's rules take them,
 * and back: times are ISO text in the store and epoch ms in the rules (core limit-changes.ts,
 * exclusion.ts).
 */

export const exclusionOf = (
  record: Pick<ExclusionRecord, 'reason' | 'endsAt'> | null | undefined,
): Exclusion | null =>
  record ? { reason: record.reason, until: record.endsAt === null ? null : Date.parse(record.endsAt) } : null;

export function stateOf(row: StoredLimitRecord): LimitState {
  return {
    value: row.value,
    pending:
      row.pendingAppliesAt === null
        ? null
        : { value: row.pendingValue, appliesAt: Date.parse(row.pendingAppliesAt) },
  };
}

export function rowOf(key: string, state: LimitState): StoredLimitRecord {
  return {
    key,
    value: state.value,
    pendingValue: state.pending?.value ?? null,
    pendingAppliesAt: state.pending ? new Date(state.pending.appliesAt).toISOString() : null,
  };
}

/** The money limits among the rows (keys such as `loss:day:BRL`), by key. */
export function moneyStatesOf(rows: readonly StoredLimitRecord[]): Map<string, LimitState> {
  return new Map(rows.filter((row) => parseLimitKey(row.key)).map((row) => [row.key, stateOf(row)]));
}

/** The state stored under `key`, if any. */
export function stateAt(rows: readonly StoredLimitRecord[], key: string): LimitState | undefined {
  const row = rows.find((each) => each.key === key);
  return row && stateOf(row);
}

/** A money limit's key parsed back; the keys come from limitKeyOf, so a bad one is a bug. */
export function keyOf(key: string): LimitKey {
  const parsed = parseLimitKey(key);
  if (!parsed) throw new Error(`stored limit key ${key} is not a money limit`);
  return parsed;
}
