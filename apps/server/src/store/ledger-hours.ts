import type { Answer } from './dialect/exec.ts';
import type { LedgerFilter } from './records.ts';

/**
 * What both adapters' folded list totals share (issue 23: no counter row written in a round's
 * unit): the ledger's rows counted per UTC day of created_at, per client, profile and
 * (transactions) type, folded in batches off the round's path; a total adds the folded days its
 * range covers and counts the rows outside them. Pure: the days' arithmetic, which filters the
 * counts answer, and the interface the ledger repository (repos/ledger-repo.ts) calls them by;
 * how they are kept truly differs (SQLite: triggers and a rowid watermark; PostgreSQL: folds by
 * written_xid), so each dialect has its own `ledger-counts.ts`.
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

/** A WHERE over fixed SQL text with `:name` parameters (dialect/statement.ts); values never in the text. */
export interface Where {
  sql: string;
  params: Record<string, string | number>;
}

/** The exact totals of the lists, from counts kept per dialect (see above). */
export interface LedgerCounts {
  /** Whether `total` answers this filter of `list`; else the repository counts the rows. */
  answers(list: LedgerList, filter: LedgerFilter): boolean;
  /**
   * The exact number of rows of `list` that an answered filter keeps. `where` is the filter
   * without its dates, over the rows counted as `x`: round_types when `byRoundTypes`, else rounds
   * or transactions. The counts add the dates.
   */
  total(list: LedgerList, filter: LedgerFilter, where: Where): Answer<number>;
}

/** A player, a round or a status: narrow filters, paged and counted through the rows' own indexes. */
export const narrowed = (filter: LedgerFilter): boolean =>
  filter.playerId !== null || filter.roundId !== null || filter.status !== null;

/**
 * Rounds filtered by a transaction's type (and nothing narrow) are paged and counted from
 * round_types (a row per round and type, kept by a trigger) instead of probing each round.
 */
export const byRoundTypes = (list: LedgerList, filter: LedgerFilter): boolean =>
  list === 'round' && filter.type !== null && !narrowed(filter);

/**
 * Whether SQLite's folded counts can answer this filter: they are kept by client, profile, a
 * transaction's type and day. A player, a round, a status, or rounds by a transaction's type (a
 * round gains a type after it was counted) are counted from the rows.
 */
export function foldable(list: LedgerList, filter: LedgerFilter): boolean {
  return !narrowed(filter) && (list === 'transaction' || filter.type === null);
}
