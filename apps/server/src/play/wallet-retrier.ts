import { isoNow } from '../clock.ts';
import type { HeldRound, LedgerTransaction, RoundRecord } from '../store/records.ts';
import { ROW_LOCKS, type Transaction } from '../store/store.ts';
import type { WalletAnswer } from '../wallet/wallet.ts';
import {
  allInOrder,
  callContext,
  mustHeldRound,
  mustRound,
  type PlayRuntime,
  type RoundInHand,
  RoundMovedError,
  writeChanges,
} from './play-runtime.ts';
import { inFlightUntil } from './retry-schedule.ts';
import { playRoundOf, walletMovement } from './round-records.ts';
import { type SentCall, timedSend, walletAttemptRecord } from './wallet-attempt.ts';
import {
  claimPending,
  firstPrizeOutcome,
  type LedgerChanges,
  prizeOutcome,
  rollbackOutcome,
} from './wallet-outcomes.ts';

/** What an answer's unit left: the round, and the balance the wallet reported with a yes. */
interface Recorded {
  round: RoundRecord;
  balance: number | undefined;
}

/**
 * Sends the wallet calls of a round (docs/contract.md §6): a won round's prize, first from its
 * reveal or idle close before anything is written (`sendFirst`), then, committed `pending`,
 * rollbacks, prizes without a yes, and whatever a time-out or a crash left without an answer.
 * Each is leased in the database (`rounds.claimDue`: one statement, so of several processes exactly
 * one takes a due call, and the lease of a process that died expires), sent, and its answer
 * written (wallet-outcomes.ts); a bet found pending is not sent again but voided and rolled back
 * (`claimPending`).
 */
export function createWalletRetrier(runtime: PlayRuntime) {
  const { deps, retry, notifier, events, calls, track, leaseOwner } = runtime;
  const { store } = deps;

  /** Leases a due pending call (so no one else sends it meanwhile), sends it and records the answer. */
  async function attempt(due: Pick<LedgerTransaction, 'id' | 'roundId'>): Promise<void> {
    await calls.sending(due.id, async () => {
      const claimed = await store.transaction(async (tx) => {
        const now = isoNow(deps);
        // The round first, as every unit that changes a round takes it: no deadlock between them.
        const round = await mustRound(tx, due.roundId);
        // Settled meanwhile, not due, or leased by another process: nothing to send.
        const pending = await tx.rounds.claimDue(due.id, leaseOwner, now, inFlightUntil(retry, now));
        if (!pending) return undefined;
        const claim = claimPending(pending, round, () => deps.newId(), retry, now);
        await writeChanges(tx, events, { round }, claim.changes, { last: true });
        return { call: claim.send, round };
      }, ROW_LOCKS);
      if (claimed) await sendAndRecord(claimed.call, claimed.round);
    });
  }

  /**
   * The first attempt of a won round's prize, which its sender (a reveal, an idle close) sends
   * before anything is written (docs/store.md cut 6): its answer and the close are one unit
   * (`firstPrizeOutcome`), written only if the round is still open. Every sender of the round
   * sends the same transactionId (fixed when the round opened; the wallet answers a repeat with its
   * first answer), so of two tabs, an idle close and a reveal, or two instances, only one unit
   * closes the round and queues `close-round`; the others record their attempt alone. Resolves
   * with the round as it stands after and the balance a yes reported; undefined if this process
   * is sending the prize already.
   */
  function sendFirst(prize: LedgerTransaction, held: HeldRound): Promise<Recorded | undefined> {
    return calls.sending(prize.id, async () => {
      const { answer, sent } = await sendCall(prize, held.round);
      const now = isoNow(deps);
      const outcome = firstPrizeOutcome(answer, prize, retry, now);
      const attempt = (tx: Transaction) =>
        tx.rounds.insertWalletAttempt(walletAttemptRecord(deps.newId(), prize, answer, sent));
      let round: RoundRecord;
      try {
        round = await store.transaction(async (tx) => {
          const changed = await writeChanges(tx, events, held, outcome.changes, { held: true });
          // After the prize's row, which it refers to; nothing follows it, so the COMMIT rides with it.
          tx.lastStatement();
          await attempt(tx);
          return changed;
        }, ROW_LOCKS);
      } catch (error) {
        if (!(error instanceof RoundMovedError)) throw error;
        // Another sender's unit closed it (or left it closing, for the retrier): that unit owns
        // the prize, which it inserted; this answer is only an attempt of it.
        await store.transaction(attempt, ROW_LOCKS);
        logAnswer(prize, answer);
        const balance = answer.kind === 'ok' ? answer.balanceMinor : undefined;
        return { round: await mustRound(store, prize.roundId), balance };
      }
      logAnswer(prize, answer);
      const balance = outcome.kind === 'paid' ? outcome.balanceMinor : undefined;
      if (balance !== undefined) notifier.balance(prize.playerId, balance);
      return { round, balance };
    });
  }

  /** Sends a call of the round, timed. */
  async function sendCall(call: LedgerTransaction, round: RoundRecord) {
    const { wallet, player, game } = await callContext(runtime, round);
    const movement = walletMovement(call, round, player, game);
    return timedSend(
      () => isoNow(deps),
      () =>
        call.type === 'prize'
          ? wallet.prize(movement)
          : wallet.rollback({ ...movement, originalTransactionId: call.originalTransactionId ?? '' }),
    );
  }

  function logAnswer(call: LedgerTransaction, answer: WalletAnswer): void {
    deps.logger[answer.kind === 'ok' ? 'info' : 'warn'](`wallet ${call.type}`, {
      transactionId: call.id,
      roundId: call.roundId,
      answer: answer.kind,
      attempt: call.attempts,
    });
  }

  async function sendAndRecord(call: LedgerTransaction, round: RoundRecord): Promise<Recorded> {
    const { answer, sent } = await sendCall(call, round);
    return record(call, answer, sent);
  }

  /** Writes what the wallet's answer to a prize or rollback means, and tells the page on a yes. */
  async function record(call: LedgerTransaction, answer: WalletAnswer, sent: SentCall): Promise<Recorded> {
    const now = isoNow(deps);
    let balance: number | undefined;
    const round = await store.transaction(async (tx): Promise<RoundRecord> => {
      // A prize's answer may close the round and queue its close-round: read with what it shows.
      const hand: RoundInHand =
        call.type === 'prize'
          ? await mustHeldRound(tx, call.roundId)
          : { round: await mustRound(tx, call.roundId) };
      // Sent ahead, not awaited: it rides with what follows (writeChanges awaits it first).
      const attempted = tx.rounds.insertWalletAttempt(walletAttemptRecord(deps.newId(), call, answer, sent));
      void attempted.catch(() => {}); // awaited below; a throw before that leaves nothing unhandled
      let changes: LedgerChanges;
      if (call.type === 'prize') {
        const outcome = prizeOutcome(answer, call, retry, now);
        if (outcome.kind === 'paid') balance = outcome.balanceMinor;
        changes = outcome.changes;
      } else {
        const bet = call.originalTransactionId
          ? (await allInOrder([attempted, tx.rounds.findTransaction(call.originalTransactionId)]))[1]
          : undefined;
        const outcome = rollbackOutcome(answer, call, bet, retry, now);
        if (outcome.kind === 'confirmed') balance = outcome.balanceMinor;
        changes = outcome.changes;
      }
      return writeChanges(tx, events, hand, changes, { last: true, before: [attempted] });
    }, ROW_LOCKS);
    logAnswer(call, answer);
    if (balance !== undefined) {
      notifier.balance(call.playerId, balance);
      const view = playRoundOf(round);
      if (view) notifier.round(call.playerId, view);
    }
    return { round, balance };
  }

  async function settleAllDue(): Promise<number> {
    let count = 0;
    for (;;) {
      const due = (await store.rounds.dueTransactions(isoNow(deps), 50)).filter(
        (t) => !calls.isSending(t.id),
      );
      if (due.length === 0) return count;
      await Promise.all(due.map(attempt));
      count += due.length;
    }
  }

  let settling: Promise<number> | undefined;

  /** Sends every pending wallet call whose time has come (after a restart too). Returns how many. */
  function settleDue(): Promise<number> {
    // Cleared from a callback, never from inside the run, which may finish synchronously.
    settling ??= track(settleAllDue()).finally(() => {
      settling = undefined;
    });
    return settling;
  }

  return { attempt, sendFirst, settleDue };
}

export type WalletRetrier = ReturnType<typeof createWalletRetrier>;
