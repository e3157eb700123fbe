import type { ReportGroup } from './records.ts';

/** The report's group key of a transaction `t` (with its round `r` joined for the game). */
const REPORT_KEYS: Record<ReportGroup, string> = {
  day: 'substr(t.created_at, 1, 10)',
  game: 'r.game_id',
  currency: 't.currency',
  player: 't.player_id',
};

/**
 * The GGR report's query in both adapters' SQL: the `completed` bets, prizes and rollbacks that
 * `where` (a condition over transactions `t`) keeps, summed per (group key, currency).
 */
export function reportQuery(where: string, groupBy: ReportGroup): string {
  const join = groupBy === 'game' ? 'JOIN rounds r ON r.id = t.round_id' : '';
  return `SELECT ${REPORT_KEYS[groupBy]} AS key, t.currency AS currency,
     count(DISTINCT CASE WHEN t.type = 'bet' THEN t.round_id END) AS rounds,
     count(DISTINCT CASE WHEN t.type = 'bet' THEN t.player_id END) AS players,
     coalesce(sum(CASE WHEN t.type = 'bet' THEN -t.amount_minor END), 0) AS "betsMinor",
     coalesce(sum(CASE WHEN t.type = 'prize' THEN t.amount_minor END), 0) AS "prizesMinor",
     coalesce(sum(CASE WHEN t.type = 'rollback' THEN t.amount_minor END), 0) AS "rollbacksMinor"
   FROM transactions t ${join}
   WHERE ${where} AND t.status = 'completed' AND t.type IN ('bet', 'prize', 'rollback')
   GROUP BY 1, 2 ORDER BY 1, 2`;
}

/** The report sums every type of the completed transactions: a filter naming a type or a status is a caller's mistake. */
export function assertReportFilter(filter: { type: string | null; status: string | null }): void {
  if (filter.type !== null) throw new Error('the report sums every type: its filter has no type');
  if (filter.status !== null)
    throw new Error('the report sums the completed transactions: its filter has no status');
}
