import type { Db } from './database.ts';
import type { Page, PageRequest } from './paging.ts';
import { statementCache } from './statement-cache.ts';

export const TRANSACTION_TYPES = ['bet', 'prize', 'rollback', 'deposit'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/**
 * One wallet movement of a round. `amountMinor` is signed: the change to the player's balance
 * (a bet is negative, a prize or a rollback positive), in minor units of `currency`.
 */
export interface TransactionRecord {
  id: string;
  roundId: string;
  clientId: string;
  profileId: string;
  playerId: string;
  type: TransactionType;
  amountMinor: number;
  currency: string;
  /** null until the wallet has answered. */
  balanceBeforeMinor: number | null;
  balanceAfterMinor: number | null;
  status: string;
  createdAt: string;
}

/** The player as a round shows it: its current figures, the balance in the profile's currency. */
export interface RoundPlayer {
  id: string;
  credential: string;
  credentialType: 'email' | 'username' | 'phone' | 'external';
  balanceMinor: number;
  balanceCurrency: string;
  betWins: number;
  totalBets: number;
}

/** A round with its player and its transactions (oldest first). */
export interface RoundDetail {
  id: string;
  clientId: string;
  profileId: string;
  gameId: string;
  sessionId: string;
  status: string;
  currency: string;
  paidMinor: number;
  prizeMinor: number;
  createdAt: string;
  endAt: string | null;
  player: RoundPlayer;
  transactions: TransactionRecord[];
}

/** The filters of both lists; null = not filtered. Always limited to one API client. */
export interface LedgerFilter {
  clientId: string;
  profileId: string | null;
  playerId: string | null;
  roundId: string | null;
  /** Transactions of this type; rounds having a transaction of this type. */
  type: TransactionType | null;
  /** Inclusive lower bound of `createdAt` (ISO). */
  from: string | null;
  /** Exclusive upper bound of `createdAt` (ISO). */
  before: string | null;
}

/** Who owns a record a filter names. */
export interface OwnerRef {
  id: string;
  clientId: string;
}

/** Reads the round/transaction ledger for the lists; the play loop writes it. */
export interface LedgerRepo {
  /** Newest first. */
  listRounds(filter: LedgerFilter, page: PageRequest): Page<RoundDetail>;
  /** Newest first. */
  listTransactions(filter: LedgerFilter, page: PageRequest): Page<TransactionRecord>;
  findRoundRef(roundId: string): OwnerRef | undefined;
  findPlayerRef(playerId: string): OwnerRef | undefined;
}

const TRANSACTION_COLUMNS = `t.id, t.round_id AS roundId, t.client_id AS clientId, t.profile_id AS profileId,
  t.player_id AS playerId, t.type, t.amount_minor AS amountMinor, t.currency,
  t.balance_before_minor AS balanceBeforeMinor, t.balance_after_minor AS balanceAfterMinor, t.status,
  t.created_at AS createdAt`;

const ROUND_COLUMNS = `r.id, r.client_id AS clientId, r.profile_id AS profileId, r.game_id AS gameId,
  r.session_id AS sessionId, r.status, r.currency, r.paid_minor AS paidMinor, r.prize_minor AS prizeMinor,
  r.created_at AS createdAt, r.end_at AS endAt, p.id AS playerId, p.credential, p.credential_type AS credentialType,
  p.balance_minor AS balanceMinor, pr.currency AS balanceCurrency, p.bet_wins AS betWins, p.total_bets AS totalBets`;

type RoundRow = Omit<RoundDetail, 'player' | 'transactions'> & Omit<RoundPlayer, 'id'> & { playerId: string };

/**
 * The WHERE shared by both lists, over alias `alias` (r: rounds, t: transactions). Only fixed
 * SQL text is assembled; every value is a named parameter.
 */
function ledgerWhere(alias: 'r' | 't', filter: LedgerFilter) {
  const roundId = alias === 'r' ? 'r.id' : 't.round_id';
  const clauses = [`${alias}.client_id = @clientId`];
  const params: Record<string, string> = { clientId: filter.clientId };
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
      : 't.type = @type',
    'type',
    filter.type,
  );
  add(`${alias}.created_at >= @from`, 'from', filter.from);
  add(`${alias}.created_at < @before`, 'before', filter.before);
  return { sql: clauses.join(' AND '), params };
}

const pageParams = (page: PageRequest) => ({
  limit: page.pageSize,
  offset: (page.pageIndex - 1) * page.pageSize,
});

export function createLedgerRepo(db: Db): LedgerRepo {
  const statement = statementCache(db);
  const roundRef = db.prepare<[string], OwnerRef>(
    'SELECT id, client_id AS clientId FROM rounds WHERE id = ?',
  );
  const playerRef = db.prepare<[string], OwnerRef>(
    'SELECT id, client_id AS clientId FROM players WHERE id = ?',
  );
  const transactionsOfRounds = db.prepare<[string], TransactionRecord>(
    `SELECT ${TRANSACTION_COLUMNS} FROM transactions t
     WHERE t.round_id IN (SELECT value FROM json_each(?)) ORDER BY t.created_at, t.id`,
  );

  /** The transactions of a page of rounds, in one query (a page holds at most 100 rounds). */
  function transactionsOf(roundIds: readonly string[]): Map<string, TransactionRecord[]> {
    const byRound = new Map<string, TransactionRecord[]>(roundIds.map((id) => [id, []]));
    if (roundIds.length === 0) return byRound;
    const rows = transactionsOfRounds.all(JSON.stringify(roundIds));
    for (const row of rows) byRound.get(row.roundId)?.push(row);
    return byRound;
  }

  return {
    listRounds: (filter, page) => {
      const where = ledgerWhere('r', filter);
      const rows = statement<RoundRow>(
        `SELECT ${ROUND_COLUMNS} FROM rounds r JOIN players p ON p.id = r.player_id
         JOIN profiles pr ON pr.id = p.profile_id
         WHERE ${where.sql} ORDER BY r.created_at DESC, r.id DESC LIMIT @limit OFFSET @offset`,
      ).all({ ...where.params, ...pageParams(page) });
      const total = statement<{ n: number }>(`SELECT count(*) AS n FROM rounds r WHERE ${where.sql}`).get(
        where.params,
      );
      const transactions = transactionsOf(rows.map((row) => row.id));
      return {
        items: rows.map(
          ({
            playerId,
            credential,
            credentialType,
            balanceMinor,
            balanceCurrency,
            betWins,
            totalBets,
            ...round
          }) => ({
            ...round,
            player: {
              id: playerId,
              credential,
              credentialType,
              balanceMinor,
              balanceCurrency,
              betWins,
              totalBets,
            },
            transactions: transactions.get(round.id) ?? [],
          }),
        ),
        totalCount: total?.n ?? 0,
      };
    },
    listTransactions: (filter, page) => {
      const where = ledgerWhere('t', filter);
      const items = statement<TransactionRecord>(
        `SELECT ${TRANSACTION_COLUMNS} FROM transactions t
         WHERE ${where.sql} ORDER BY t.created_at DESC, t.id DESC LIMIT @limit OFFSET @offset`,
      ).all({ ...where.params, ...pageParams(page) });
      const total = statement<{ n: number }>(
        `SELECT count(*) AS n FROM transactions t WHERE ${where.sql}`,
      ).get(where.params);
      return { items, totalCount: total?.n ?? 0 };
    },
    findRoundRef: (roundId) => roundRef.get(roundId),
    findPlayerRef: (playerId) => playerRef.get(playerId),
  };
}
