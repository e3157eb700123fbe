import type { LedgerFilter } from './records.ts';

/**
 * What both adapters' folded list totals share (issue 23: no counter row written in a round's
 * unit): the ledger's rows counted per hour of created_at, per client, profile and (transactions)
 * type, folded in batches off the round's path; a total adds the folded hours its range covers and
 * counts the rows outside them. Pure: hour arithmetic and which filters the counts answer.
 */

export type LedgerList = 'round' | 'transaction';

export const HOUR_MS = 3_600_000;
/** A reader starts a fold at most this often per process and list. */
export const FOLD_EVERY_MS = 60_000;
/** After every ISO time: a range without an end. */
export const NO_END = '9999';

/** The start of the UTC hour holding `ms`, as an ISO time like created_at. */
export const floorHour = (ms: number): string =>
  new Date(ms - (((ms % HOUR_MS) + HOUR_MS) % HOUR_MS)).toISOString();

/** The first whole hour at or after `iso`. */
export function ceilHour(iso: string): string {
  const ms = Date.parse(iso);
  const floor = floorHour(ms);
  return Date.parse(floor) === ms ? floor : floorHour(ms + HOUR_MS);
}

/**
 * The whole hours `[start, end)` a filter's range covers: the folded counts answer for them, the
 * rows before `start` and from `end` on are counted. `start >= end`: no whole hour.
 */
export function wholeHours(filter: Pick<LedgerFilter, 'from' | 'before'>): { start: string; end: string } {
  return {
    start: filter.from === null ? '' : ceilHour(filter.from),
    end: filter.before === null ? NO_END : floorHour(Date.parse(filter.before)),
  };
}

/**
 * Whether the folded counts can answer this filter: they are kept by client, profile, a
 * transaction's type and hour. A player, a round, a status, or rounds by a transaction's type (a
 * round gains a type after it was counted) are counted from the rows.
 */
export function foldable(list: LedgerList, filter: LedgerFilter): boolean {
  return (
    filter.playerId === null &&
    filter.roundId === null &&
    filter.status === null &&
    (list === 'transaction' || filter.type === null)
  );
}
