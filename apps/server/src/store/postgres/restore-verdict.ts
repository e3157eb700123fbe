/**
 * Whether a PostgreSQL database holds transaction ids from another cluster's history (it was
 * restored there from a `pg_dump`, or copied by logical replication), and what of the lists'
 * totals must then be rebuilt before the service serves (issue 36 item 2). Pure: the start-up
 * check (restored-database.ts) reads the facts and applies the verdict.
 *
 * The totals fold by transaction id (ledger-counts.ts): a row keeps the id of the transaction that
 * wrote it (`written_xid`), a fold counts the rows from the last watermark up to its snapshot's
 * xmin, and a total adds the rows at or past the watermark. That is exact while every row written
 * from now on gets an id at or above the watermark, which holds in the cluster that wrote the rows:
 * ids only grow there. A dump restored into another cluster keeps the rows' ids and the watermarks,
 * but that cluster's ids start afresh, below them: its new rows would be neither folded nor past
 * the watermark, and every total would leave them out.
 *
 * In the cluster that wrote them, every row's id is below the next id to be handed out, and every
 * watermark (an xmin) at or below it. A row or a watermark past it came from elsewhere. Both are
 * checked: a database that was never folded has no watermark, yet its rows from the future would
 * be counted one by one by every total until this cluster's ids caught up with them.
 *
 * A restore into a cluster whose ids are already past all of them (a long-lived server, or
 * pg_upgrade, which carries the ids over) needs nothing: the watermarks stay below every new id.
 * A physical copy (a base backup, a promoted replica) is the same cluster, ids included.
 */

/** The three tables the totals fold (ledger_count_folds.source). */
export type FoldedTable = 'rounds' | 'round_types' | 'transactions';

/** What the start-up check reads of one folded table. */
export interface FoldedTableFacts {
  table: FoldedTable;
  /** ledger_count_folds.folded_xid: every row below it is counted; null before the first fold. */
  watermark: bigint | null;
  /** The largest written_xid of its rows; null when it has none. */
  newest: bigint | null;
}

export type RestoreVerdict =
  | { restored: false }
  | {
      restored: true;
      /** What showed it, one line per table, for the log. */
      evidence: string[];
      /**
       * The tables whose rows carry ids from the future: each such row gets the rebuild's own id,
       * so that it is counted by the first fold, not one by one by every total for ever.
       */
      restamp: FoldedTable[];
    };

/**
 * The verdict for a database whose next transaction id is `nextXid` (the xmax of a snapshot taken
 * with the facts). When restored, every table is rebuilt the same way: the folded counts and the
 * watermarks are emptied (the next fold counts every row), and the rows of `restamp` re-stamped.
 */
export function restoreVerdict(nextXid: bigint, tables: readonly FoldedTableFacts[]): RestoreVerdict {
  const evidence: string[] = [];
  const restamp: FoldedTable[] = [];
  for (const { table, watermark, newest } of tables) {
    if (watermark !== null && watermark > nextXid)
      evidence.push(
        `${table}: folded up to transaction ${watermark}, past this cluster's next id ${nextXid}`,
      );
    if (newest !== null && newest >= nextXid) {
      evidence.push(
        `${table}: a row written by transaction ${newest}, not yet handed out here (next ${nextXid})`,
      );
      restamp.push(table);
    }
  }
  return evidence.length === 0 ? { restored: false } : { restored: true, evidence, restamp };
}
