import type { Exec } from '../dialect/exec.ts';
import { flag, isSet } from '../dialect/fragments.ts';
import { lockingRead } from '../dialect/locking.ts';
import {
  assembledStatement,
  type Dialect,
  type Statement,
  selectList,
  statement,
} from '../dialect/statement.ts';
import { eventCallObjectArgs, ROUND_FIELDS, TRANSACTION_FIELDS } from '../ledger-columns.ts';
import {
  type LiveRoundGuards,
  liveRoundGuardsKey,
  liveRoundGuardsSql,
  liveRoundGuardValues,
} from '../live-round-guards.ts';
import type {
  LedgerTransaction,
  PoolDrawRecord,
  RoundPlayer,
  RoundRecord,
  RoundResolutionRecord,
  TransactionRecord,
  WalletAttemptRecord,
} from '../records.ts';
import type { RoundsRepo } from '../repositories.ts';
import { type HeldRoundRow, heldRound } from '../round-detail.ts';
import { noUsableFreeCard } from './free-cards-repo.ts';

const ROUND_COLUMNS = selectList(ROUND_FIELDS);
const TRANSACTION_COLUMNS = selectList(TRANSACTION_FIELDS);
const DRAW_COLUMNS =
  'id AS "roundId", draw_index AS "drawIndex", level, card_json AS "cardJson", prize_minor AS "prizeMinor"';
const ATTEMPT_COLUMNS = `id, transaction_id AS "transactionId", round_id AS "roundId", attempt, sent_at AS "sentAt",
  duration_ms AS "durationMs", outcome, http_status AS "httpStatus", balance_minor AS "balanceMinor", detail`;

/** The columns of `fields` and, in the same order, a `:prefixkey` parameter for each. */
const columnsOf = (fields: Record<string, string>) => Object.values(fields).join(', ');
const parametersOf = (fields: Record<string, string>, prefix = '') =>
  Object.keys(fields)
    .map((key) => `:${prefix}${key}`)
    .join(', ');

/** SQLite gives a flag back as 1/0, PostgreSQL as a boolean. */
type RoundRow = Omit<RoundRecord, 'reconciliation' | 'test'> & {
  reconciliation: boolean | number;
  test: boolean | number;
};
const asRound = (row: RoundRow): RoundRecord =>
  typeof row.reconciliation === 'boolean'
    ? (row as RoundRecord)
    : { ...row, reconciliation: row.reconciliation === 1, test: row.test === 1 };

const insertRound = statement<RoundRecord>(
  `INSERT INTO rounds (${columnsOf(ROUND_FIELDS)}) VALUES (${parametersOf(ROUND_FIELDS)})`,
);
const insertTransaction = statement<LedgerTransaction>(
  `INSERT INTO transactions (${columnsOf(TRANSACTION_FIELDS)}) VALUES (${parametersOf(TRANSACTION_FIELDS)})`,
);
/**
 * A buy's round: only for an active game whose session has not ended, and DO NOTHING when the
 * player's live round exists (the only unique index a new round's id can meet). On PostgreSQL under
 * READ COMMITTED a concurrent buy's uncommitted round makes this wait for it, then do nothing: no
 * unique violation, no rerun. The session's end is checked here too (its primary key): a process
 * that missed another's word of it (session-endings.ts) still keeps the session in its cache.
 * A bought round (`promotionId` null) only while the player holds no usable free card of the game
 * (free-cards-repo.ts `noUsableFreeCard`). With its `guards` (live-round-guards.ts): player
 * protection's conditions, refused the same way.
 */
const liveRoundText = (d: Dialect, guards: LiveRoundGuards) =>
  `INSERT INTO rounds (${columnsOf(ROUND_FIELDS)}) SELECT ${parametersOf(ROUND_FIELDS)} WHERE EXISTS (SELECT 1 FROM games WHERE id = :gameId AND ${isSet(d, 'active')}) AND NOT EXISTS (SELECT 1 FROM game_sessions WHERE id = :sessionId AND ended_at IS NOT NULL) AND ${noUsableFreeCard(d, (field) => `:${field}`)}${liveRoundGuardsSql(guards, (name) => `:${name}`)} ON CONFLICT DO NOTHING`;
/** The bet's parameters beside the round's: `:bet_id`, `:bet_roundId`, … */
const BET = 'bet_';
const betParameters = (bet: LedgerTransaction) => {
  const params: Record<string, unknown> = {};
  for (const key of Object.keys(TRANSACTION_FIELDS)) params[BET + key] = bet[key as keyof LedgerTransaction];
  return params;
};
/**
 * The insert, and (PostgreSQL only) the round and its bet in one statement (a data-modifying CTE,
 * which SQLite lacks), the bet inserted only if the round was. SQLite runs the two inserts one
 * after the other in the unit's transaction: the same one write. One pair per set of guards, kept.
 */
const liveRoundStatements = new Map<
  string,
  { alone: Statement<object, unknown>; withBet: Statement<object, unknown> }
>();
function liveRoundStatementsOf(guards: LiveRoundGuards) {
  const key = liveRoundGuardsKey(guards);
  let pair = liveRoundStatements.get(key);
  if (!pair) {
    pair = {
      alone: statement((d) => liveRoundText(d, guards)),
      withBet: statement(
        (d) => `WITH round AS (${liveRoundText(d, guards)} RETURNING id)
    INSERT INTO transactions (${columnsOf(TRANSACTION_FIELDS)}) SELECT ${parametersOf(TRANSACTION_FIELDS, BET)} FROM round`,
      ),
    };
    liveRoundStatements.set(key, pair);
  }
  return pair;
}

const roundById = lockingRead<{ id: string }, RoundRow>(
  `SELECT ${ROUND_COLUMNS} FROM rounds WHERE id = :id`,
  'FOR UPDATE',
);
const liveRound = statement<{ playerId: string }, RoundRow>(
  `SELECT ${ROUND_COLUMNS} FROM rounds WHERE player_id = :playerId AND status IN ('pending', 'open', 'closing')`,
);
const transactionById = statement<{ id: string }, LedgerTransaction>(
  `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE id = :id`,
);
const transactionsOfRound = statement<{ roundId: string }, LedgerTransaction>(
  `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE round_id = :roundId ORDER BY created_at, id`,
);
/**
 * The pending calls due. PostgreSQL keeps them in wallet_calls_due (its migration 017, kept by
 * triggers), so that no index of transactions holds the status; SQLite in a partial index.
 */
const dueTransactions = statement<{ now: string; limit: number }, LedgerTransaction>((d) =>
  d === 'postgres'
    ? `SELECT ${selectList(TRANSACTION_FIELDS, 't.')} FROM wallet_calls_due q JOIN transactions t ON t.id = q.transaction_id
   WHERE q.next_attempt_at <= :now AND t.status = 'pending' ORDER BY q.next_attempt_at, q.transaction_id LIMIT :limit`
    : `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE status = 'pending' AND next_attempt_at <= :now
   ORDER BY next_attempt_at, id LIMIT :limit`,
);
const idleOpenRounds = statement<{ before: string; limit: number }, RoundRow>(
  `SELECT ${ROUND_COLUMNS} FROM rounds WHERE status = 'open' AND last_action_at < :before
   ORDER BY last_action_at LIMIT :limit`,
);
/**
 * One conditional UPDATE: of several instances claiming the same call, the second waits on the
 * row lock (PostgreSQL; SQLite's batch holds the database), then finds next_attempt_at moved on.
 */
const claimDue = statement<{ id: string; owner: string; now: string; until: string }, LedgerTransaction>(
  `UPDATE transactions SET next_attempt_at = :until, lease_owner = :owner
   WHERE id = :id AND status = 'pending' AND next_attempt_at <= :now RETURNING ${TRANSACTION_COLUMNS}`,
);
const releasePending = statement<{ now: string }>(
  (d) =>
    `UPDATE transactions SET next_attempt_at = :now, lease_owner = NULL WHERE status = 'pending'${
      d === 'postgres' ? ' AND id IN (SELECT transaction_id FROM wallet_calls_due)' : ''
    }`,
);

type PlayerChange = {
  playerId: string;
  currency: string;
  balanceMinor: number;
  betsAdded: number;
  winsAdded: number;
};
const BALANCE_UPSERT = `INSERT INTO player_balances (player_id, currency, balance_minor) VALUES (:playerId, :currency, :balanceMinor)
   ON CONFLICT (player_id, currency) DO UPDATE SET balance_minor = excluded.balance_minor`;
const PLAYER_UPDATE = `UPDATE players SET total_bets = total_bets + :betsAdded, bet_wins = bet_wins + :winsAdded,
     balance_minor = CASE WHEN (SELECT currency FROM profiles WHERE id = players.profile_id) = :currency
       THEN :balanceMinor ELSE balance_minor END
   WHERE id = :playerId
   RETURNING id, credential, credential_type AS "credentialType", bet_wins AS "betWins", total_bets AS "totalBets"`;
/**
 * The player's counters and its balance in the round's currency: one statement on PostgreSQL (the
 * balance's upsert a data-modifying CTE), on SQLite the update, then `balanceUpsert`.
 */
const updatePlayer = statement<PlayerChange, Omit<RoundPlayer, 'balanceMinor' | 'balanceCurrency'>>((d) =>
  d === 'postgres' ? `WITH balance AS (\n${BALANCE_UPSERT})\n${PLAYER_UPDATE}` : PLAYER_UPDATE,
);
const balanceUpsert = statement<PlayerChange>(BALANCE_UPSERT);

type HeldRow = RoundRow & Omit<HeldRoundRow, 'calls'> & { calls: TransactionRecord[] | string };
/**
 * The round, its player as the round's detail shows it (repos/ledger-repo.ts) and its calls as
 * JSON, oldest first: one statement for what the round's event is built from. Only the round is
 * locked. The JSON functions differ: SQLite's gives text, PostgreSQL's a parsed array.
 */
const heldRoundById = lockingRead<{ id: string }, HeldRow>(
  (d) => `SELECT ${selectList(ROUND_FIELDS, 'r.')}, p.credential, p.credential_type AS "credentialType",
     coalesce(pb.balance_minor, CASE WHEN pr.currency = r.currency THEN p.balance_minor ELSE 0 END) AS "balanceMinor",
     p.bet_wins AS "betWins", p.total_bets AS "totalBets",
     ${
       d === 'sqlite'
         ? `(SELECT json_group_array(json_object(${eventCallObjectArgs('t')})) FROM
       (SELECT * FROM transactions WHERE round_id = r.id ORDER BY created_at, id) t)`
         : `(SELECT coalesce(json_agg(json_build_object(${eventCallObjectArgs('t')}) ORDER BY t.created_at, t.id), '[]')
       FROM transactions t WHERE t.round_id = r.id)`
     } AS calls
   FROM rounds r JOIN players p ON p.id = r.player_id JOIN profiles pr ON pr.id = p.profile_id
   LEFT JOIN player_balances pb ON pb.player_id = r.player_id AND pb.currency = r.currency
   WHERE r.id = :id`,
  'FOR UPDATE OF r',
);

const poolDraws = statement<{ poolId: string; after: number; limit: number }, PoolDrawRecord>(
  `SELECT ${DRAW_COLUMNS} FROM rounds WHERE pool_id = :poolId AND draw_index > :after ORDER BY draw_index LIMIT :limit`,
);
const poolDraw = statement<{ poolId: string; drawIndex: number }, PoolDrawRecord>(
  `SELECT ${DRAW_COLUMNS} FROM rounds WHERE pool_id = :poolId AND draw_index = :drawIndex`,
);
const insertAttempt = statement<WalletAttemptRecord>(
  `INSERT INTO wallet_call_attempts (id, transaction_id, round_id, attempt, sent_at, duration_ms, outcome,
     http_status, balance_minor, detail) VALUES (:id, :transactionId, :roundId, :attempt, :sentAt, :durationMs,
     :outcome, :httpStatus, :balanceMinor, :detail)`,
);
const attemptsOfRound = statement<{ roundId: string }, WalletAttemptRecord>(
  `SELECT ${ATTEMPT_COLUMNS} FROM wallet_call_attempts WHERE round_id = :roundId ORDER BY sent_at, id`,
);
const unflag = statement<{ roundId: string }>(
  (d) =>
    `UPDATE rounds SET reconciliation = ${flag(d, false)} WHERE id = :roundId AND ${isSet(d, 'reconciliation')}`,
);
const insertResolution = statement<RoundResolutionRecord>(
  `INSERT INTO round_resolutions (round_id, resolution, note, resolved_at)
   VALUES (:roundId, :resolution, :note, :resolvedAt)`,
);
const resolutionOf = statement<{ roundId: string }, RoundResolutionRecord>(
  `SELECT round_id AS "roundId", resolution, note, resolved_at AS "resolvedAt" FROM round_resolutions
   WHERE round_id = :roundId`,
);

/** Rows per multi-row INSERT: 500 × 20 columns, far below both databases' parameter limits. */
const INSERT_BATCH = 500;

/** The multi-row INSERT of `count` rounds, its parameters `:r{row}_{key}` (one text per count). */
const insertRoundsOf = (count: number) =>
  assembledStatement<Record<string, unknown>, never>(
    `INSERT INTO rounds (${columnsOf(ROUND_FIELDS)}) VALUES ${Array.from(
      { length: count },
      (_, row) => `(${parametersOf(ROUND_FIELDS, `r${row}_`)})`,
    ).join(', ')}`,
  );

/**
 * UPDATE of the fields a change names (fixed column names, the values as parameters), `whileStatus`
 * a guard on the row's status. One statement per combination of fields, kept (assembledStatement).
 */
async function update(
  x: Exec,
  table: string,
  fields: Record<string, string>,
  id: string,
  change: object,
  whileStatus?: string,
): Promise<number> {
  const params: Record<string, unknown> = {};
  const sets: string[] = [];
  for (const [key, value] of Object.entries(change)) {
    if (!(key in fields) || value === undefined) continue;
    sets.push(`${fields[key]} = :${key}`);
    params[key] = value;
  }
  if (sets.length === 0 && whileStatus === undefined) return 0;
  // `whereId`: a change may name the field `id` too.
  params.whereId = id;
  let where = 'id = :whereId';
  if (whileStatus !== undefined) {
    where += ' AND status = :whileStatus';
    params.whileStatus = whileStatus;
  }
  return x.run(
    assembledStatement(`UPDATE ${table} SET ${sets.join(', ') || 'id = id'} WHERE ${where}`),
    params,
  );
}

/**
 * The rounds, their wallet calls and what a round's units write (issue 24: written once for both
 * databases). The hot path: each method sends its statements at once, so a unit's writes sent
 * together on PostgreSQL go in one round trip (play-runtime.ts `writeChanges`), and on SQLite run
 * in the turn they are called.
 */
export function createRoundsRepo(x: Exec): RoundsRepo {
  return {
    insertRound: async (round) => void (await x.run(insertRound, round)),
    insertLiveRound: async (round, bet, guards = {}) => {
      const live = liveRoundStatementsOf(guards);
      const guardValues = liveRoundGuardValues(guards);
      if (bet && x.dialect === 'postgres')
        return (await x.run(live.withBet, { ...round, ...betParameters(bet), ...guardValues })) === 1;
      const inserted = (await x.run(live.alone, { ...round, ...guardValues })) === 1;
      if (inserted && bet) await x.run(insertTransaction, bet);
      return inserted;
    },
    insertRounds: (records) =>
      x.atomic(async () => {
        for (let start = 0; start < records.length; start += INSERT_BATCH) {
          const batch = records.slice(start, start + INSERT_BATCH);
          const params: Record<string, unknown> = {};
          batch.forEach((record, row) => {
            for (const key of Object.keys(ROUND_FIELDS))
              params[`r${row}_${key}`] = record[key as keyof RoundRecord];
          });
          await x.run(insertRoundsOf(batch.length), params);
        }
      }),
    // In a unit, the round is locked: whatever changes a round reads it first (store.ts UnitOptions).
    findRound: async (id) => {
      const row = await x.first(roundById(x), { id });
      return row && asRound(row);
    },
    findHeldRound: async (id) => {
      const row = await x.first(heldRoundById(x), { id });
      if (!row) return undefined;
      const { credential, credentialType, balanceMinor, betWins, totalBets, calls, ...round } = row;
      return heldRound(asRound(round), {
        credential,
        credentialType,
        balanceMinor,
        betWins,
        totalBets,
        calls: typeof calls === 'string' ? (JSON.parse(calls) as TransactionRecord[]) : calls,
      });
    },
    findLiveRound: async (playerId) => {
      const row = await x.first(liveRound, { playerId });
      return row && asRound(row);
    },
    updateRound: async (id, change) => void (await update(x, 'rounds', ROUND_FIELDS, id, change)),
    updateRoundWhile: async (id, status, change) =>
      (await update(x, 'rounds', ROUND_FIELDS, id, change, status)) === 1,
    insertTransaction: async (transaction) => void (await x.run(insertTransaction, transaction)),
    findTransaction: async (id) => x.first(transactionById, { id }),
    transactionsOfRound: async (roundId) => x.all(transactionsOfRound, { roundId }),
    updateTransaction: async (id, change) =>
      void (await update(x, 'transactions', TRANSACTION_FIELDS, id, change)),
    dueTransactions: async (now, limit) => x.all(dueTransactions, { now, limit }),
    idleOpenRounds: async (before, limit) => (await x.all(idleOpenRounds, { before, limit })).map(asRound),
    claimDue: async (id, owner, now, until) => x.first(claimDue, { id, owner, now, until }),
    releasePending: async (now) => x.run(releasePending, { now }),
    updatePlayer: async (playerId, currency, balanceMinor, betsAdded, winsAdded) => {
      const change = { playerId, currency, balanceMinor, betsAdded, winsAdded };
      const updated = await x.first(updatePlayer, change);
      if (!updated) throw new Error(`player ${playerId} not found`);
      if (x.dialect === 'sqlite') await x.run(balanceUpsert, change);
      return { ...updated, balanceMinor, balanceCurrency: currency };
    },
    poolDraws: async (poolId, after, limit) => x.all(poolDraws, { poolId, after, limit }),
    findPoolDraw: async (poolId, drawIndex) => x.first(poolDraw, { poolId, drawIndex }),
    insertWalletAttempt: async (attempt) => void (await x.run(insertAttempt, attempt)),
    walletAttemptsOfRound: async (roundId) => x.all(attemptsOfRound, { roundId }),
    // One unit: of two people resolving the same round, one clears the flag and the other finds it cleared.
    resolveFlagged: (record) =>
      x.atomic(async () => {
        if ((await x.run(unflag, { roundId: record.roundId })) !== 1) return false;
        await x.run(insertResolution, record);
        return true;
      }),
    findResolution: async (roundId) => x.first(resolutionOf, { roundId }),
  };
}
