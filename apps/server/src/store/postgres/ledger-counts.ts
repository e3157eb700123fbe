import { assembledStatement } from '../dialect/statement.ts';
import {
  byRoundTypes,
  type LedgerCounts,
  type LedgerList,
  NO_END,
  narrowed,
  type Where,
  wholeDays,
} from '../ledger-hours.ts';
import { createPostgresExec } from './exec.ts';
import { first, PLANNED_EACH_RUN, type Sql } from './sql.ts';

/**
 * The exact totals of the round and transaction lists on a large ledger (issue 23), without a
 * counter that a round's unit writes: the rows are counted per UTC day into `ledger_day_counts`
 * (migration 009) in batches, off the round's path, by the lists' readers. A total is then the
 * folded days its range covers, plus a `count(*)` of the rows outside them (before the range's
 * first whole day, from its last whole day on, and past the fold's watermark), all in one
 * statement, so it reads one snapshot: a fold that commits meanwhile is wholly in it or not at all.
 *
 * The watermark is a transaction id, not a time. Each row keeps the id of the transaction that
 * wrote it (`written_xid`, the top-level id even inside a savepoint). A fold counts the rows whose
 * written_xid lies between the last fold's watermark and its own snapshot's xmin: every transaction
 * below that xmin had ended when the fold's snapshot was taken, so the fold sees all of their
 * committed rows, and any row committed later has a written_xid at or above it. So the totals are
 * exact whatever the rows' created_at and whatever the order of commits (unlike 007's time
 * watermark, which missed a row committed more than an hour after its created_at). A transaction
 * left open holds the xmin back: the folds then gain nothing and the totals count more rows, still
 * exactly.
 *
 * Three tables are folded, each with its own watermark: rounds (every round, type ''),
 * round_types (the rounds having a transaction of a type, filled by a trigger: migration 009) and
 * transactions. Filters the counts answer: the client, the profile, a transaction's type and the
 * dates (`foldable`). A player, a round or a status are counted from the rows (narrow filters; as
 * on SQLite, narrow a status with dates).
 */

/**
 * The advisory lock of a fold: one at a time across instances; the others skip theirs. The start-up
 * repair of a restored database (restored-database.ts) holds it too.
 */
export const FOLD_LOCK = 7_261_736_173;
/**
 * A reader starts a fold at most this often per process and list: the rows past the watermark
 * are counted by each total through the written_xid index, so they are kept to a few seconds of
 * writes (at 5,000 rounds/s, 5 s is about 25,000 rounds and their transactions).
 */
const FOLD_EVERY_MS = 5_000;

type List = LedgerList;
type Source = 'rounds' | 'round_types' | 'transactions';

/** What a source adds to the counts: its list and the type of each of its rows. */
const SOURCES: Record<Source, { list: List; type: string }> = {
  rounds: { list: 'round', type: "''" },
  round_types: { list: 'round', type: 'x.type' },
  transactions: { list: 'transaction', type: 'x.type' },
};
const SOURCES_OF: Record<List, Source[]> = {
  round: ['rounds', 'round_types'],
  transaction: ['transactions'],
};

export interface PostgresLedgerCounts extends LedgerCounts {
  /**
   * Folds what is due of `list`'s tables. One fold runs at a time across instances: another
   * skips, or with `wait` waits for the one under way and then folds what is still due.
   */
  fold(list: List, options?: { wait?: boolean }): Promise<void>;
}

/**
 * The counts answer a filter by client, profile, a transaction's type (for rounds: the rounds
 * having one, from round_types) and dates. `foldCounts: false` (LEDGER_COUNT_FOLD=false): they
 * answer none, and the lists count the rows.
 */
export function createLedgerCounts(sql: Sql, options: { foldCounts?: boolean } = {}): PostgresLedgerCounts {
  const x = createPostgresExec(sql);
  const lastFold: Record<List, number> = { round: -Infinity, transaction: -Infinity };
  /**
   * The newest watermark of each table seen here. Watermarks only rise, so it is a lower bound of
   * the current one: sent as a constant beside the exact condition, it tells the planner that few
   * rows are past it (the watermark itself is read in the statement, which the planner cannot
   * estimate, and would take for a third of the table).
   */
  const seenMark: Record<Source, bigint> = { rounds: 0n, round_types: 0n, transactions: 0n };
  let marksRead = false;

  /** Once per process: the watermarks as they are, so that even the first total is planned on them. */
  async function readMarks(): Promise<void> {
    const rows = await sql.query<{ source: Source; mark: string }>(
      'SELECT source, folded_xid::text AS mark FROM ledger_count_folds',
    );
    for (const row of rows.rows) seenMark[row.source] = BigInt(row.mark);
    marksRead = true;
  }

  async function fold(list: List, options: { wait?: boolean } = {}): Promise<void> {
    await sql.atomic(async (tx) => {
      const locked = await first<{ got: boolean }>(
        tx,
        options.wait
          ? 'SELECT pg_advisory_xact_lock($1) IS NOT NULL AS got'
          : 'SELECT pg_try_advisory_xact_lock($1) AS got',
        [FOLD_LOCK],
      );
      if (!locked?.got) return;
      // One statement per table, so the rows counted and the new watermark come from one snapshot.
      // (A unit is SERIALIZABLE: after waiting on the lock its snapshot may predate the fold it
      // waited for; the watermark row that fold updated then fails this one, which runs again.)
      for (const source of SOURCES_OF[list]) {
        const { list: name, type } = SOURCES[source];
        await tx.query(
          `WITH mark AS (
             SELECT coalesce((SELECT folded_xid FROM ledger_count_folds WHERE source = $1), '0'::xid8) AS since,
               pg_snapshot_xmin(pg_current_snapshot()) AS upto),
           counted AS (
             INSERT INTO ledger_day_counts (list, client_id, day, profile_id, type, n)
             SELECT $2, x.client_id, substr(x.created_at, 1, 10), x.profile_id, ${type}, count(*)
             FROM ${source} x, mark WHERE x.written_xid >= mark.since AND x.written_xid < mark.upto
             GROUP BY 2, 3, 4, 5
             ON CONFLICT (list, client_id, type, day, profile_id) DO UPDATE SET n = ledger_day_counts.n + excluded.n)
           INSERT INTO ledger_count_folds (source, folded_xid) SELECT $1, upto FROM mark WHERE upto > since
           ON CONFLICT (source) DO UPDATE SET folded_xid = excluded.folded_xid`,
          [source, name],
        );
      }
    });
  }

  /** Starts a fold in the background when one is due here; a reader never waits for it. */
  function foldSoon(list: List): void {
    if (sql.inUnit || performance.now() - lastFold[list] < FOLD_EVERY_MS) return;
    lastFold[list] = performance.now();
    // A failed fold only leaves more rows to count; the next one takes them.
    void fold(list).catch(() => {});
  }

  return {
    fold,
    answers: (_list, filter) => options.foldCounts !== false && !narrowed(filter),
    async total(list, filter, where: Where) {
      const source: Source = byRoundTypes(list, filter) ? 'round_types' : (SOURCES_OF[list][0] ?? 'rounds');
      if (!marksRead) await readMarks();
      const { start, end } = wholeDays(filter);
      const params: Where['params'] = {
        ...where.params,
        from: filter.from ?? '',
        before: filter.before ?? NO_END,
      };
      // Each count has one lower and one upper bound on created_at: one range of the filter's index.
      const inRange = (low: string, high: string) =>
        `${where.sql} AND x.created_at >= ${low} AND x.created_at < ${high}`;
      if (start >= end) {
        // No whole day in the range: less than two days of rows, counted (the API's date filters
        // are whole days; other bounds come from tests and internal callers).
        const row = await x.first(
          assembledStatement<Where['params'], { n: number }>(
            `SELECT count(*) AS n FROM ${source} x WHERE ${inRange(':from', ':before')}`,
          ),
          params,
        );
        return Number(row?.n ?? 0);
      }
      const buckets = ['d.list = :countsList', 'd.client_id = :clientId'];
      if (filter.profileId !== null) buckets.push('d.profile_id = :profileId');
      if (filter.type !== null) buckets.push('d.type = :type');
      else if (list === 'round') buckets.push("d.type = ''");
      const mark =
        "(SELECT coalesce((SELECT folded_xid FROM ledger_count_folds WHERE source = :source), '0'::xid8))";
      // Head and foot: less than a day of rows each (none for whole days). Tail: the rows past the
      // watermark. Planned at each run: with the lower bound's value the planner sees that few
      // rows are past it and reads them through the written_xid index; a generic plan takes a
      // third of the table for them and walks the filter's index instead (1.3–1.9 s for the
      // bench's client's rounds, docs/benchmarks.md).
      const row = await x.first(
        assembledStatement<
          Where['params'],
          { folded: number; head: number; foot: number; tail: number; mark: string }
        >(
          `${PLANNED_EACH_RUN}SELECT
           (SELECT coalesce(sum(d.n), 0) FROM ledger_day_counts d
             WHERE ${buckets.join(' AND ')} AND d.day >= :dayStart AND d.day < :dayEnd) AS folded,
           (SELECT count(*) FROM ${source} x WHERE ${inRange(':from', ':spanStart')}) AS head,
           (SELECT count(*) FROM ${source} x WHERE ${inRange(':spanEnd', ':before')}) AS foot,
           (SELECT count(*) FROM ${source} x
             WHERE x.written_xid >= ${mark} AND x.written_xid >= :seen::xid8 AND ${inRange(':spanStart', ':spanEnd')}) AS tail,
           ${mark}::text AS mark`,
        ),
        {
          ...params,
          spanStart: start,
          spanEnd: end,
          countsList: list,
          dayStart: start.slice(0, 10),
          dayEnd: end === NO_END ? NO_END : end.slice(0, 10),
          source,
          seen: String(seenMark[source]),
        },
      );
      if (row && BigInt(row.mark) > seenMark[source]) seenMark[source] = BigInt(row.mark);
      foldSoon(list);
      return (
        Number(row?.folded ?? 0) + Number(row?.head ?? 0) + Number(row?.foot ?? 0) + Number(row?.tail ?? 0)
      );
    },
  };
}
