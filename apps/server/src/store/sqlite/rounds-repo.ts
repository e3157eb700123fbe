import { eventCallObjectArgs, ROUND_FIELDS, TRANSACTION_FIELDS } from '../ledger-columns.ts';
import type {
  LedgerTransaction,
  PoolDrawRecord,
  RoundPlayer,
  RoundRecord,
  RoundResolutionRecord,
  TransactionRecord,
  WalletAttemptRecord,
} from '../records.ts';
import { noUsableFreeCard } from '../repos/free-cards-repo.ts';
import type { RoundsRepo } from '../repositories.ts';
import { type HeldRoundRow, heldRound } from '../round-detail.ts';
import { type Db, immediate } from './database.ts';
import type { Sync } from './sync.ts';

const select = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([key, column]) => `${column} AS ${key}`)
    .join(', ');

type RoundRow = Omit<RoundRecord, 'reconciliation'> & { reconciliation: 0 | 1 };
const roundFromRow = (row: RoundRow): RoundRecord => ({ ...row, reconciliation: row.reconciliation === 1 });
const toSql = (value: unknown) => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

type PlayerChange = {
  playerId: string;
  currency: string;
  balanceMinor: number;
  betsAdded: number;
  winsAdded: number;
};

type HeldRow = RoundRow & Omit<HeldRoundRow, 'calls'> & { calls: string };

const roundColumnsOf = (alias: string) =>
  Object.entries(ROUND_FIELDS)
    .map(([key, column]) => `${alias}.${column} AS ${key}`)
    .join(', ');

function heldFromRow({
  credential,
  credentialType,
  balanceMinor,
  betWins,
  totalBets,
  calls,
  ...row
}: HeldRow) {
  const player = { credential, credentialType, balanceMinor, betWins, totalBets };
  return heldRound(roundFromRow(row), { ...player, calls: JSON.parse(calls) as TransactionRecord[] });
}

export function createRoundsRepo(db: Db): Sync<RoundsRepo> {
  const roundColumns = select(ROUND_FIELDS);
  const transactionColumns = select(TRANSACTION_FIELDS);
  const insertRound = db.prepare(
    `INSERT INTO rounds (${Object.values(ROUND_FIELDS).join(', ')}) VALUES (${Object.keys(ROUND_FIELDS)
      .map((key) => `@${key}`)
      .join(', ')})`,
  );
  // ON CONFLICT DO NOTHING names no index: the only one a new round's id can meet is the live one.
  const insertLive = db.prepare(
    `INSERT INTO rounds (${Object.values(ROUND_FIELDS).join(', ')}) SELECT ${Object.keys(ROUND_FIELDS)
      .map((key) => `@${key}`)
      .join(', ')} WHERE EXISTS (SELECT 1 FROM games WHERE id = @gameId AND active = 1)
       AND ${noUsableFreeCard('sqlite', (field) => `@${field}`)} ON CONFLICT DO NOTHING`,
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
  const player = db.prepare<PlayerChange, Omit<RoundPlayer, 'balanceMinor' | 'balanceCurrency'>>(
    `UPDATE players SET total_bets = total_bets + @betsAdded, bet_wins = bet_wins + @winsAdded,
       balance_minor = CASE WHEN (SELECT currency FROM profiles WHERE id = players.profile_id) = @currency
         THEN @balanceMinor ELSE balance_minor END
     WHERE id = @playerId
     RETURNING id, credential, credential_type AS credentialType, bet_wins AS betWins, total_bets AS totalBets`,
  );
  // The round, its player as the round's detail shows it (repos/ledger-repo.ts) and its calls as JSON,
  // oldest first: one statement for what the round's event is built from.
  const held = db.prepare<[string], HeldRow>(
    `SELECT ${roundColumnsOf('r')}, p.credential, p.credential_type AS credentialType,
       coalesce(pb.balance_minor, CASE WHEN pr.currency = r.currency THEN p.balance_minor ELSE 0 END) AS balanceMinor,
       p.bet_wins AS betWins, p.total_bets AS totalBets,
       (SELECT json_group_array(json_object(${eventCallObjectArgs('t')})) FROM
         (SELECT * FROM transactions WHERE round_id = r.id ORDER BY created_at, id) t) AS calls
     FROM rounds r JOIN players p ON p.id = r.player_id JOIN profiles pr ON pr.id = p.profile_id
     LEFT JOIN player_balances pb ON pb.player_id = r.player_id AND pb.currency = r.currency
     WHERE r.id = ?`,
  );
  const playerBalance = db.prepare(
    `INSERT INTO player_balances (player_id, currency, balance_minor) VALUES (@playerId, @currency, @balanceMinor)
     ON CONFLICT (player_id, currency) DO UPDATE SET balance_minor = excluded.balance_minor`,
  );
  const drawColumns =
    'id AS roundId, draw_index AS drawIndex, level, card_json AS cardJson, prize_minor AS prizeMinor';
  const poolDraws = db.prepare<[string, number, number], PoolDrawRecord>(
    `SELECT ${drawColumns} FROM rounds WHERE pool_id = ? AND draw_index > ? ORDER BY draw_index LIMIT ?`,
  );
  const poolDraw = db.prepare<[string, number], PoolDrawRecord>(
    `SELECT ${drawColumns} FROM rounds WHERE pool_id = ? AND draw_index = ?`,
  );
  const release = db.prepare(
    "UPDATE transactions SET next_attempt_at = ?, lease_owner = NULL WHERE status = 'pending'",
  );
  const claimDue = db.prepare<{ id: string; owner: string; now: string; until: string }, LedgerTransaction>(
    `UPDATE transactions SET next_attempt_at = @until, lease_owner = @owner
     WHERE id = @id AND status = 'pending' AND next_attempt_at <= @now RETURNING ${transactionColumns}`,
  );
  const insertAttempt = db.prepare(`INSERT INTO wallet_call_attempts (id, transaction_id, round_id, attempt,
    sent_at, duration_ms, outcome, http_status, balance_minor, detail) VALUES (@id, @transactionId, @roundId,
    @attempt, @sentAt, @durationMs, @outcome, @httpStatus, @balanceMinor, @detail)`);
  const attemptsOfRound = db.prepare<[string], WalletAttemptRecord>(
    `SELECT id, transaction_id AS transactionId, round_id AS roundId, attempt, sent_at AS sentAt,
       duration_ms AS durationMs, outcome, http_status AS httpStatus, balance_minor AS balanceMinor, detail
     FROM wallet_call_attempts WHERE round_id = ? ORDER BY sent_at, id`,
  );
  const unflag = db.prepare<[string]>(
    'UPDATE rounds SET reconciliation = 0 WHERE id = ? AND reconciliation = 1',
  );
  const insertResolution = db.prepare(`INSERT INTO round_resolutions (round_id, resolution, note, resolved_at)
    VALUES (@roundId, @resolution, @note, @resolvedAt)`);
  const resolution = db.prepare<[string], RoundResolutionRecord>(
    `SELECT round_id AS roundId, resolution, note, resolved_at AS resolvedAt FROM round_resolutions
     WHERE round_id = ?`,
  );
  const updates = new Map<string, ReturnType<Db['prepare']>>();
  const update = (
    table: string,
    fields: Record<string, string>,
    id: string,
    change: Record<string, unknown>,
    whileStatus?: string,
  ): number => {
    const keys = Object.keys(change).filter((key) => key in fields && change[key] !== undefined);
    if (keys.length === 0 && whileStatus === undefined) return 0;
    const sets = keys.length > 0 ? keys.map((key) => `${fields[key]} = @${key}`).join(', ') : 'id = id';
    const guard = whileStatus === undefined ? '' : ' AND status = @whileStatus';
    const sql = `UPDATE ${table} SET ${sets} WHERE id = @id${guard}`;
    let statement = updates.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      updates.set(sql, statement);
    }
    return statement.run({
      ...Object.fromEntries(keys.map((key) => [key, toSql(change[key])])),
      id,
      ...(whileStatus !== undefined && { whileStatus }),
    }).changes;
  };
  return {
    insertRound: (record) =>
      void insertRound.run({ ...record, reconciliation: record.reconciliation ? 1 : 0 }),
    insertLiveRound: (record, bet) => {
      // Inside the unit's transaction: the two inserts are one write, as on PostgreSQL.
      const inserted =
        insertLive.run({ ...record, reconciliation: record.reconciliation ? 1 : 0 }).changes === 1;
      if (inserted && bet) insertTransaction.run(bet);
      return inserted;
    },
    insertRounds: (records) =>
      immediate(db, () => {
        for (const record of records)
          insertRound.run({ ...record, reconciliation: record.reconciliation ? 1 : 0 });
      }),
    findRound: (id) => {
      const row = round.get(id);
      return row && roundFromRow(row);
    },
    findLiveRound: (playerId) => {
      const row = live.get(playerId);
      return row && roundFromRow(row);
    },
    updateRound: (id, change) => void update('rounds', ROUND_FIELDS, id, change),
    updateRoundWhile: (id, status, change) => update('rounds', ROUND_FIELDS, id, change, status) === 1,
    insertTransaction: (record) => void insertTransaction.run(record),
    findTransaction: (id) => transaction.get(id),
    transactionsOfRound: (roundId) => ofRound.all(roundId),
    updateTransaction: (id, change) => void update('transactions', TRANSACTION_FIELDS, id, change),
    dueTransactions: (now, limit) => due.all(now, limit),
    idleOpenRounds: (before, limit) => idle.all(before, limit).map(roundFromRow),
    claimDue: (id, owner, now, until) => claimDue.get({ id, owner, now, until }),
    releasePending: (now) => release.run(now).changes,
    findHeldRound: (id) => {
      const row = held.get(id);
      return row && heldFromRow(row);
    },
    updatePlayer: (playerId, currency, balanceMinor, betsAdded, winsAdded) => {
      const updated = player.get({ playerId, currency, balanceMinor, betsAdded, winsAdded });
      if (!updated) throw new Error(`player ${playerId} not found`);
      playerBalance.run({ playerId, currency, balanceMinor });
      return { ...updated, balanceMinor, balanceCurrency: currency };
    },
    poolDraws: (poolId, afterDrawIndex, limit) => poolDraws.all(poolId, afterDrawIndex, limit),
    findPoolDraw: (poolId, drawIndex) => poolDraw.get(poolId, drawIndex),
    insertWalletAttempt: (attempt) => void insertAttempt.run(attempt),
    walletAttemptsOfRound: (roundId) => attemptsOfRound.all(roundId),
    resolveFlagged: (record) =>
      immediate(db, () => {
        if (unflag.run(record.roundId).changes !== 1) return false;
        insertResolution.run(record);
        return true;
      }),
    findResolution: (roundId) => resolution.get(roundId),
  };
}
