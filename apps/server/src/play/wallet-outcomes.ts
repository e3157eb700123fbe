import type { LedgerTransaction, RoundRecord } from '../store/records.ts';
import type { WalletAnswer } from '../wallet/wallet.ts';
import { inFlightUntil, nextAttemptAt, prizeGivesUp, type WalletRetryPolicy } from './retry-schedule.ts';
import { newPrize, newRollback, type Ticket } from './round-records.ts';

/**
 * What a wallet answer means for the round (docs/contract.md §6, docs/reconciliation.md), as data:
 * pure rules, no I/O (the time and an id maker for new records come in). The flows (bet-flow.ts,
 * prize-flow.ts, wallet-retrier.ts) read the records, ask these rules, and write the changes they
 * return in one database transaction (play-runtime.ts `writeChanges`).
 *
 *   bet       ok → the round opens · declined → it is declined · unknown → rollBackUnansweredBet
 *   reveal    lost → the round closes · won → its prize is sent, then written with its first answer
 *   prize     ok → the round closes · else retried, given up after prizeGiveUpMs (flagged)
 *   rollback  ok → the bet and its rollback both count (net zero) · declined → flagged · unknown → retried
 *   claimed   a pending call the retrier takes over: a bet is rolled back (rollBackUnansweredBet),
 *             a prize or rollback sent again
 */

export type RoundChange = Partial<Omit<RoundRecord, 'id'>>;
export type TransactionChange = Partial<Omit<LedgerTransaction, 'id'>>;

/** The changes one step makes, written together (round, transactions, new call, player, event). */
export interface LedgerChanges {
  round?: RoundChange;
  transactions?: Array<{ id: string; change: TransactionChange }>;
  /** A new wallet call (a rollback), committed `pending` before it is sent. */
  insert?: LedgerTransaction;
  /** The balance the wallet reported, and what to add to the player's counters. */
  player?: { balanceMinor: number; betsAdded: number; winsAdded: number };
  /** The webhook event the changed round queues (after the other changes, which it shows). */
  event?: 'open-round' | 'close-round';
}

/** What a call's lastError keeps of an answer that was not a yes. */
export function answerReason(answer: Exclude<WalletAnswer, { kind: 'ok' }>): string {
  return answer.kind === 'declined' ? `declined: ${answer.code}` : answer.reason;
}

/** The wallet confirmed a call: `balanceMinor` is the balance after it. */
function confirmed(transaction: LedgerTransaction, balanceMinor: number, now: string): TransactionChange {
  return {
    status: 'completed',
    balanceAfterMinor: balanceMinor,
    balanceBeforeMinor: balanceMinor - transaction.amountMinor,
    completedAt: now,
    nextAttemptAt: null,
    lastError: null,
  };
}

// ---- bets ----

/**
 * A bet without a definite answer (docs/contract.md §6): the round is voided (no card, no events)
 * and the bet rolled back; the rollback is due at once and retried until the wallet answers
 * definitely. The bet stays `failed` (not counted) until the rollback is confirmed
 * (rollbackOutcome), so the pair never counts half.
 */
export function rollBackUnansweredBet(
  round: RoundRecord,
  bet: LedgerTransaction,
  reason: string,
  rollbackId: string,
  now: string,
): { changes: LedgerChanges; rollback: LedgerTransaction } {
  const rollback = newRollback(round, bet, rollbackId, now);
  return {
    rollback,
    changes: {
      round: { status: 'voided', endAt: now, lastActionAt: now },
      transactions: [{ id: bet.id, change: { status: 'failed', lastError: reason, nextAttemptAt: null } }],
      insert: rollback,
    },
  };
}

/**
 * The wallet's decline codes the player is told as they are (CONTRACT §6, §13): a wallet that
 * enforces its own limits or exclusion says so; any other code is WALLET_DECLINED.
 */
const PASSED_ON_DECLINES = ['INSUFFICIENT_FUNDS', 'LIMIT_REACHED', 'PLAYER_EXCLUDED'] as const;
type DeclineCode = (typeof PASSED_ON_DECLINES)[number] | 'WALLET_DECLINED';

/** The play error a wallet's decline code reaches the player as. */
export const declineCodeOf = (code: string): DeclineCode =>
  (PASSED_ON_DECLINES as readonly string[]).includes(code) ? (code as DeclineCode) : 'WALLET_DECLINED';

export type BetOutcome =
  /** Taken: draw the ticket, then `open(ticket)` gives the changes. */
  | { kind: 'opened'; balanceMinor: number; open(ticket: Ticket): LedgerChanges }
  /** A definite no: no round opens and the player is told why. */
  | { kind: 'declined'; code: DeclineCode; changes: LedgerChanges }
  /** No definite answer: voided and rolled back. */
  | { kind: 'voided'; code: 'WALLET_UNAVAILABLE'; changes: LedgerChanges; rollback: LedgerTransaction }
  /**
   * The answer came too late: the retrier already took the bet over (its in-flight time passed)
   * and voided it. Nothing to change; the player is told the wallet did not answer.
   */
  | { kind: 'taken-over'; code: 'WALLET_UNAVAILABLE' };

/** What the wallet's answer to the bet of a buy means for its round, read again in the transaction. */
export function betOutcome(
  answer: WalletAnswer,
  round: RoundRecord,
  bet: LedgerTransaction | undefined,
  newId: () => string,
  now: string,
): BetOutcome {
  if (round.status !== 'pending' || bet?.status !== 'pending') {
    return { kind: 'taken-over', code: 'WALLET_UNAVAILABLE' };
  }
  switch (answer.kind) {
    case 'ok':
      return {
        kind: 'opened',
        balanceMinor: answer.balanceMinor,
        open: (ticket) => ({
          round: {
            status: 'open',
            poolId: ticket.poolId,
            drawIndex: ticket.drawIndex,
            level: ticket.level,
            cardJson: ticket.cardJson,
            prizeMinor: ticket.prizeMinor,
            // Fixed now, with the outcome: the reveal sends the prize under it before writing.
            prizeTransactionId: ticket.prizeMinor > 0 ? newId() : null,
            lastActionAt: now,
          },
          transactions: [
            {
              id: bet.id,
              change: {
                status: 'completed',
                balanceAfterMinor: answer.balanceMinor,
                balanceBeforeMinor: answer.balanceMinor + round.paidMinor,
                completedAt: now,
                nextAttemptAt: null,
              },
            },
          ],
          player: { balanceMinor: answer.balanceMinor, betsAdded: 1, winsAdded: 0 },
          event: 'open-round',
        }),
      };
    case 'declined':
      return {
        kind: 'declined',
        code: declineCodeOf(answer.code),
        changes: {
          round: { status: 'declined', endAt: now, lastActionAt: now },
          transactions: [
            { id: bet.id, change: { status: 'declined', lastError: answer.code, nextAttemptAt: null } },
          ],
        },
      };
    case 'unknown':
      return {
        kind: 'voided',
        code: 'WALLET_UNAVAILABLE',
        ...rollBackUnansweredBet(round, bet, answer.reason, newId(), now),
      };
  }
}

// ---- closing a round (its reveal or its idle time-out) ----

export type CloseOutcome =
  /** Closed already, or closing: nothing to do. */
  | { kind: 'not-open' }
  /** Nothing won: the round closes at once. */
  | { kind: 'closed'; changes: LedgerChanges }
  /**
   * A prize: sent before anything is written, under the transactionId fixed when the round opened,
   * so every sender sends the same one; its first answer is written with the close in one unit
   * (`firstPrizeOutcome`, docs/store.md cut 6).
   */
  | { kind: 'paying'; prize: LedgerTransaction };

export function closeOutcome(round: RoundRecord, retry: WalletRetryPolicy, now: string): CloseOutcome {
  if (round.status !== 'open') return { kind: 'not-open' };
  if (round.prizeMinor === 0) {
    return {
      kind: 'closed',
      changes: { round: { status: 'closed', endAt: now, lastActionAt: now }, event: 'close-round' },
    };
  }
  return { kind: 'paying', prize: newPrize(round, now, inFlightUntil(retry, now)) };
}

// ---- prizes ----

export type PrizeOutcome =
  | { kind: 'paid'; balanceMinor: number; changes: LedgerChanges }
  /** Tried for prizeGiveUpMs without a yes: the prize is `failed`, the round closed and flagged. */
  | { kind: 'given-up'; changes: LedgerChanges }
  | { kind: 'retry'; changes: LedgerChanges };

/**
 * What the wallet's answer to a prize means. A prize is never rolled back: a decline is retried like
 * no answer (the wallet answers a repeat of a paid one with its first yes), until prizeGiveUpMs
 * has passed since it was committed; then a person settles it (docs/reconciliation.md).
 */
export function prizeOutcome(
  answer: WalletAnswer,
  prize: LedgerTransaction,
  retry: WalletRetryPolicy,
  now: string,
): PrizeOutcome {
  if (answer.kind === 'ok') {
    return {
      kind: 'paid',
      balanceMinor: answer.balanceMinor,
      changes: {
        transactions: [{ id: prize.id, change: confirmed(prize, answer.balanceMinor, now) }],
        round: { status: 'closed', endAt: now },
        player: { balanceMinor: answer.balanceMinor, betsAdded: 0, winsAdded: 1 },
        event: 'close-round',
      },
    };
  }
  const reason = answerReason(answer);
  if (prizeGivesUp(retry, prize, now)) {
    return {
      kind: 'given-up',
      changes: {
        transactions: [
          { id: prize.id, change: { status: 'failed', lastError: reason, nextAttemptAt: null } },
        ],
        round: { status: 'closed', endAt: now, reconciliation: true },
        event: 'close-round',
      },
    };
  }
  return { kind: 'retry', changes: retryChanges(prize, reason, retry, now) };
}

/**
 * The first answer to a won round's prize, which its sender (a reveal, an idle close) sent before
 * writing anything: one unit writes what two wrote before, the prize committed `pending` with the
 * round `closing`, then `prizeOutcome` of the answer. A yes: the prize inserted completed, the
 * round closed, the win counted, `close-round`. Anything else: the prize inserted `pending` with
 * its retry time and the round `closing`, for the retrier, as before (or, with a give-up time of
 * zero, given up at once).
 */
export function firstPrizeOutcome(
  answer: WalletAnswer,
  prize: LedgerTransaction,
  retry: WalletRetryPolicy,
  now: string,
): PrizeOutcome {
  const later = prizeOutcome(answer, prize, retry, now);
  const { transactions = [], round, ...rest } = later.changes;
  const own = transactions.find((t) => t.id === prize.id)?.change;
  const changes: LedgerChanges = {
    ...rest,
    insert: { ...prize, ...own },
    round: { status: 'closing', lastActionAt: prize.createdAt, ...round },
  };
  return { ...later, changes };
}

// ---- rollbacks ----

export type RollbackOutcome =
  | { kind: 'confirmed'; balanceMinor: number; changes: LedgerChanges }
  /** A definite no to a rollback: nothing more to try; the round is flagged for a person. */
  | { kind: 'declined'; changes: LedgerChanges }
  | { kind: 'retry'; changes: LedgerChanges };

/**
 * What the wallet's answer to a rollback means. Confirmed: whether or not the wallet ever took the
 * bet, the pair now nets to zero in what it moved, so the bet (`failed` until now) is counted with
 * its rollback, both `completed` in the same database transaction; the bet's lastError keeps that
 * it had no definite answer. Declined: the bet stays `failed`, the rollback is `declined` and the
 * round flagged. No definite answer: retried, never given up.
 */
export function rollbackOutcome(
  answer: WalletAnswer,
  rollback: LedgerTransaction,
  bet: LedgerTransaction | undefined,
  retry: WalletRetryPolicy,
  now: string,
): RollbackOutcome {
  if (answer.kind === 'ok') {
    const transactions = [{ id: rollback.id, change: confirmed(rollback, answer.balanceMinor, now) }];
    if (bet?.type === 'bet' && bet.status === 'failed' && bet.id === rollback.originalTransactionId) {
      transactions.push({
        id: bet.id,
        change: {
          status: 'completed',
          completedAt: now,
          lastError: `rolled back by ${rollback.id} after no definite answer: ${bet.lastError ?? 'unknown'}`,
        },
      });
    }
    return {
      kind: 'confirmed',
      balanceMinor: answer.balanceMinor,
      changes: { transactions, player: { balanceMinor: answer.balanceMinor, betsAdded: 0, winsAdded: 0 } },
    };
  }
  const reason = answerReason(answer);
  if (answer.kind === 'declined') {
    return {
      kind: 'declined',
      changes: {
        transactions: [
          { id: rollback.id, change: { status: 'declined', lastError: reason, nextAttemptAt: null } },
        ],
        round: { reconciliation: true },
      },
    };
  }
  return { kind: 'retry', changes: retryChanges(rollback, reason, retry, now) };
}

// ---- the retrier's claim on a pending call ----

/**
 * What a pending call becomes when the retrier claims it (it is due: its sender's time ran out, or
 * a restart released it). A bet still pending lost its answer (a time-out or a crash): it is never
 * sent again but voided and rolled back, and the rollback is sent instead. A prize or rollback is
 * sent again with the same transactionId. Either way the call sent counts one more attempt and is
 * left to this sender until its in-flight time passes.
 */
export function claimPending(
  pending: LedgerTransaction,
  round: RoundRecord,
  newId: () => string,
  retry: WalletRetryPolicy,
  now: string,
): { send: LedgerTransaction; changes: LedgerChanges } {
  const until = inFlightUntil(retry, now);
  if (pending.type === 'bet') {
    const voided = rollBackUnansweredBet(
      round,
      pending,
      pending.lastError ?? 'no answer from the wallet',
      newId(),
      now,
    );
    const send: LedgerTransaction = {
      ...voided.rollback,
      attempts: voided.rollback.attempts + 1,
      nextAttemptAt: until,
    };
    return { send, changes: { ...voided.changes, insert: send } };
  }
  const send: LedgerTransaction = { ...pending, attempts: pending.attempts + 1, nextAttemptAt: until };
  return {
    send,
    changes: {
      transactions: [{ id: pending.id, change: { attempts: send.attempts, nextAttemptAt: until } }],
    },
  };
}

/** No definite answer yet: keep why, and try again after the schedule's delay for its attempt. */
function retryChanges(
  call: LedgerTransaction,
  reason: string,
  retry: WalletRetryPolicy,
  now: string,
): LedgerChanges {
  return {
    transactions: [
      { id: call.id, change: { lastError: reason, nextAttemptAt: nextAttemptAt(retry, call.attempts, now) } },
    ],
  };
}
