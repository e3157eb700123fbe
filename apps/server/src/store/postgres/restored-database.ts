import type pg from 'pg';
import { FOLD_LOCK } from './ledger-counts.ts';
import { type FoldedTable, type FoldedTableFacts, restoreVerdict } from './restore-verdict.ts';

const TABLES: readonly FoldedTable[] = ['rounds', 'round_types', 'transactions'];

/** What the start-up check did on a restored database (restore-verdict.ts), for the one log line. */
export interface RestoreRepair {
  /** The next transaction id of this cluster when it was found. */
  nextXid: string;
  evidence: string[];
  /** Rows re-stamped with the repair's own transaction id, per table. */
  restamped: Partial<Record<FoldedTable, number>>;
}

/**
 * At start, after the migrations: finds whether the database was restored from another cluster's
 * history and, if so, rebuilds the lists' folded totals before anything is served (issue 36
 * item 2). One transaction under the folds' advisory lock, so no fold runs meanwhile and, of
 * instances starting together, one repairs and the others then find nothing to do. Answers what
 * it did, or undefined when the database needed nothing (every start but the first after a
 * restore: three index reads).
 */
export async function repairRestoredDatabase(pool: pg.Pool): Promise<RestoreRepair | undefined> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [FOLD_LOCK]);
      const { nextXid, tables } = await readFacts(client);
      const verdict = restoreVerdict(nextXid, tables);
      if (!verdict.restored) {
        await client.query('COMMIT');
        return undefined;
      }
      const restamped: RestoreRepair['restamped'] = {};
      for (const table of verdict.restamp) {
        // Ids from the future get this transaction's own: the first fold after it commits counts them.
        const updated = await client.query(
          `UPDATE ${table} SET written_xid = pg_current_xact_id() WHERE written_xid >= $1::xid8`,
          [String(nextXid)],
        );
        restamped[table] = updated.rowCount ?? 0;
      }
      // Counted from scratch by the next fold (the lists' first read starts it); until then a total
      // counts the rows themselves, exactly.
      await client.query('DELETE FROM ledger_day_counts');
      await client.query('DELETE FROM ledger_count_folds');
      // The totals' plans rest on the statistics of written_xid (migration 009): they changed.
      for (const table of TABLES) await client.query(`ANALYZE ${table} (written_xid)`);
      await client.query('COMMIT');
      return { nextXid: String(nextXid), evidence: verdict.evidence, restamped };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  } finally {
    client.release();
  }
}

/** This cluster's next transaction id and, per folded table, its watermark and newest row's id. */
async function readFacts(client: pg.PoolClient): Promise<{ nextXid: bigint; tables: FoldedTableFacts[] }> {
  // One statement, one snapshot: its xmax is the next id, and every row it sees was written below it
  // (in this cluster). Each newest id is read through the table's written_xid index (ordered by the
  // column, qualified: a bare name would be the text output column, and '766' sorts after '30009').
  const newest = (table: FoldedTable) =>
    `(SELECT x.written_xid::text FROM ${table} x ORDER BY x.written_xid DESC LIMIT 1) AS ${table}_newest`;
  const watermark = (table: FoldedTable) =>
    `(SELECT folded_xid::text FROM ledger_count_folds WHERE source = '${table}') AS ${table}_mark`;
  const { rows } = await client.query<Record<string, string | null>>(
    `SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next_xid, ${TABLES.flatMap((table) => [
      newest(table),
      watermark(table),
    ]).join(', ')}`,
  );
  const row = rows[0] ?? {};
  const xid = (value: string | null | undefined) => (value == null ? null : BigInt(value));
  return {
    nextXid: BigInt(row.next_xid ?? '0'),
    tables: TABLES.map((table) => ({
      table,
      watermark: xid(row[`${table}_mark`]),
      newest: xid(row[`${table}_newest`]),
    })),
  };
}
