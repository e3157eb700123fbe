import { isoNow } from '../deps.ts';
import type { RoundRecord } from '../store/records.ts';
import { ROW_LOCKS } from '../store/store.ts';
import { mustRound, type PlayRuntime, writeChanges } from './play-runtime.ts';
import { playRoundOf } from './round-records.ts';
import { closeOutcome } from './wallet-outcomes.ts';
import type { WalletRetrier } from './wallet-retrier.ts';

/**
 * Closing a round, by its reveal or its idle time-out (docs/contract.md §8: a won prize is paid
 * either way). A lost round closes at once; a won one commits its prize `pending` and sends it
 * through the retrier at once, which keeps retrying it if the wallet gives no yes
 * (wallet-outcomes.ts `prizeOutcome`). The page is told the round as it stands after.
 */
export function createPrizeFlow(runtime: PlayRuntime, retrier: Pick<WalletRetrier, 'send'>) {
  const { deps, events, notifier, retry } = runtime;
  const { store } = deps;

  /**
   * Closes the round; with `playerId` (a reveal), only that player's round with a card. Otherwise
   * (or unknown) undefined and nothing changes. Checked on the closing transaction: no read before it.
   */
  async function closeRound(
    roundId: string,
    playerId?: string,
  ): Promise<{ round: RoundRecord; balance: number } | undefined> {
    const step = await store.transaction(async (tx) => {
      // With its calls and player: a lost round queues its close-round here, built from them.
      const held = await tx.rounds.findHeldRound(roundId);
      if (!held) return undefined;
      const { round } = held;
      if (playerId !== undefined && (round.playerId !== playerId || !round.cardJson)) return undefined;
      const outcome = closeOutcome(round, () => deps.newId(), retry, isoNow(deps));
      // The balance the page is answered: the player's last reported one, read with the round
      // (no read after the unit), unless the prize's yes reports a new one.
      const balance = held.player.balanceMinor;
      if (outcome.kind === 'not-open') return { round, balance, prize: undefined };
      const changed = await writeChanges(tx, events, held, outcome.changes, { last: true });
      return outcome.kind === 'closed'
        ? { round: changed, balance, prize: undefined }
        : { round: changed, balance, prize: outcome.prize };
    }, ROW_LOCKS);
    if (!step) return undefined;
    let { round, balance } = step;
    if (step.prize) {
      // The reveal's own attempt: the round as its answer left it.
      const recorded = await retrier.send(step.prize, round);
      round = recorded?.round ?? (await mustRound(store, roundId));
      balance = recorded?.balance ?? balance;
    }
    const view = playRoundOf(round);
    if (view) notifier.round(round.playerId, view);
    return { round, balance };
  }

  return { closeRound };
}
