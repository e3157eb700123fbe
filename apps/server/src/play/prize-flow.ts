import { isoNow } from '../clock.ts';
import type { HeldRound, RoundRecord } from '../store/records.ts';
import { ROW_LOCKS } from '../store/store.ts';
import { mustRound, type PlayRuntime, RoundMovedError, writeChanges } from './play-runtime.ts';
import { playRoundOf } from './round-records.ts';
import { createTurns } from './turns.ts';
import { closeOutcome, type LedgerChanges } from './wallet-outcomes.ts';
import type { WalletRetrier } from './wallet-retrier.ts';

/**
 * Closing a round, by its reveal or its idle time-out (docs/contract.md §8: a won prize is paid
 * either way). The round is read alone (the page gives only its id); then a lost round closes in
 * one unit, and a won one sends its prize before writing anything, its answer and the close in
 * one unit (wallet-retrier.ts `sendFirst`, docs/store.md cut 6). Each unit writes only if the
 * round is still open, so of several closers (two tabs, a reveal and the idle close) one closes
 * it. The page is told the round as it stands after.
 */
export function createPrizeFlow(runtime: PlayRuntime, retrier: Pick<WalletRetrier, 'sendFirst'>) {
  const { deps, events, notifier, retry } = runtime;
  const { store } = deps;
  // Closers of one round in this process (two tabs, a reveal and the idle close) take turns, so the
  // second reads the round the first left and neither sends the prize again. Other instances are
  // kept apart by the units' `open` condition.
  const turns = createTurns();

  /** A lost round's close: one unit, if the round is still open; else the round as it stands. */
  async function closeLost(held: HeldRound, changes: LedgerChanges): Promise<RoundRecord> {
    try {
      return await store.transaction(
        (tx) => writeChanges(tx, events, held, changes, { held: true, last: true }),
        ROW_LOCKS,
      );
    } catch (error) {
      if (!(error instanceof RoundMovedError)) throw error;
      return mustRound(store, held.round.id); // another closer's unit closed it
    }
  }

  /**
   * Closes the round; with `playerId` (a reveal), only that player's round with a card. Otherwise
   * (or unknown) undefined and nothing changes.
   */
  function closeRound(
    roundId: string,
    playerId?: string,
  ): Promise<{ round: RoundRecord; balance: number } | undefined> {
    return turns.take(roundId, () => closeOnce(roundId, playerId));
  }

  async function closeOnce(
    roundId: string,
    playerId?: string,
  ): Promise<{ round: RoundRecord; balance: number } | undefined> {
    // With its calls and player: the close-round is built from them, no read in the unit.
    const held = await store.rounds.findHeldRound(roundId);
    if (!held) return undefined;
    let { round } = held;
    if (playerId !== undefined && (round.playerId !== playerId || !round.cardJson)) return undefined;
    const outcome = closeOutcome(round, retry, isoNow(deps));
    // The balance the page is answered: the player's last reported one, read with the round (no
    // read after the unit), unless the prize's yes reports a new one.
    let balance = held.player.balanceMinor;
    if (outcome.kind === 'not-open') return { round, balance };
    if (outcome.kind === 'closed') round = await closeLost(held, outcome.changes);
    else {
      const sent = await retrier.sendFirst(outcome.prize, held);
      // Undefined: the retrier here is sending the prize already (it answers and pushes when done),
      // so the round has moved on since it was read: answered as it stands, not as guessed.
      round = sent?.round ?? (await mustRound(store, round.id));
      balance = sent?.balance ?? balance;
    }
    const view = playRoundOf(round);
    if (view) notifier.round(round.playerId, view);
    return { round, balance };
  }

  return { closeRound };
}
