import type { LedgerTransaction, RoundRecord, TransactionRecord } from './records.ts';

/** The column of each field of a round, in both adapters' schemas. */
export const ROUND_FIELDS: Record<keyof RoundRecord, string> = {
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
  prizeTransactionId: 'prize_transaction_id',
  promotionId: 'promotion_id',
  test: 'test',
};

/** The column of each field of a wallet call (a ledger transaction), in both adapters' schemas. */
export const TRANSACTION_FIELDS: Record<keyof LedgerTransaction, string> = {
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

/** The fields of a call that a round's event shows (TransactionRecord: no retry state). */
export const EVENT_CALL_FIELDS = [
  'id',
  'roundId',
  'clientId',
  'profileId',
  'playerId',
  'type',
  'amountMinor',
  'currency',
  'balanceBeforeMinor',
  'balanceAfterMinor',
  'status',
  'createdAt',
] as const satisfies readonly (keyof TransactionRecord)[];

/** A call as a round's event shows it: only its TransactionRecord fields, in their order. */
export function eventCall(call: TransactionRecord): TransactionRecord {
  return Object.fromEntries(EVENT_CALL_FIELDS.map((key) => [key, call[key]])) as unknown as TransactionRecord;
}

/** `'key', alias.column` pairs of a call's event fields: json_object / json_build_object arguments. */
export const eventCallObjectArgs = (alias: string): string =>
  EVENT_CALL_FIELDS.map((key) => `'${key}', ${alias}.${TRANSACTION_FIELDS[key]}`).join(', ');
