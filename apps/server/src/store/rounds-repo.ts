import type { Db } from './database.ts';
import type { TransactionRecord } from './ledger-repo.ts';

export type RoundStatus = 'pending' | 'open' | 'closing' | 'closed' | 'declined' | 'voided';
export type TransactionStatus = 'pending' | 'completed' | 'declined' | 'failed';

/** A round as the play loop writes it (the lists read it through the ledger repo). */
export interface RoundRecord {
  id: string;
  clientId: string;
  profileId: string;
  gameId: string;
  playerId: string;
  sessionId: string;
  status: RoundStatus;
  currency: string;
  paidMinor: number;
  prizeMinor: number;
  createdAt: string;
  endAt: string | null;
  poolId: string | null;
  drawIndex: number | null;
  level: number | null;
  /** The card as JSON (CardOfModel), once the ticket is drawn. */
  cardJson: string | null;
  lastActionAt: string;
  /** Set when a prize or rollback could not be settled automatically. */
  reconciliation: boolean;
}

/**
 * A wallet movement as the play loop keeps it: the listed transaction plus the state of the wallet
 * call that carries it (its id is the transactionId).
 */
export interface LedgerTransaction extends TransactionRecord {
  status: TransactionStatus;
  originalTransactionId: string | null;
  attempts: number;
  /** When the retrier may pick it up (an in-flight call holds it off until its time-out has passed). */
  nextAttemptAt: string | null;
  lastError: string | null;
  completedAt: string | null;
}

/** What the fairness check reads of a round that drew a ticket from a pool. */
export interface PoolDrawRecord {
  roundId: string;
  drawIndex: number | null;
  level: number | null;
  cardJson: string | null;
  prizeMinor: number;
}

export interface RoundsRepo {
  insertRound(round: RoundRecord): void;
  findRound(id: string): RoundRecord | undefined;
  /** The player's round that waits on the wallet or is in play. */
  findLiveRound(playerId: string): RoundRecord | undefined;
  updateRound(id: string, change: Partial<Omit<RoundRecord, 'id'>>): void;
  insertTransaction(transaction: LedgerTransaction): void;
  findTransaction(id: string): LedgerTransaction | undefined;
  transactionsOfRound(roundId: string): LedgerTransaction[];
  updateTransaction(id: string, change: Partial<Omit<LedgerTransaction, 'id'>>): void;
  /** Pending wallet calls whose time has come, oldest first. */
  dueTransactions(now: string, limit: number): LedgerTransaction[];
  /** Open rounds whose last action was before `before`. */
  idleOpenRounds(before: string, limit: number): RoundRecord[];
  /** Makes every pending wallet call due now: after a restart none of them is in flight. */
  releasePending(now: string): number;
  /**
   * Records the balance the wallet reported in `currency` and the player's counters (the
   * player's own balance column only when it is the profile's default currency).
   */
  updatePlayer(
    playerId: string,
    currency: string,
    balanceMinor: number,
    betsAdded: number,
    winsAdded: number,
  ): void;
  /** The rounds that drew from a pool, by draw index; streamed, since a pool may hold millions. */
  iteratePoolDraws(poolId: string): IterableIterator<PoolDrawRecord>;
  /** The round that drew `drawIndex` of a pool. */
  findPoolDraw(poolId: string, drawIndex: number): PoolDrawRecord | undefined;
}

const ROUND_FIELDS: Record<keyof RoundRecord, string> = {
  id: 'id',
  clientId: 'client_id',
  profileId: 'profile_id',
  gameId: 'game_id',
  playerId: 'player_id',
  sessionId: 'session_id',
  status: 'status',
  currency: 'currency',
  paidMinor: 'paid_minor',
  prizeMinor: 'prize_minor',
  createdAt: 'created_at',
  endAt: 'end_at',
  poolId: 'pool_id',
  drawIndex: 'draw_index',
  level: 'level',
  cardJson: 'card_json',
  lastActionAt: 'last_action_at',
  reconciliation: 'reconciliation',
};

const TRANSACTION_FIELDS: Record<keyof LedgerTransaction, string> = {
  id: 'id',
  roundId: 'round_id',
  clientId: 'client_id',
  profileId: 'profile_id',
  playerId: 'player_id',
  type: 'type',
  amountMinor: 'amount_minor',
  currency: 'currency',
  balanceBeforeMinor: 'balance_before_minor',
  balanceAfterMinor: 'balance_after_minor',
  status: 'status',
  createdAt: 'created_at',
  originalTransactionId: 'original_transaction_id',
  attempts: 'attempts',
  nextAttemptAt: 'next_attempt_at',
  lastError: 'last_error',
  completedAt: 'completed_at',
};

const select = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([key, column]) => `${column} AS ${key}`)
    .join(', ');

type RoundRow = Omit<RoundRecord, 'reconciliation'> & { reconciliation: 0 | 1 };
const roundFromRow = (row: RoundRow): RoundRecord => ({ ...row, reconciliation: row.reconciliation === 1 });
const toSql = (value: unknown) => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

export function createRoundsRepo(db: Db): RoundsRepo {
  const roundColumns = select(ROUND_FIELDS);
  const transactionColumns = select(TRANSACTION_FIELDS);
  const insertRound = db.prepare(
    `INSERT INTO rounds (${Object.values(ROUND_FIELDS).join(', ')}) VALUES (${Object.keys(ROUND_FIELDS)
      .map((key) => `@${key}`)
      .join(', ')})`,
  );
  const insertTransaction = db.prepare(
    `INSERT INTO transactions (${Object.values(TRANSACTION_FIELDS).join(', ')}) VALUES (${Object.keys(
      TRANSACTION_FIELDS,
    )
      .map((key) => `@${key}`)
      .join(', ')})`,
  );
  const round = db.prepare<[string], RoundRow>(`SELECT ${roundColumns} FROM rounds WHERE id = ?`);
  const live = db.prepare<[string], RoundRow>(
    `SELECT ${roundColumns} FROM rounds WHERE player_id = ? AND status IN ('pending', 'open', 'closing')`,
  );
  const transaction = db.prepare<[string], LedgerTransaction>(
    `SELECT ${transactionColumns} FROM transactions WHERE id = ?`,
  );
  const ofRound = db.prepare<[string], LedgerTransaction>(
    `SELECT ${transactionColumns} FROM transactions WHERE round_id = ? ORDER BY created_at, id`,
  );
  const due = db.prepare<[string, number], LedgerTransaction>(
    `SELECT ${transactionColumns} FROM transactions WHERE status = 'pending' AND next_attempt_at <= ?
     ORDER BY next_attempt_at, id LIMIT ?`,
  );
  const idle = db.prepare<[string, number], RoundRow>(
    `SELECT ${roundColumns} FROM rounds WHERE status = 'open' AND last_action_at < ? ORDER BY last_action_at LIMIT ?`,
  );
  const player = db.prepare(
    `UPDATE players SET total_bets = total_bets + @betsAdded, bet_wins = bet_wins + @winsAdded,
       balance_minor = CASE WHEN (SELECT currency FROM profiles WHERE id = players.profile_id) = @currency
         THEN @balanceMinor ELSE balance_minor END
     WHERE id = @playerId`,
  );
  const playerBalance = db.prepare(
    `INSERT INTO player_balances (player_id, currency, balance_minor) VALUES (@playerId, @currency, @balanceMinor)
     ON CONFLICT (player_id, currency) DO UPDATE SET balance_minor = excluded.balance_minor`,
  );
  const drawColumns =
    'id AS roundId, draw_index AS drawIndex, level, card_json AS cardJson, prize_minor AS prizeMinor';
  const poolDraws = db.prepare<[string], PoolDrawRecord>(
    `SELECT ${drawColumns} FROM rounds WHERE pool_id = ? ORDER BY draw_index`,
  );
  const poolDraw = db.prepare<[string, number], PoolDrawRecord>(
    `SELECT ${drawColumns} FROM rounds WHERE pool_id = ? AND draw_index = ?`,
  );
  const release = db.prepare("UPDATE transactions SET next_attempt_at = ? WHERE status = 'pending'");
  const updates = new Map<string, ReturnType<Db['prepare']>>();
  const update = (
    table: string,
    fields: Record<string, string>,
    id: string,
    change: Record<string, unknown>,
  ) => {
    const keys = Object.keys(change).filter((key) => key in fields && change[key] !== undefined);
    if (keys.length === 0) return;
    const sql = `UPDATE ${table} SET ${keys.map((key) => `${fields[key]} = @${key}`).join(', ')} WHERE id = @id`;
    let statement = updates.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      updates.set(sql, statement);
    }
    statement.run({ ...Object.fromEntries(keys.map((key) => [key, toSql(change[key])])), id });
  };
  return {
    insertRound: (record) =>
      void insertRound.run({ ...record, reconciliation: record.reconciliation ? 1 : 0 }),
    findRound: (id) => {
      const row = round.get(id);
      return row && roundFromRow(row);
    },
    findLiveRound: (playerId) => {
      const row = live.get(playerId);
      return row && roundFromRow(row);
    },
    updateRound: (id, change) => update('rounds', ROUND_FIELDS, id, change),
    insertTransaction: (record) => void insertTransaction.run(record),
    findTransaction: (id) => transaction.get(id),
    transactionsOfRound: (roundId) => ofRound.all(roundId),
    updateTransaction: (id, change) => update('transactions', TRANSACTION_FIELDS, id, change),
    dueTransactions: (now, limit) => due.all(now, limit),
    idleOpenRounds: (before, limit) => idle.all(before, limit).map(roundFromRow),
    releasePending: (now) => release.run(now).changes,
    updatePlayer: (playerId, currency, balanceMinor, betsAdded, winsAdded) => {
      player.run({ playerId, currency, balanceMinor, betsAdded, winsAdded });
      playerBalance.run({ playerId, currency, balanceMinor });
    },
    iteratePoolDraws: (poolId) => poolDraws.iterate(poolId),
    findPoolDraw: (poolId, drawIndex) => poolDraw.get(poolId, drawIndex),
  };
}
