import type { Exec } from '../dialect/exec.ts';
import { isSet } from '../dialect/fragments.ts';
import { assembledStatement, type Dialect, statement } from '../dialect/statement.ts';
import { byRoundTypes, type LedgerCounts, type LedgerList, type Where } from '../ledger-hours.ts';
import type { PageRequest } from '../paging.ts';
import type {
  LedgerFilter,
  ListCursor,
  OwnerRef,
  ReportRow,
  RoundDetail,
  TransactionRecord,
} from '../records.ts';
import { assertReportFilter, type ReportWhere, reportQuery } from '../report-query.ts';
import type { LedgerRepo } from '../repositories.ts';
import { type RoundDetailRow, roundDetail } from '../round-detail.ts';

const TRANSACTION_COLUMNS = `t.id, t.round_id AS "roundId", t.client_id AS "clientId", t.profile_id AS "profileId",
  t.player_id AS "playerId", t.type, t.amount_minor AS "amountMinor", t.currency,
  t.balance_before_minor AS "balanceBeforeMinor", t.balance_after_minor AS "balanceAfterMinor", t.status,
  t.created_at AS "createdAt"`;

const ROUND_COLUMNS = `r.id, r.client_id AS "clientId", r.profile_id AS "profileId", r.game_id AS "gameId",
  r.session_id AS "sessionId", r.status, r.currency, r.paid_minor AS "paidMinor", r.prize_minor AS "prizeMinor",
  r.created_at AS "createdAt", r.end_at AS "endAt", r.promotion_id AS "promotionId", r.test, p.id AS "playerId", p.credential,
  p.credential_type AS "credentialType",
  coalesce(pb.balance_minor, CASE WHEN pr.currency = r.currency THEN p.balance_minor ELSE 0 END) AS "balanceMinor",
  r.currency AS "balanceCurrency", p.bet_wins AS "betWins", p.total_bets AS "totalBets"`;

/** The round with its player, its profile and the player's last balance in the round's currency. */
const ROUND_JOINS = `JOIN players p ON p.id = r.player_id JOIN profiles pr ON pr.id = p.profile_id
  LEFT JOIN player_balances pb ON pb.player_id = r.player_id AND pb.currency = r.currency`;

/** The rows a list reads: rounds, transactions, or rounds by a transaction's type (round_types). */
type Rows = 'rounds' | 'transactions' | 'round_types';
const ROWS_OF: Record<LedgerList, Rows> = { round: 'rounds', transaction: 'transactions' };

const NEWEST_FIRST = (alias: string, id = 'id') => `ORDER BY ${alias}.created_at DESC, ${alias}.${id} DESC`;

const roundById = statement<{ id: string }, RoundDetailRow>(
  `SELECT ${ROUND_COLUMNS} FROM rounds r ${ROUND_JOINS} WHERE r.id = :id`,
);
const transactionsOfRound = statement<{ roundId: string }, TransactionRecord>(
  `SELECT ${TRANSACTION_COLUMNS} FROM transactions t WHERE t.round_id = :roundId ORDER BY t.created_at, t.id`,
);
/** A page's rounds' transactions in one query (a page holds at most 100 rounds). */
const transactionsOfRounds = statement<{ ids: string | readonly string[] }, TransactionRecord>(
  (d) =>
    `SELECT ${TRANSACTION_COLUMNS} FROM transactions t WHERE ${
      d === 'sqlite' ? 't.round_id IN (SELECT value FROM json_each(:ids))' : 't.round_id = ANY(:ids::text[])'
    } ORDER BY t.created_at, t.id`,
);
const roundRef = statement<{ id: string }, OwnerRef>(
  'SELECT id, client_id AS "clientId" FROM rounds WHERE id = :id',
);
const playerRef = statement<{ id: string }, OwnerRef>(
  'SELECT id, client_id AS "clientId" FROM players WHERE id = :id',
);
const flaggedPage = statement<{ clientId: string; limit: number; offset: number }, RoundDetailRow>(
  (d) => `SELECT ${ROUND_COLUMNS} FROM rounds r ${ROUND_JOINS}
   WHERE r.client_id = :clientId AND ${isSet(d, 'r.reconciliation')} ${NEWEST_FIRST('r')} LIMIT :limit OFFSET :offset`,
);
const flaggedCount = statement<{ clientId: string }, { n: number }>(
  (d) => `SELECT count(*) AS n FROM rounds WHERE client_id = :clientId AND ${isSet(d, 'reconciliation')}`,
);

/**
 * The filter's client. On SQLite a player's or a round's records are few: their own index must
 * drive the query, so client_id is kept out of the planner's way (it has no statistics: it walked
 * a client-wide index instead, 1.8 s to count one player's transactions on 1M rounds). A player's
 * records are all its client's, so the player's client is read once (a scalar subquery; EXISTS
 * ran per row) and the count reads the player's index alone. PostgreSQL's planner needs no help.
 */
function ownedBy(d: Dialect, alias: string, filter: LedgerFilter): string {
  if (d === 'postgres') return `${alias}.client_id = :clientId`;
  if (filter.playerId !== null)
    return '(SELECT pc.client_id FROM players pc WHERE pc.id = :playerId) = :clientId';
  return `${filter.roundId !== null ? '+' : ''}${alias}.client_id = :clientId`;
}

/**
 * The WHERE of a list over `rows` (as `alias`): fixed SQL text, every value a parameter. Without
 * `dates` it leaves the filter's dates out (the folded totals add their own bounds).
 */
function ledgerWhere(
  d: Dialect,
  rows: Rows,
  alias: string,
  filter: LedgerFilter,
  options: { dates?: boolean } = {},
): Where {
  const params: Where['params'] = { clientId: filter.clientId };
  const clauses = [ownedBy(d, alias, filter)];
  const add = (clause: string, name: string, value: string | null) => {
    if (value === null) return;
    clauses.push(clause);
    params[name] = value;
  };
  add(`${alias}.profile_id = :profileId`, 'profileId', filter.profileId);
  if (rows === 'round_types') {
    // round_types holds a round's client, profile, type and created_at only (byRoundTypes).
    if (!byRoundTypes('round', filter)) throw new Error('round_types answers a type, a profile, dates');
    add(`${alias}.type = :type`, 'type', filter.type);
  } else {
    add(`${alias}.player_id = :playerId`, 'playerId', filter.playerId);
    add(`${alias}.${rows === 'rounds' ? 'id' : 'round_id'} = :roundId`, 'roundId', filter.roundId);
    add(
      rows === 'rounds'
        ? `EXISTS (SELECT 1 FROM transactions tt WHERE tt.round_id = ${alias}.id AND tt.type = :type)`
        : `${alias}.type = :type`,
      'type',
      filter.type,
    );
    add(`${alias}.status = :status`, 'status', filter.status);
  }
  if (options.dates !== false) {
    add(`${alias}.created_at >= :from`, 'from', filter.from);
    add(`${alias}.created_at < :before`, 'before', filter.before);
  }
  return { sql: clauses.join(' AND '), params };
}

/**
 * The report's conditions over the same filter (report-query.ts): its transactions (as the
 * transaction list's); its free rounds `r`, found through their promotions `pm` (a promotion's
 * rounds are its client's and profile's) and dated by the round; and those rounds' prizes `t`,
 * dated by the transaction. Every parameter is one of the transactions' conditions.
 */
function reportWhere(d: Dialect, filter: LedgerFilter): { sql: ReportWhere; params: Where['params'] } {
  const transactions = ledgerWhere(d, 'transactions', 't', filter);
  // Test profiles' rounds are left out (docs/certification.md): a profile never changes to or from
  // test, so its rounds are test rounds. The client's test profiles are read once (a few rows).
  const real = (alias: string) =>
    `${alias}.profile_id NOT IN (SELECT tp.id FROM profiles tp WHERE tp.client_id = :clientId AND tp.type = 'test')`;
  const owned = ['pm.client_id = :clientId', real('pm')];
  const ifSet = (clause: string, value: string | null) => (value === null ? [] : [clause]);
  owned.push(
    ...ifSet('pm.profile_id = :profileId', filter.profileId),
    ...ifSet('r.player_id = :playerId', filter.playerId),
    ...ifSet('r.id = :roundId', filter.roundId),
  );
  // The dates only, not the transactions' own client condition: those parts are driven from the
  // promotions, and a client index on transactions must not tempt SQLite's planner (no statistics).
  const dated = (alias: string) => [
    ...ifSet(`${alias}.created_at >= :from`, filter.from),
    ...ifSet(`${alias}.created_at < :before`, filter.before),
  ];
  return {
    sql: {
      transactions: `${transactions.sql} AND ${real('t')}`,
      freeRounds: [...owned, ...dated('r')].join(' AND '),
      freePrizes: [...owned, ...dated('t')].join(' AND '),
    },
    params: transactions.params,
  };
}

/** Keeps the records after `after` in NEWEST_FIRST order (keyset paging: the export's batches). */
function afterCursor(where: Where, alias: string, id: string, after: ListCursor | null): Where {
  if (after === null) return where;
  return {
    sql: `${where.sql} AND (${alias}.created_at, ${alias}.${id}) < (:afterAt, :afterId)`,
    params: { ...where.params, afterAt: after.createdAt, afterId: after.id },
  };
}

type Paged = { limit: number; offset: number };
const pageOf = (page: PageRequest): Paged => ({
  limit: page.pageSize,
  offset: (page.pageIndex - 1) * page.pageSize,
});

/**
 * The page's round ids, from an index alone: OFFSET then skips index entries, never rounds with
 * their player (else PostgreSQL joins every skipped round to its player before the OFFSET drops
 * it). Rounds by a transaction's type walk round_types instead of probing each round.
 */
function roundIds(d: Dialect, filter: LedgerFilter, after: ListCursor | null): Where {
  const where = byRoundTypes('round', filter)
    ? afterCursor(ledgerWhere(d, 'round_types', 'rt', filter), 'rt', 'round_id', after)
    : afterCursor(ledgerWhere(d, 'rounds', 'r', filter), 'r', 'id', after);
  return {
    sql: byRoundTypes('round', filter)
      ? `SELECT rt.round_id AS id FROM round_types rt WHERE ${where.sql} ${NEWEST_FIRST('rt', 'round_id')}
         LIMIT :limit OFFSET :offset`
      : `SELECT r.id FROM rounds r WHERE ${where.sql} ${NEWEST_FIRST('r')} LIMIT :limit OFFSET :offset`,
    params: where.params,
  };
}

/**
 * The round and transaction lists, their totals, one round, and the report, on either database.
 * The totals come from `counts` (per dialect: ledger-hours.ts LedgerCounts) for the filters they
 * answer, else from counting the rows.
 */
export function createLedgerRepo(x: Exec, counts: LedgerCounts): LedgerRepo {
  const d = x.dialect;

  /** The transactions of a page of rounds, by round. */
  async function transactionsOf(roundIds: readonly string[]): Promise<Map<string, TransactionRecord[]>> {
    const byRound = new Map<string, TransactionRecord[]>(roundIds.map((id) => [id, []]));
    if (roundIds.length === 0) return byRound;
    const rows = await x.all(transactionsOfRounds, {
      ids: d === 'sqlite' ? JSON.stringify(roundIds) : roundIds,
    });
    for (const row of rows) byRound.get(row.roundId)?.push(row);
    return byRound;
  }

  /** A page of rounds as the lists show them, each with its transactions. */
  async function withTransactions(rows: RoundDetailRow[]): Promise<RoundDetail[]> {
    const transactions = await transactionsOf(rows.map((row) => row.id));
    return rows.map((row) => roundDetail(row, transactions.get(row.id) ?? []));
  }

  /** Newest first, from `after` on (null: the newest): the page's ids, then only their rows joined. */
  async function roundsOfPage(filter: LedgerFilter, after: ListCursor | null, page: Paged) {
    const ids = roundIds(d, filter, after);
    const rows = await x.all(
      assembledStatement<Where['params'] & Paged, RoundDetailRow>(
        `SELECT ${ROUND_COLUMNS} FROM (${ids.sql}) page JOIN rounds r ON r.id = page.id ${ROUND_JOINS}
         ${NEWEST_FIRST('r')}`,
      ),
      { ...ids.params, ...page },
    );
    return withTransactions(rows);
  }

  async function transactionsOfPage(filter: LedgerFilter, after: ListCursor | null, page: Paged) {
    // Every filter but a player's has an index holding all its columns (SQLite), so the rows
    // skipped by OFFSET are never read, only their index entries.
    const where = afterCursor(ledgerWhere(d, 'transactions', 't', filter), 't', 'id', after);
    return x.all(
      assembledStatement<Where['params'] & Paged, TransactionRecord>(
        `SELECT ${TRANSACTION_COLUMNS} FROM transactions t WHERE ${where.sql} ${NEWEST_FIRST('t')}
         LIMIT :limit OFFSET :offset`,
      ),
      { ...where.params, ...page },
    );
  }

  /** The exact number of records a filter matches: from the counts when they answer it, else counted. */
  async function total(list: LedgerList, filter: LedgerFilter): Promise<number> {
    if (counts.answers(list, filter)) {
      const rows = byRoundTypes(list, filter) ? 'round_types' : ROWS_OF[list];
      return counts.total(list, filter, ledgerWhere(d, rows, 'x', filter, { dates: false }));
    }
    const where = ledgerWhere(d, ROWS_OF[list], 'x', filter);
    const row = await x.first(
      assembledStatement<Where['params'], { n: number }>(
        `SELECT count(*) AS n FROM ${ROWS_OF[list]} x WHERE ${where.sql}`,
      ),
      where.params,
    );
    return row?.n ?? 0;
  }

  return {
    listRounds: async (filter, page) => ({
      items: await roundsOfPage(filter, null, pageOf(page)),
      totalCount: await total('round', filter),
    }),
    listTransactions: async (filter, page) => ({
      items: await transactionsOfPage(filter, null, pageOf(page)),
      totalCount: await total('transaction', filter),
    }),
    roundsAfter: (filter, after, limit) => roundsOfPage(filter, after, { limit, offset: 0 }),
    transactionsAfter: (filter, after, limit) => transactionsOfPage(filter, after, { limit, offset: 0 }),
    findRoundDetail: async (roundId) => {
      const row = await x.first(roundById, { id: roundId });
      return row && roundDetail(row, await x.all(transactionsOfRound, { roundId }));
    },
    findRoundRef: async (roundId) => x.first(roundRef, { id: roundId }),
    listFlaggedRounds: async (clientId, page) => {
      const rows = await x.all(flaggedPage, { clientId, ...pageOf(page) });
      const items = await withTransactions(rows);
      return { items, totalCount: (await x.first(flaggedCount, { clientId }))?.n ?? 0 };
    },
    report: async (filter, groupBy) => {
      assertReportFilter(filter);
      const where = reportWhere(d, filter);
      return x.all(
        assembledStatement<Where['params'], ReportRow>(reportQuery(where.sql, groupBy)),
        where.params,
      );
    },
    findPlayerRef: async (playerId) => x.first(playerRef, { id: playerId }),
  };
}
