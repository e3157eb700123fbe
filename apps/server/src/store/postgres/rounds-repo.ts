import { eventCallObjectArgs, ROUND_FIELDS, TRANSACTION_FIELDS } from '../ledger-columns.ts';
import type {
  LedgerTransaction,
  PoolDrawRecord,
  RoundPlayer,
  RoundRecord,
  RoundResolutionRecord,
  WalletAttemptRecord,
} from '../records.ts';
import { noUsableFreeCard } from '../repos/free-cards-repo.ts';
import type { RoundsRepo } from '../repositories.ts';
import { type HeldRoundRow, heldRound } from '../round-detail.ts';
import { all, changes, first, parameters, type Sql, selectList } from './sql.ts';

const ROUND_COLUMNS = selectList(ROUND_FIELDS);
const TRANSACTION_COLUMNS = selectList(TRANSACTION_FIELDS);
const DRAW_COLUMNS =
  'id AS "roundId", draw_index AS "drawIndex", level, card_json AS "cardJson", prize_minor AS "prizeMinor"';

/** INSERT of every field of a record, its values in the fields' order. */
function insertAll(table: string, fields: Record<string, string>) {
  const keys = Object.keys(fields);
  const text = `INSERT INTO ${table} (${Object.values(fields).join(', ')}) VALUES (${keys
    .map((_, i) => `$${i + 1}`)
    .join(', ')})`;
  return { text, values: (record: object) => keys.map((key) => (record as Record<string, unknown>)[key]) };
}

const ATTEMPT_COLUMNS = `id, transaction_id AS "transactionId", round_id AS "roundId", attempt, sent_at AS "sentAt",
  duration_ms AS "durationMs", outcome, http_status AS "httpStatus", balance_minor AS "balanceMinor", detail`;

const INSERT_ROUND = insertAll('rounds', ROUND_FIELDS);
const INSERT_TRANSACTION = insertAll('transactions', TRANSACTION_FIELDS);
/**
 * A buy's round: only for an active game, and DO NOTHING when the player's live round exists (the
 * only unique index a new round's id can meet). Under READ COMMITTED a concurrent buy's uncommitted
 * round makes this wait for it, then do nothing: no unique violation, no rerun.
 */
const INSERT_LIVE_ROUND = {
  text: `INSERT INTO rounds (${Object.values(ROUND_FIELDS).join(', ')}) SELECT ${Object.keys(ROUND_FIELDS)
    .map((_, i) => `$${i + 1}`)
    .join(', ')} WHERE EXISTS (SELECT 1 FROM games WHERE id = $${
    Object.keys(ROUND_FIELDS).indexOf('gameId') + 1
  } AND active) AND ${noUsableFreeCard('postgres', (field) => `$${Object.keys(ROUND_FIELDS).indexOf(field) + 1}`)}
    ON CONFLICT DO NOTHING`,
  values: INSERT_ROUND.values,
};
/** The same, with the round's bet inserted only if the round was (a data-modifying CTE: one statement). */
const INSERT_LIVE_ROUND_WITH_BET = {
  text: `WITH round AS (${INSERT_LIVE_ROUND.text} RETURNING id)
    INSERT INTO transactions (${Object.values(TRANSACTION_FIELDS).join(', ')}) SELECT ${Object.keys(
      TRANSACTION_FIELDS,
    )
      .map((_, i) => `$${Object.keys(ROUND_FIELDS).length + i + 1}`)
      .join(', ')} FROM round`,
  values: (round: RoundRecord, bet: LedgerTransaction) => [
    ...INSERT_LIVE_ROUND.values(round),
    ...INSERT_TRANSACTION.values(bet),
  ],
};

export function createRoundsRepo(sql: Sql): RoundsRepo {
  /** UPDATE of the fields a change names (fixed column names, the values as parameters). */
  const update = async (
    table: string,
    fields: Record<string, string>,
    id: string,
    change: object,
    whileStatus?: string,
  ): Promise<number> => {
    const params = parameters();
    const sets = Object.entries(change)
      .filter(([key, value]) => key in fields && value !== undefined)
      .map(([key, value]) => `${fields[key]} = ${params.add(value)}`);
    if (sets.length === 0 && whileStatus === undefined) return 0;
    const where = `id = ${params.add(id)}${whileStatus === undefined ? '' : ` AND status = ${params.add(whileStatus)}`}`;
    return changes(sql, `UPDATE ${table} SET ${sets.join(', ') || 'id = id'} WHERE ${where}`, params.values);
  };
  return {
    insertRound: async (round) => void (await sql.query(INSERT_ROUND.text, INSERT_ROUND.values(round))),
    insertLiveRound: async (round, bet) =>
      bet
        ? (await changes(
            sql,
            INSERT_LIVE_ROUND_WITH_BET.text,
            INSERT_LIVE_ROUND_WITH_BET.values(round, bet),
          )) === 1
        : (await changes(sql, INSERT_LIVE_ROUND.text, INSERT_LIVE_ROUND.values(round))) === 1,
    insertRounds: (records) =>
      sql.atomic(async (unit) => {
        // 500 rows per statement: far below PostgreSQL's 65,535 parameters, one round trip each.
        for (let start = 0; start < records.length; start += 500) {
          const params = parameters();
          const rows = records
            .slice(start, start + 500)
            .map((record) => `(${INSERT_ROUND.values(record).map(params.add).join(', ')})`);
          await unit.query(
            `INSERT INTO rounds (${Object.values(ROUND_FIELDS).join(', ')}) VALUES ${rows.join(', ')}`,
            params.values,
          );
        }
      }),
    // In a unit, the round is locked: whatever changes a round reads it first (store.ts UnitOptions).
    findRound: (id) =>
      first<RoundRecord>(
        sql,
        `SELECT ${ROUND_COLUMNS} FROM rounds WHERE id = $1${sql.inUnit ? ' FOR UPDATE' : ''}`,
        [id],
      ),
    // The round, its player as the round's detail shows it (repos/ledger-repo.ts) and its calls, oldest
    // first: one statement for what the round's event is built from. Only the round is locked.
    findHeldRound: async (id) => {
      const row = await first<RoundRecord & HeldRoundRow>(
        sql,
        `SELECT ${selectList(ROUND_FIELDS, 'r.')}, p.credential, p.credential_type AS "credentialType",
           coalesce(pb.balance_minor, CASE WHEN pr.currency = r.currency THEN p.balance_minor ELSE 0 END)
             AS "balanceMinor",
           p.bet_wins AS "betWins", p.total_bets AS "totalBets",
           (SELECT coalesce(json_agg(json_build_object(${eventCallObjectArgs('t')}) ORDER BY t.created_at, t.id), '[]')
              FROM transactions t WHERE t.round_id = r.id) AS calls
         FROM rounds r JOIN players p ON p.id = r.player_id JOIN profiles pr ON pr.id = p.profile_id
         LEFT JOIN player_balances pb ON pb.player_id = r.player_id AND pb.currency = r.currency
         WHERE r.id = $1${sql.inUnit ? ' FOR UPDATE OF r' : ''}`,
        [id],
      );
      if (!row) return undefined;
      const { credential, credentialType, balanceMinor, betWins, totalBets, calls, ...round } = row;
      return heldRound(round, { credential, credentialType, balanceMinor, betWins, totalBets, calls });
    },
    findLiveRound: (playerId) =>
      first<RoundRecord>(
        sql,
        `SELECT ${ROUND_COLUMNS} FROM rounds WHERE player_id = $1 AND status IN ('pending', 'open', 'closing')`,
        [playerId],
      ),
    updateRound: async (id, change) => void (await update('rounds', ROUND_FIELDS, id, change)),
    updateRoundWhile: async (id, status, change) =>
      (await update('rounds', ROUND_FIELDS, id, change, status)) === 1,
    insertTransaction: async (transaction) =>
      void (await sql.query(INSERT_TRANSACTION.text, INSERT_TRANSACTION.values(transaction))),
    findTransaction: (id) =>
      first<LedgerTransaction>(sql, `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE id = $1`, [id]),
    transactionsOfRound: (roundId) =>
      all<LedgerTransaction>(
        sql,
        `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE round_id = $1 ORDER BY created_at, id`,
        [roundId],
      ),
    updateTransaction: async (id, change) =>
      void (await update('transactions', TRANSACTION_FIELDS, id, change)),
    dueTransactions: (now, limit) =>
      all<LedgerTransaction>(
        sql,
        `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE status = 'pending' AND next_attempt_at <= $1
         ORDER BY next_attempt_at, id LIMIT $2`,
        [now, limit],
      ),
    idleOpenRounds: (before, limit) =>
      all<RoundRecord>(
        sql,
        `SELECT ${ROUND_COLUMNS} FROM rounds WHERE status = 'open' AND last_action_at < $1
         ORDER BY last_action_at LIMIT $2`,
        [before, limit],
      ),
    // One conditional UPDATE: of several instances claiming the same call, the second waits on the
    // row lock, then re-reads the row and finds next_attempt_at moved on, so it gets nothing.
    claimDue: (id, owner, now, until) =>
      first<LedgerTransaction>(
        sql,
        `UPDATE transactions SET next_attempt_at = $1, lease_owner = $2
         WHERE id = $3 AND status = 'pending' AND next_attempt_at <= $4 RETURNING ${TRANSACTION_COLUMNS}`,
        [until, owner, id, now],
      ),
    releasePending: (now) =>
      changes(
        sql,
        "UPDATE transactions SET next_attempt_at = $1, lease_owner = NULL WHERE status = 'pending'",
        [now],
      ),
    // One statement: the per-currency balance and the player's counters change together.
    updatePlayer: async (playerId, currency, balanceMinor, betsAdded, winsAdded) => {
      const updated = await first<Omit<RoundPlayer, 'balanceMinor' | 'balanceCurrency'>>(
        sql,
        `WITH balance AS (
           INSERT INTO player_balances (player_id, currency, balance_minor) VALUES ($1, $2, $3)
           ON CONFLICT (player_id, currency) DO UPDATE SET balance_minor = excluded.balance_minor)
         UPDATE players SET total_bets = total_bets + $4, bet_wins = bet_wins + $5,
           balance_minor = CASE WHEN (SELECT currency FROM profiles WHERE id = players.profile_id) = $2
             THEN $3 ELSE balance_minor END
         WHERE id = $1
         RETURNING id, credential, credential_type AS "credentialType", bet_wins AS "betWins",
           total_bets AS "totalBets"`,
        [playerId, currency, balanceMinor, betsAdded, winsAdded],
      );
      if (!updated) throw new Error(`player ${playerId} not found`);
      return { ...updated, balanceMinor, balanceCurrency: currency };
    },
    poolDraws: (poolId, afterDrawIndex, limit) =>
      all<PoolDrawRecord>(
        sql,
        `SELECT ${DRAW_COLUMNS} FROM rounds WHERE pool_id = $1 AND draw_index > $2 ORDER BY draw_index LIMIT $3`,
        [poolId, afterDrawIndex, limit],
      ),
    findPoolDraw: (poolId, drawIndex) =>
      first<PoolDrawRecord>(
        sql,
        `SELECT ${DRAW_COLUMNS} FROM rounds WHERE pool_id = $1 AND draw_index = $2`,
        [poolId, drawIndex],
      ),
    insertWalletAttempt: async (a) =>
      void (await sql.query(
        `INSERT INTO wallet_call_attempts (id, transaction_id, round_id, attempt, sent_at, duration_ms, outcome,
           http_status, balance_minor, detail) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          a.id,
          a.transactionId,
          a.roundId,
          a.attempt,
          a.sentAt,
          a.durationMs,
          a.outcome,
          a.httpStatus,
          a.balanceMinor,
          a.detail,
        ],
      )),
    walletAttemptsOfRound: (roundId) =>
      all<WalletAttemptRecord>(
        sql,
        `SELECT ${ATTEMPT_COLUMNS} FROM wallet_call_attempts WHERE round_id = $1 ORDER BY sent_at, id`,
        [roundId],
      ),
    // One unit: of two people resolving the same round, one clears the flag and the other finds it cleared.
    resolveFlagged: (r) =>
      sql.atomic(async (unit) => {
        const unflagged = await changes(
          unit,
          'UPDATE rounds SET reconciliation = false WHERE id = $1 AND reconciliation',
          [r.roundId],
        );
        if (unflagged !== 1) return false;
        await unit.query(
          'INSERT INTO round_resolutions (round_id, resolution, note, resolved_at) VALUES ($1, $2, $3, $4)',
          [r.roundId, r.resolution, r.note, r.resolvedAt],
        );
        return true;
      }),
    findResolution: (roundId) =>
      first<RoundResolutionRecord>(
        sql,
        `SELECT round_id AS "roundId", resolution, note, resolved_at AS "resolvedAt" FROM round_resolutions
         WHERE round_id = $1`,
        [roundId],
      ),
  };
}
