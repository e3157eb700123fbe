import type { LedgerTransaction, RoundRecord } from './records.ts';

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
