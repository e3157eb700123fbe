import type { PageRequest } from '../paging.ts';
import type { LedgerFilter, ListCursor, OwnerRef, ReportRow, TransactionRecord } from '../records.ts';
import { assertReportFilter, reportQuery } from '../report-query.ts';
import type { LedgerRepo } from '../repositories.ts';
import { type RoundDetailRow, roundDetail } from '../round-detail.ts';
import { byRoundTypes, createLedgerCounts, foldable } from './ledger-counts.ts';
import { all, first, parameters, type Sql } from './sql.ts';

const TRANSACTION_COLUMNS = `t.id, t.round_id AS "roundId", t.client_id AS "clientId", t.profile_id AS "profileId",
  t.player_id AS "playerId", t.type, t.amount_minor AS "amountMinor", t.currency,
  t.balance_before_minor AS "balanceBeforeMinor", t.balance_after_minor AS "balanceAfterMinor", t.status,
  t.created_at AS "createdAt"`;

const ROUND_COLUMNS = `r.id, r.client_id AS "clientId", r.profile_id AS "profileId", r.game_id AS "gameId",
  r.session_id AS "sessionId", r.status, r.currency, r.paid_minor AS "paidMinor", r.prize_minor AS "prizeMinor",
  r.created_at AS "createdAt", r.end_at AS "endAt", p.id AS "playerId", p.credential,
  p.credential_type AS "credentialType",
  coalesce(pb.balance_minor, CASE WHEN pr.currency = r.currency THEN p.balance_minor ELSE 0 END) AS "balanceMinor",
  r.currency AS "balanceCurrency", p.bet_wins AS "betWins", p.total_bets AS "totalBets"`;

/** The round with its player, its profile and the player's last balance in the round's currency. */
const ROUND_JOINS = `JOIN players p ON p.id = r.player_id JOIN profiles pr ON pr.id = p.profile_id
  LEFT JOIN player_balances pb ON pb.player_id = r.player_id AND pb.currency = r.currency`;

/** The rows a list reads: rounds, transactions, or rounds by a transaction's type (round_types). */
type Rows = 'rounds' | 'transactions' | 'round_types';

/**
 * The WHERE of a list over `rows` (as `alias`): fixed SQL text, every value a parameter. Without
 * `dates` it leaves the filter's dates out (the folded totals add their own bounds).
 */
function ledgerWhere(
  rows: Rows,
  alias: string,
  filter: LedgerFilter,
  add: (value: unknown) => string,
  options: { dates?: boolean } = {},
): string {
  const clauses = [`${alias}.client_id = ${add(filter.clientId)}`];
  if (filter.profileId !== null) clauses.push(`${alias}.profile_id = ${add(filter.profileId)}`);
  if (rows === 'round_types') {
    // round_types holds a round's client, profile, type and created_at only (byRoundTypes).
    if (filter.type === null || !foldable(filter))
      throw new Error('round_types answers a type, a profile, dates');
    clauses.push(`${alias}.type = ${add(filter.type)}`);
  } else {
    const roundId = rows === 'rounds' ? `${alias}.id` : `${alias}.round_id`;
    if (filter.playerId !== null) clauses.push(`${alias}.player_id = ${add(filter.playerId)}`);
    if (filter.roundId !== null) clauses.push(`${roundId} = ${add(filter.roundId)}`);
    if (filter.type !== null) {
      clauses.push(
        rows === 'rounds'
          ? `EXISTS (SELECT 1 FROM transactions tt WHERE tt.round_id = ${alias}.id AND tt.type = ${add(filter.type)})`
          : `${alias}.type = ${add(filter.type)}`,
      );
    }
    if (filter.status !== null) clauses.push(`${alias}.status = ${add(filter.status)}`);
  }
  if (options.dates !== false) {
    if (filter.from !== null) clauses.push(`${alias}.created_at >= ${add(filter.from)}`);
    if (filter.before !== null) clauses.push(`${alias}.created_at < ${add(filter.before)}`);
  }
  return clauses.join(' AND ');
}

/** Keeps the records after `after` in NEWEST_FIRST order (keyset paging: the export's batches). */
function afterCursor(
  alias: string,
  after: ListCursor | null,
  add: (value: unknown) => string,
  id = `${alias}.id`,
): string {
  if (after === null) return '';
  return ` AND (${alias}.created_at, ${id}) < (${add(after.createdAt)}, ${add(after.id)})`;
}

const pageParams = (page: PageRequest) => [page.pageSize, (page.pageIndex - 1) * page.pageSize];

const NEWEST_FIRST = (alias: string, id = `${alias}.id`) => `ORDER BY ${alias}.created_at DESC, ${id} DESC`;

/**
 * The lists. Their totals add the per-day counts folded off the round's path and count only the
 * rows outside them (ledger-counts.ts), for the filters those counts are kept by; else, or with
 * `foldCounts: false` (LEDGER_COUNT_FOLD=false), they count the rows.
 */
export function createLedgerRepo(sql: Sql, options: { foldCounts?: boolean } = {}): LedgerRepo {
  const counts = createLedgerCounts(sql);
  /** The transactions of a page of rounds, in one query (a page holds at most 100 rounds). */
  async function transactionsOf(roundIds: readonly string[]): Promise<Map<string, TransactionRecord[]>> {
    const byRound = new Map<string, TransactionRecord[]>(roundIds.map((id) => [id, []]));
    if (roundIds.length === 0) return byRound;
    const rows = await all<TransactionRecord>(
      sql,
      `SELECT ${TRANSACTION_COLUMNS} FROM transactions t WHERE t.round_id = ANY($1::text[]) ORDER BY t.created_at, t.id`,
      [roundIds],
    );
    for (const row of rows) byRound.get(row.roundId)?.push(row);
    return byRound;
  }

  /** A page of rounds as the lists show them, each with its transactions. */
  async function withTransactions(rows: RoundDetailRow[]) {
    const transactions = await transactionsOf(rows.map((row) => row.id));
    return rows.map((row) => roundDetail(row, transactions.get(row.id) ?? []));
  }

  /** Newest first, from `after` on (null: the newest), `[limit, offset]`. */
  async function roundsOfPage(filter: LedgerFilter, after: ListCursor | null, page: number[]) {
    const params = parameters();
    // The page's ids first (an index-only walk past the offset), then only its rows joined: else
    // PostgreSQL joins every skipped round to its player before the OFFSET drops it. Rounds by a
    // transaction's type walk round_types instead of probing each round for such a transaction.
    const ids = byRoundTypes('round', filter)
      ? `SELECT x.round_id AS id FROM round_types x WHERE ${ledgerWhere('round_types', 'x', filter, params.add)}${afterCursor(
          'x',
          after,
          params.add,
          'x.round_id',
        )} ${NEWEST_FIRST('x', 'x.round_id')}`
      : `SELECT r.id FROM rounds r WHERE ${ledgerWhere('rounds', 'r', filter, params.add)}${afterCursor(
          'r',
          after,
          params.add,
        )} ${NEWEST_FIRST('r')}`;
    const [limit, offset] = page.map(params.add);
    const rows = await all<RoundDetailRow>(
      sql,
      `WITH page AS (${ids} LIMIT ${limit} OFFSET ${offset})
       SELECT ${ROUND_COLUMNS} FROM page JOIN rounds r ON r.id = page.id ${ROUND_JOINS} ${NEWEST_FIRST('r')}`,
      params.values,
    );
    return withTransactions(rows);
  }

  async function transactionsOfPage(filter: LedgerFilter, after: ListCursor | null, page: number[]) {
    const params = parameters();
    const where = ledgerWhere('transactions', 't', filter, params.add) + afterCursor('t', after, params.add);
    const [limit, offset] = page.map(params.add);
    return all<TransactionRecord>(
      sql,
      `SELECT ${TRANSACTION_COLUMNS} FROM transactions t WHERE ${where} ${NEWEST_FIRST('t')}
       LIMIT ${limit} OFFSET ${offset}`,
      params.values,
    );
  }

  async function total(list: 'round' | 'transaction', filter: LedgerFilter): Promise<number> {
    const params = parameters();
    if (options.foldCounts !== false && foldable(filter)) {
      const rows: Rows = byRoundTypes(list, filter)
        ? 'round_types'
        : list === 'round'
          ? 'rounds'
          : 'transactions';
      const where = ledgerWhere(rows, 'x', filter, params.add, { dates: false });
      return counts.total(list, filter, where, params);
    }
    const rows: Rows = list === 'round' ? 'rounds' : 'transactions';
    const where = ledgerWhere(rows, 'x', filter, params.add);
    return Number(
      (await first<{ n: number }>(sql, `SELECT count(*) AS n FROM ${rows} x WHERE ${where}`, params.values))
        ?.n ?? 0,
    );
  }

  return {
    listRounds: async (filter, page) => ({
      items: await roundsOfPage(filter, null, pageParams(page)),
      totalCount: await total('round', filter),
    }),
    listTransactions: async (filter, page) => ({
      items: await transactionsOfPage(filter, null, pageParams(page)),
      totalCount: await total('transaction', filter),
    }),
    roundsAfter: (filter, after, limit) => roundsOfPage(filter, after, [limit, 0]),
    transactionsAfter: (filter, after, limit) => transactionsOfPage(filter, after, [limit, 0]),
    findRoundDetail: async (roundId) => {
      const row = await first<RoundDetailRow>(
        sql,
        `SELECT ${ROUND_COLUMNS} FROM rounds r ${ROUND_JOINS} WHERE r.id = $1`,
        [roundId],
      );
      if (!row) return undefined;
      const transactions = await all<TransactionRecord>(
        sql,
        `SELECT ${TRANSACTION_COLUMNS} FROM transactions t WHERE t.round_id = $1 ORDER BY t.created_at, t.id`,
        [roundId],
      );
      return roundDetail(row, transactions);
    },
    findRoundRef: (roundId) =>
      first<OwnerRef>(sql, 'SELECT id, client_id AS "clientId" FROM rounds WHERE id = $1', [roundId]),
    listFlaggedRounds: async (clientId, page) => {
      const rows = await all<RoundDetailRow>(
        sql,
        `SELECT ${ROUND_COLUMNS} FROM rounds r ${ROUND_JOINS} WHERE r.client_id = $1 AND r.reconciliation
         ${NEWEST_FIRST('r')} LIMIT $2 OFFSET $3`,
        [clientId, ...pageParams(page)],
      );
      const count = await first<{ n: number }>(
        sql,
        'SELECT count(*) AS n FROM rounds WHERE client_id = $1 AND reconciliation',
        [clientId],
      );
      return { items: await withTransactions(rows), totalCount: count?.n ?? 0 };
    },
    report: (filter, groupBy) => {
      assertReportFilter(filter);
      const params = parameters();
      return all<ReportRow>(
        sql,
        reportQuery(ledgerWhere('transactions', 't', filter, params.add), groupBy),
        params.values,
      );
    },
    findPlayerRef: (playerId) =>
      first<OwnerRef>(sql, 'SELECT id, client_id AS "clientId" FROM players WHERE id = $1', [playerId]),
  };
}
