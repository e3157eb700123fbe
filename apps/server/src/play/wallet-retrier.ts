import { isoNow } from '../deps.ts';
import type { LedgerTransaction, RoundRecord } from '../store/records.ts';
import { ROW_LOCKS } from '../store/store.ts';
import type { WalletAnswer } from '../wallet/wallet.ts';
import {
  allInOrder,
  callContext,
  mustHeldRound,
  mustRound,
  type PlayRuntime,
  type RoundInHand,
  writeChanges,
} from './play-runtime.ts';
import { inFlightUntil } from './retry-schedule.ts';
import { playRoundOf, walletMovement } from './round-records.ts';
import { type SentCall, timedSend, walletAttemptRecord } from './wallet-attempt.ts';
import { claimPending, type LedgerChanges, prizeOutcome, rollbackOutcome } from './wallet-outcomes.ts';

/**
 * Sends the wallet calls that are committed `pending` (docs/contract.md §6): a won round's prize
 * (first from its reveal), rollbacks, and whatever a time-out or a crash left without an answer.
 * Each is leased in the database (`rounds.claimDue`: one statement, so of several processes exactly
 * one takes a due call, and the lease of a process that died expires), sent, and its answer
 * written (wallet-outcomes.ts); a bet found pending is not sent again but voided and rolled back
 * (`claimPending`).
 */
/** What an answer's unit left: the round, and the balance the wallet reported with a yes. */
interface Recorded {
  round: RoundRecord;
  balance: number | undefined;
}

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
   * The first attempt of a call its creator holds (a reveal's prize): sent at once, no lease to
   * take. Resolves with the round as the answer left it and the balance a yes reported
   * (undefined if the call was being sent).
   */
  function send(call: LedgerTransaction, round: RoundRecord): Promise<Recorded | undefined> {
    return calls.sending(call.id, () => sendAndRecord(call, round));
  }

  async function sendAndRecord(call: LedgerTransaction, round: RoundRecord): Promise<Recorded> {
    const { wallet, player, game } = await callContext(runtime, round);
    const movement = walletMovement(call, round, player, game);
    const { answer, sent } = await timedSend(
      () => isoNow(deps),
      () =>
        call.type === 'prize'
          ? wallet.prize(movement)
          : wallet.rollback({ ...movement, originalTransactionId: call.originalTransactionId ?? '' }),
    );
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
    deps.logger[answer.kind === 'ok' ? 'info' : 'warn'](`wallet ${call.type}`, {
      transactionId: call.id,
      roundId: call.roundId,
      answer: answer.kind,
      attempt: call.attempts,
    });
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

  return { attempt, send, settleDue };
}

export type WalletRetrier = ReturnType<typeof createWalletRetrier>;
