import { performance } from 'node:perf_hooks';
import {
  byRoundTypes,
  foldable,
  type LedgerCounts,
  type LedgerList,
  NO_END,
  narrowed,
  wholeDays,
} from '../ledger-hours.ts';
import type { Db } from './database.ts';
import { statementCache } from './statement-cache.ts';

/**
 * The exact totals of the round and transaction lists without a counter row written in a round's
 * unit (issue 23; migration 012): the rows are counted per UTC day into `ledger_day_counts` in
 * batches, off the round's path, started by the lists' readers (as on PostgreSQL,
 * postgres/ledger-counts.ts). The fold's watermark is the rows' rowid: SQLite has one writer at a
 * time, so every row committed after a fold has a larger rowid than every row it saw, whatever
 * its created_at. A total is then exact for any order of writes:
 *
 *   the folded days its range covers + the rows before the range's first whole day + the rows
 *   from its last whole day on + the rows past the watermark within the whole days,
 *
 * in one statement (one snapshot). The last term reads the table from the watermark by rowid: the
 * rows written since the last fold.
 */

/** The most rows one fold unit takes: it shares a group commit's batch with rounds. */
const FOLD_BATCH = 5_000;
/**
 * A reader starts a fold at most this often per process and list. Shorter than PostgreSQL's
 * minute: the rows past the watermark are read from the table itself, and at 1,500 rounds/s a
 * minute of them is about 200,000 rows; 5 s of them a few fold batches (each about 5 ms for 5,000
 * rows on the bench's ledger, docs/benchmarks.md).
 */
const FOLD_EVERY_MS = 5_000;

export interface SqliteLedgerCounts extends LedgerCounts {
  /**
   * Folds up to `batch` rowids of `list` past the watermark, in a transaction of its own (a
   * savepoint inside a unit). Returns whether rows are left to fold.
   */
  fold(list: LedgerList, batch?: number): boolean;
}

/** Runs `work` as units of its own, off the caller's path, again while it answers true. */
export type Background = (work: () => boolean) => void;

/**
 * `background`: how readers start a fold (the store's group commit); without it (a bare
 * repository, a read-only store) readers never fold.
 */
export function createLedgerCounts(db: Db, background?: Background): SqliteLedgerCounts {
  const statement = statementCache(db);
  const lastFold: Record<LedgerList, number> = { round: -Infinity, transaction: -Infinity };
  const table = (list: LedgerList) => (list === 'round' ? 'rounds' : 'transactions');

  const foldBatch = db.transaction((list: LedgerList, batch: number): boolean => {
    const state = statement<{ from: number; newest: number }>(
      `SELECT coalesce((SELECT folded_rowid FROM ledger_count_folds WHERE list = @list), 0) AS "from",
         (SELECT coalesce(max(rowid), 0) FROM ${table(list)}) AS newest`,
    ).get({ list });
    if (!state || state.newest <= state.from) return false;
    const upTo = Math.min(state.newest, state.from + batch);
    statement(
      `INSERT INTO ledger_day_counts (list, client_id, day, profile_id, type, n)
       SELECT @list, x.client_id, substr(x.created_at, 1, 10), x.profile_id,
         ${list === 'round' ? "''" : 'x.type'}, count(*)
       FROM ${table(list)} x NOT INDEXED WHERE x.rowid > @from AND x.rowid <= @upTo
       GROUP BY 2, 3, 4, 5
       ON CONFLICT (list, client_id, day, profile_id, type) DO UPDATE SET n = n + excluded.n`,
    ).run({ list, from: state.from, upTo });
    statement(
      `INSERT INTO ledger_count_folds (list, folded_rowid) VALUES (@list, @upTo)
       ON CONFLICT (list) DO UPDATE SET folded_rowid = excluded.folded_rowid`,
    ).run({ list, upTo });
    return upTo < state.newest;
  });

  /** Folds in the background when due here, a batch per unit until the watermark is at the end. */
  function foldSoon(list: LedgerList): void {
    if (!background || db.readonly || performance.now() - lastFold[list] < FOLD_EVERY_MS) return;
    lastFold[list] = performance.now();
    background(() => foldBatch(list, FOLD_BATCH));
  }

  return {
    fold: (list, batch = FOLD_BATCH) => foldBatch(list, batch),
    // Rounds by a transaction's type are not folded (a round gains a type after it was counted):
    // round_types' index counts them. Every other filter that is not narrow is folded.
    answers: (_list, filter) => !narrowed(filter),
    total(list, filter, where) {
      if (byRoundTypes(list, filter)) {
        const dates = [where.sql];
        if (filter.from !== null) dates.push('x.created_at >= :from');
        if (filter.before !== null) dates.push('x.created_at < :before');
        const row = statement<{ n: number }>(
          `SELECT count(*) AS n FROM round_types x WHERE ${dates.join(' AND ')}`,
        ).get({
          ...where.params,
          ...(filter.from !== null && { from: filter.from }),
          ...(filter.before !== null && { before: filter.before }),
        });
        return row?.n ?? 0;
      }
      if (!foldable(list, filter)) throw new Error('the folded counts do not answer this filter');
      const { start, end } = wholeDays(filter);
      const rows = `${table(list)} x`;
      const from = filter.from ?? '';
      const before = filter.before ?? NO_END;
      // Each count has one lower and one upper bound on created_at, so it is one range of the
      // filter's index (two bounds of a side and the planner may walk the whole range).
      const inRange = (low: string, high: string) =>
        `${where.sql} AND x.created_at >= ${low} AND x.created_at < ${high}`;
      if (start >= end) {
        // No whole day in the range: less than two days of rows, counted (the API's date filters
        // are whole days; other bounds come from tests and internal callers).
        const row = statement<{ n: number }>(
          `SELECT count(*) AS n FROM ${rows} WHERE ${inRange(':from', ':before')}`,
        ).get({ ...where.params, from, before });
        return row?.n ?? 0;
      }
      const buckets = ['h.list = :countsList', 'h.client_id = :clientId'];
      if (filter.profileId !== null) buckets.push('h.profile_id = :profileId');
      if (list === 'round') buckets.push("h.type = ''");
      else if (filter.type !== null) buckets.push('h.type = :type');
      // Head and foot: less than a day of rows each (none for whole days). Tail: the rows past the
      // watermark, read by rowid (NOT INDEXED keeps the planner on that range).
      const row = statement<{ folded: number; head: number; foot: number; tail: number }>(
        `SELECT
           (SELECT coalesce(sum(h.n), 0) FROM ledger_day_counts h
             WHERE ${buckets.join(' AND ')} AND h.day >= :dayStart AND h.day < :dayEnd) AS folded,
           (SELECT count(*) FROM ${rows} WHERE ${inRange(':from', ':spanStart')}) AS head,
           (SELECT count(*) FROM ${rows} WHERE ${inRange(':spanEnd', ':before')}) AS foot,
           (SELECT count(*) FROM ${rows} NOT INDEXED
             WHERE x.rowid > coalesce((SELECT folded_rowid FROM ledger_count_folds WHERE list = :countsList), 0)
               AND ${inRange(':spanStart', ':spanEnd')}) AS tail`,
      ).get({
        ...where.params,
        from,
        before,
        countsList: list,
        spanStart: start,
        spanEnd: end,
        dayStart: start.slice(0, 10),
        dayEnd: end === NO_END ? NO_END : end.slice(0, 10),
      });
      foldSoon(list);
      return (row?.folded ?? 0) + (row?.head ?? 0) + (row?.foot ?? 0) + (row?.tail ?? 0);
    },
  };
}
