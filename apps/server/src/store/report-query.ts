import type { ReportGroup } from './records.ts';

/** The report's group key of a transaction `t` (its round `r` joined for the game) and of a round `r`. */
const REPORT_KEYS: Record<ReportGroup, { transaction: string; round: string }> = {
  day: { transaction: 'substr(t.created_at, 1, 10)', round: 'substr(r.created_at, 1, 10)' },
  game: { transaction: 'r.game_id', round: 'r.game_id' },
  currency: { transaction: 't.currency', round: 'r.currency' },
  player: { transaction: 't.player_id', round: 'r.player_id' },
};

/**
 * The conditions of the report's parts: over transactions `t`; over free rounds `r` with their
 * promotion `pm`; over the prizes `t` of free rounds `r` of promotions `pm`.
 */
export interface ReportWhere {
  transactions: string;
  freeRounds: string;
  freePrizes: string;
}

/**
 * The GGR report's query in both adapters' SQL, one statement of three parts, each at most one row
 * per (group key, currency), summed by the outer query:
 * - the `completed` bets, prizes and rollbacks that `where.transactions` keeps, every prize in
 *   `prizesMinor` (this part is the report as it was before free cards, joining rounds only for
 *   the game: so its plan and index use are unchanged);
 * - the free rounds, counted from `rounds`, since a free card that won nothing has no transaction
 *   (dated and grouped by the round);
 * - the completed prizes of free rounds, moved from `prizesMinor` to `promoPrizesMinor` (dated and
 *   grouped by the transaction, as every prize).
 * The last two find free rounds through the client's promotions (`rounds_by_promotion`), so they
 * read free rounds only, never the client's bought ones (docs/promotions.md).
 */
export function reportQuery(where: ReportWhere, groupBy: ReportGroup): string {
  const keys = REPORT_KEYS[groupBy];
  const join = groupBy === 'game' ? 'JOIN rounds r ON r.id = t.round_id' : '';
  return `SELECT key, currency, sum(rounds) AS rounds, sum(players) AS players, sum("betsMinor") AS "betsMinor",
     sum("prizesMinor") AS "prizesMinor", sum("rollbacksMinor") AS "rollbacksMinor",
     sum("promoRounds") AS "promoRounds", sum("promoPrizesMinor") AS "promoPrizesMinor"
   FROM (
     SELECT ${keys.transaction} AS key, t.currency AS currency,
       count(DISTINCT CASE WHEN t.type = 'bet' THEN t.round_id END) AS rounds,
       count(DISTINCT CASE WHEN t.type = 'bet' THEN t.player_id END) AS players,
       coalesce(sum(CASE WHEN t.type = 'bet' THEN -t.amount_minor END), 0) AS "betsMinor",
       coalesce(sum(CASE WHEN t.type = 'prize' THEN t.amount_minor END), 0) AS "prizesMinor",
       coalesce(sum(CASE WHEN t.type = 'rollback' THEN t.amount_minor END), 0) AS "rollbacksMinor",
       0 AS "promoRounds", 0 AS "promoPrizesMinor"
     FROM transactions t ${join}
     WHERE ${where.transactions} AND t.status = 'completed' AND t.type IN ('bet', 'prize', 'rollback')
     GROUP BY 1, 2
     UNION ALL
     SELECT ${keys.round}, r.currency, 0, 0, 0, 0, 0, count(*), 0
     FROM promotions pm JOIN rounds r ON r.promotion_id = pm.id
     WHERE ${where.freeRounds} AND r.promotion_id IS NOT NULL AND r.status IN ('open', 'closing', 'closed')
     GROUP BY 1, 2
     UNION ALL
     SELECT ${keys.transaction}, t.currency, 0, 0, 0, -sum(t.amount_minor), 0, 0, sum(t.amount_minor)
     FROM promotions pm JOIN rounds r ON r.promotion_id = pm.id JOIN transactions t ON t.round_id = r.id
     WHERE ${where.freePrizes} AND r.promotion_id IS NOT NULL AND t.status = 'completed' AND t.type = 'prize'
     GROUP BY 1, 2
   ) parts
   GROUP BY 1, 2 ORDER BY 1, 2`;
}

/** The report sums every type of the completed transactions: a filter naming a type or a status is a caller's mistake. */
export function assertReportFilter(filter: { type: string | null; status: string | null }): void {
  if (filter.type !== null) throw new Error('the report sums every type: its filter has no type');
  if (filter.status !== null)
    throw new Error('the report sums the completed transactions: its filter has no status');
}
