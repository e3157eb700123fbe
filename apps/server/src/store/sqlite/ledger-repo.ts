import { foldable, type LedgerList } from '../ledger-hours.ts';
import type { PageRequest } from '../paging.ts';
import type {
  LedgerFilter,
  ListCursor,
  OwnerRef,
  ReportRow,
  RoundDetail,
  TransactionRecord,
} from '../records.ts';
import { assertReportFilter, reportQuery } from '../report-query.ts';
import type { LedgerRepo } from '../repositories.ts';
import { type RoundDetailRow, roundDetail } from '../round-detail.ts';
import type { Db } from './database.ts';
import { type Background, createLedgerCounts } from './ledger-counts.ts';
import { statementCache } from './statement-cache.ts';
import type { Sync } from './sync.ts';

const TRANSACTION_COLUMNS = `t.id, t.round_id AS roundId, t.client_id AS clientId, t.profile_id AS profileId,
  t.player_id AS playerId, t.type, t.amount_minor AS amountMinor, t.currency,
  t.balance_before_minor AS balanceBeforeMinor, t.balance_after_minor AS balanceAfterMinor, t.status,
  t.created_at AS createdAt`;

const ROUND_COLUMNS = `r.id, r.client_id AS clientId, r.profile_id AS profileId, r.game_id AS gameId,
  r.session_id AS sessionId, r.status, r.currency, r.paid_minor AS paidMinor, r.prize_minor AS prizeMinor,
  r.created_at AS createdAt, r.end_at AS endAt, p.id AS playerId, p.credential, p.credential_type AS credentialType,
  coalesce(pb.balance_minor, CASE WHEN pr.currency = r.currency THEN p.balance_minor ELSE 0 END) AS balanceMinor,
  r.currency AS balanceCurrency, p.bet_wins AS betWins, p.total_bets AS totalBets`;

/** The player's last balance in the round's currency (player_balances, 005_multi_currency.sql). */
const ROUND_BALANCE_JOIN =
  'LEFT JOIN player_balances pb ON pb.player_id = r.player_id AND pb.currency = r.currency';

type Params = Record<string, string | number>;

/** A WHERE clause over fixed SQL text; every value is a named parameter. */
interface Where {
  sql: string;
  params: Params;
}

/**
 * The WHERE of a list over `alias`: r (rounds), t (transactions) or rt (round_types, which has
 * round_id, type and the round's client, profile and time). Only fixed SQL text is assembled.
 */
function ledgerWhere(alias: 'r' | 't' | 'rt', filter: LedgerFilter): Where {
  const roundId = alias === 'r' ? 'r.id' : `${alias}.round_id`;
  const params: Params = { clientId: filter.clientId };
  // A player's or a round's records are few: their own index must drive the query, so client_id is
  // kept out of the planner's way (no statistics: it walked a client-wide index instead, 1.8 s to
  // count one player's transactions on 1M rounds). A player's records are all its client's, so the
  // player's client is read once (a scalar subquery; EXISTS ran per row) and the count reads the
  // player's index alone.
  const clauses =
    filter.playerId !== null
      ? ['(SELECT pc.client_id FROM players pc WHERE pc.id = @playerId) = @clientId']
      : [`${filter.roundId !== null ? '+' : ''}${alias}.client_id = @clientId`];
  const add = (clause: string, name: string, value: string | null) => {
    if (value === null) return;
    clauses.push(clause);
    params[name] = value;
  };
  add(`${alias}.profile_id = @profileId`, 'profileId', filter.profileId);
  add(`${alias}.player_id = @playerId`, 'playerId', filter.playerId);
  add(`${roundId} = @roundId`, 'roundId', filter.roundId);
  add(
    alias === 'r'
      ? 'EXISTS (SELECT 1 FROM transactions x WHERE x.round_id = r.id AND x.type = @type)'
      : `${alias}.type = @type`,
    'type',
    filter.type,
  );
  if (alias === 'rt' && filter.status !== null) throw new Error('round_types has no status: filter rounds');
  add(`${alias}.status = @status`, 'status', filter.status);
  add(`${alias}.created_at >= @from`, 'from', filter.from);
  add(`${alias}.created_at < @before`, 'before', filter.before);
  return { sql: clauses.join(' AND '), params };
}

const pageParams = (page: PageRequest) => ({
  limit: page.pageSize,
  offset: (page.pageIndex - 1) * page.pageSize,
});

const NEWEST_FIRST = (alias: string, id = 'id') => `ORDER BY ${alias}.created_at DESC, ${alias}.${id} DESC`;

/**
 * The page's round ids, from an index alone: OFFSET then skips index entries, never rounds with
 * their player. Rounds filtered by type come from round_types unless a player or a round narrows
 * them anyway, or a status needs the rounds themselves.
 */
function roundPageQuery(filter: LedgerFilter, after: ListCursor | null = null): Where {
  const narrowed = filter.playerId !== null || filter.roundId !== null || filter.status !== null;
  if (filter.type !== null && !narrowed) {
    const where = afterCursor(ledgerWhere('rt', filter), 'rt', 'round_id', after);
    return {
      sql: `SELECT rt.round_id AS id FROM round_types rt WHERE ${where.sql}
        ${NEWEST_FIRST('rt', 'round_id')} LIMIT @limit OFFSET @offset`,
      params: where.params,
    };
  }
  const where = afterCursor(ledgerWhere('r', filter), 'r', 'id', after);
  return {
    sql: `SELECT r.id FROM rounds r WHERE ${where.sql} ${NEWEST_FIRST('r')} LIMIT @limit OFFSET @offset`,
    params: where.params,
  };
}

/** Keeps the records after `after` in NEWEST_FIRST order (keyset paging: the export's batches). */
function afterCursor(where: Where, alias: string, id: string, after: ListCursor | null): Where {
  if (after === null) return where;
  return {
    sql: `${where.sql} AND (${alias}.created_at, ${alias}.${id}) < (@afterAt, @afterId)`,
    params: { ...where.params, afterAt: after.createdAt, afterId: after.id },
  };
}

/** `background`: how the lists' readers start a fold of the counts off their path (ledger-counts.ts). */
export function createLedgerRepo(db: Db, background?: Background): Sync<LedgerRepo> {
  const statement = statementCache(db);
  const counts = createLedgerCounts(db, background);
  const roundRef = db.prepare<[string], OwnerRef>(
    'SELECT id, client_id AS clientId FROM rounds WHERE id = ?',
  );
  const playerRef = db.prepare<[string], OwnerRef>(
    'SELECT id, client_id AS clientId FROM players WHERE id = ?',
  );
  const roundById = db.prepare<[string], RoundDetailRow>(
    `SELECT ${ROUND_COLUMNS} FROM rounds r JOIN players p ON p.id = r.player_id
     JOIN profiles pr ON pr.id = p.profile_id ${ROUND_BALANCE_JOIN} WHERE r.id = ?`,
  );
  const transactionsOfRound = db.prepare<[string], TransactionRecord>(
    `SELECT ${TRANSACTION_COLUMNS} FROM transactions t WHERE t.round_id = ? ORDER BY t.created_at, t.id`,
  );
  const transactionsOfRounds = db.prepare<[string], TransactionRecord>(
    `SELECT ${TRANSACTION_COLUMNS} FROM transactions t
     WHERE t.round_id IN (SELECT value FROM json_each(?)) ORDER BY t.created_at, t.id`,
  );

  const flaggedPage = db.prepare<[string, number, number], RoundDetailRow>(
    `SELECT ${ROUND_COLUMNS} FROM rounds r JOIN players p ON p.id = r.player_id
     JOIN profiles pr ON pr.id = p.profile_id ${ROUND_BALANCE_JOIN}
     WHERE r.client_id = ? AND r.reconciliation = 1 ${NEWEST_FIRST('r')} LIMIT ? OFFSET ?`,
  );
  const flaggedCount = db.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM rounds WHERE client_id = ? AND reconciliation = 1',
  );

  /** The transactions of a page of rounds, in one query (a page holds at most 100 rounds). */
  function transactionsOf(roundIds: readonly string[]): Map<string, TransactionRecord[]> {
    const byRound = new Map<string, TransactionRecord[]>(roundIds.map((id) => [id, []]));
    if (roundIds.length === 0) return byRound;
    const rows = transactionsOfRounds.all(JSON.stringify(roundIds));
    for (const row of rows) byRound.get(row.roundId)?.push(row);
    return byRound;
  }

  /** The rounds of a page of ids (roundPageQuery), with their players and transactions. */
  function roundsOfPage(ids: Where, page: { limit: number; offset: number }): RoundDetail[] {
    // Then the page's rounds with their players: at most a page (or a batch) of each.
    const rows = statement<RoundDetailRow>(
      `SELECT ${ROUND_COLUMNS} FROM (${ids.sql}) page JOIN rounds r ON r.id = page.id
       JOIN players p ON p.id = r.player_id JOIN profiles pr ON pr.id = p.profile_id ${ROUND_BALANCE_JOIN}
       ${NEWEST_FIRST('r')}`,
    ).all({ ...ids.params, ...page });
    const transactions = transactionsOf(rows.map((row) => row.id));
    return rows.map((row) => roundDetail(row, transactions.get(row.id) ?? []));
  }

  function transactionsOfPage(where: Where, page: { limit: number; offset: number }): TransactionRecord[] {
    // Every filter but a player's has an index holding all its columns, so the rows skipped by
    // OFFSET are never read, only their index entries.
    return statement<TransactionRecord>(
      `SELECT ${TRANSACTION_COLUMNS} FROM transactions t
       WHERE ${where.sql} ${NEWEST_FIRST('t')} LIMIT @limit OFFSET @offset`,
    ).all({ ...where.params, ...page });
  }

  /**
   * The exact number of records a filter matches: from the folded per-hour counts when they answer
   * it (ledger-counts.ts), else counted: rounds by a transaction's type through round_types' index,
   * a player's, a round's or a status's rows through theirs.
   */
  function total(list: LedgerList, filter: LedgerFilter): number {
    const alias = list === 'round' ? 'r' : 't';
    if (foldable(list, filter))
      return counts.total(list, filter, ledgerWhere(alias, { ...filter, from: null, before: null }));
    const narrowed = filter.playerId !== null || filter.roundId !== null || filter.status !== null;
    const [table, where] =
      list === 'round' && filter.type !== null && !narrowed
        ? ['round_types rt', ledgerWhere('rt', filter)]
        : [list === 'round' ? 'rounds r' : 'transactions t', ledgerWhere(alias, filter)];
    return (
      statement<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE ${where.sql}`).get(where.params)
        ?.n ?? 0
    );
  }

  return {
    listRounds: (filter, page) => ({
      items: roundsOfPage(roundPageQuery(filter), pageParams(page)),
      totalCount: total('round', filter),
    }),
    listTransactions: (filter, page) => ({
      items: transactionsOfPage(ledgerWhere('t', filter), pageParams(page)),
      totalCount: total('transaction', filter),
    }),
    roundsAfter: (filter, after, limit) => roundsOfPage(roundPageQuery(filter, after), { limit, offset: 0 }),
    transactionsAfter: (filter, after, limit) =>
      transactionsOfPage(afterCursor(ledgerWhere('t', filter), 't', 'id', after), { limit, offset: 0 }),
    findRoundDetail: (roundId) => {
      const row = roundById.get(roundId);
      return row && roundDetail(row, transactionsOfRound.all(roundId));
    },
    findRoundRef: (roundId) => roundRef.get(roundId),
    listFlaggedRounds: (clientId, page) => {
      const rows = flaggedPage.all(clientId, page.pageSize, (page.pageIndex - 1) * page.pageSize);
      const transactions = transactionsOf(rows.map((row) => row.id));
      return {
        items: rows.map((row) => roundDetail(row, transactions.get(row.id) ?? [])),
        totalCount: flaggedCount.get(clientId)?.n ?? 0,
      };
    },
    report: (filter, groupBy) => {
      assertReportFilter(filter);
      const where = ledgerWhere('t', filter);
      return statement<ReportRow>(reportQuery(where.sql, groupBy)).all(where.params);
    },
    findPlayerRef: (playerId) => playerRef.get(playerId),
  };
}
