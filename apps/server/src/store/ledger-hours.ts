import type { LedgerFilter } from './records.ts';

/**
 * What both adapters' folded list totals share (issue 23: no counter row written in a round's
 * unit): the ledger's rows counted per UTC day of created_at, per client, profile and
 * (transactions) type, folded in batches off the round's path; a total adds the folded days its
 * range covers and counts the rows outside them. Pure: the days' arithmetic and which filters
 * SQLite's counts answer (PostgreSQL's also answer rounds by a transaction's type:
 * postgres/ledger-counts.ts).
 */

export type LedgerList = 'round' | 'transaction';

export const DAY_MS = 86_400_000;
/** After every ISO time: a range without an end. */
export const NO_END = '9999';

/** The start of the UTC span (an hour, a day) holding `ms`, as an ISO time like created_at. */
const floorTo = (ms: number, span: number): string =>
  new Date(ms - (((ms % span) + span) % span)).toISOString();

/** The first whole span at or after `iso`. */
function ceilTo(iso: string, span: number): string {
  const ms = Date.parse(iso);
  const floor = floorTo(ms, span);
  return Date.parse(floor) === ms ? floor : floorTo(ms + span, span);
}

/**
 * The whole spans `[start, end)` a filter's range covers: the folded counts answer for them, the
 * rows before `start` and from `end` on are counted. `start >= end`: no whole span.
 */
function wholeSpans(
  filter: Pick<LedgerFilter, 'from' | 'before'>,
  span: number,
): { start: string; end: string } {
  return {
    start: filter.from === null ? '' : ceilTo(filter.from, span),
    end: filter.before === null ? NO_END : floorTo(Date.parse(filter.before), span),
  };
}

/** The whole UTC days of a filter's range (the buckets; the API's date filters are whole days). */
export const wholeDays = (filter: Pick<LedgerFilter, 'from' | 'before'>) => wholeSpans(filter, DAY_MS);

/**
 * Whether SQLite's folded counts can answer this filter: they are kept by client, profile, a
 * transaction's type and day. A player, a round, a status, or rounds by a transaction's type (a
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
