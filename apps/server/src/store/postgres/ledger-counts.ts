import { FOLD_EVERY_MS, floorHour, HOUR_MS, type LedgerList, wholeHours } from '../ledger-hours.ts';
import type { LedgerFilter } from '../records.ts';
import { first, type Sql } from './sql.ts';

/**
 * The exact totals of the round and transaction lists on a large ledger (issue 23), without a
 * counter that a round's unit writes: the rows are counted per hour into `ledger_hour_counts`
 * (migration 007) in batches, off the round's path, by the lists' readers. A total is then the
 * folded hours its range covers, plus a `count(*)` of the rows outside them (before the range's
 * first whole hour, and from where the fold stopped), all in one statement, so it reads one
 * snapshot: a fold that commits meanwhile is either wholly in it or not at all.
 *
 * The fold takes the hours that ended FOLD_MARGIN_MS before both the database's clock and the
 * newest row's created_at. It relies on every row being committed within that margin of its
 * created_at (a unit lasts seconds; the clocks of the instances agree within it). A row committed
 * later with an older created_at would be missed by the totals.
 *
 * Only the filters the counts are kept by use them: the client, the profile, a transaction's type
 * and the dates. A player, a round, a status, or rounds by a transaction's type are counted from
 * the rows (narrow filters, or as on SQLite: narrow a status with dates).
 */

const FOLD_MARGIN_MS = HOUR_MS;
/** The advisory lock of a fold: one at a time across instances; the others skip theirs. */
const FOLD_LOCK = 7_261_736_173;

type List = LedgerList;

export interface LedgerCounts {
  /**
   * The exact number of rows of `list` that `where` (over its alias, `r` or `t`, built with
   * `params`) keeps, for a `foldable` filter; `params` goes on numbering after where's own.
   */
  total(
    list: List,
    filter: LedgerFilter,
    where: string,
    params: { add(value: unknown): string; values: unknown[] },
  ): Promise<number>;
  /**
   * Folds the hours of `list` that are due. One fold runs at a time across instances: another
   * skips, or with `wait` waits for the one under way and then folds what is still due.
   */
  fold(list: List, options?: { wait?: boolean }): Promise<void>;
}

export function createLedgerCounts(sql: Sql): LedgerCounts {
  const lastFold: Record<List, number> = { round: -Infinity, transaction: -Infinity };
  const table = (list: List) => (list === 'round' ? 'rounds' : 'transactions');
  const aliased = (list: List) => (list === 'round' ? 'rounds r' : 'transactions t');
  const alias = (list: List) => (list === 'round' ? 'r' : 't');

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
      const state = await first<{ from: string; newest: string | null; now: number }>(
        tx,
        `SELECT coalesce((SELECT folded_before FROM ledger_count_folds WHERE list = $1), '') AS "from",
           (SELECT max(s.newest) FROM api_clients c,
              LATERAL (SELECT max(x.created_at) AS newest FROM ${table(list)} x WHERE x.client_id = c.id) s) AS newest,
           (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now`,
        [list],
      );
      if (!state?.newest) return;
      const upTo = floorHour(Math.min(state.now, Date.parse(state.newest)) - FOLD_MARGIN_MS);
      if (upTo <= state.from) return;
      // Through the clients, so each one's rows are a range of its (client_id, created_at) index.
      await tx.query(
        `INSERT INTO ledger_hour_counts (list, client_id, hour, profile_id, type, n)
         SELECT $1, x.client_id, substr(x.created_at, 1, 13) || ':00:00.000Z', x.profile_id,
           ${list === 'round' ? "''" : 'x.type'}, count(*)
         FROM api_clients c JOIN ${table(list)} x ON x.client_id = c.id AND x.created_at >= $2 AND x.created_at < $3
         GROUP BY 2, 3, 4, 5
         ON CONFLICT (list, client_id, hour, profile_id, type) DO UPDATE SET n = ledger_hour_counts.n + excluded.n`,
        [list, state.from, upTo],
      );
      await tx.query(
        `INSERT INTO ledger_count_folds (list, folded_before) VALUES ($1, $2)
         ON CONFLICT (list) DO UPDATE SET folded_before = excluded.folded_before`,
        [list, upTo],
      );
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
    async total(list, filter, where, params) {
      const name = params.add(list);
      const hours = wholeHours(filter);
      const start = params.add(hours.start);
      const end = params.add(hours.end);
      const buckets = [`h.list = ${name}`, `h.client_id = ${params.add(filter.clientId)}`];
      if (filter.profileId !== null) buckets.push(`h.profile_id = ${params.add(filter.profileId)}`);
      if (filter.type !== null) buckets.push(`h.type = ${params.add(filter.type)}`);
      const row = await first<{ folded: number; head: number; tail: number }>(
        sql,
        `WITH fold AS (SELECT coalesce((SELECT folded_before FROM ledger_count_folds WHERE list = ${name}), '') AS upto)
         SELECT
           (SELECT coalesce(sum(h.n), 0) FROM ledger_hour_counts h, fold
             WHERE ${buckets.join(' AND ')} AND h.hour >= ${start} AND h.hour < least(${end}, fold.upto)) AS folded,
           (SELECT count(*) FROM ${aliased(list)} WHERE ${where} AND ${alias(list)}.created_at < ${start}) AS head,
           (SELECT count(*) FROM ${aliased(list)}, fold
             WHERE ${where} AND ${alias(list)}.created_at >= greatest(${start}, least(${end}, fold.upto))) AS tail`,
        params.values,
      );
      foldSoon(list);
      return (row?.folded ?? 0) + (row?.head ?? 0) + (row?.tail ?? 0);
    },
  };
}
