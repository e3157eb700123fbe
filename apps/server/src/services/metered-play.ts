import { performance } from 'node:perf_hooks';
import type { Metrics, RoundOutcome } from '../ops/metrics.ts';
import type { PlayResult, PlayService, RoundEventQueue } from '../play/play-service.ts';

/** A buy that ends the round it started: the wallet said no, or gave no definite answer. */
const ENDED_BY_BUY: Partial<Record<string, RoundOutcome>> = {
  INSUFFICIENT_FUNDS: 'declined',
  WALLET_DECLINED: 'declined',
  WALLET_UNAVAILABLE: 'voided',
};

const resultOf = (result: PlayResult<unknown>) => (result.ok ? 'ok' : result.code);

/** The play service with its buys and reveals timed, wrapped from the outside. */
export function meteredPlay(play: PlayService, metrics: Metrics): PlayService {
  return {
    ...play,
    async buy(sessionId) {
      const started = performance.now();
      const result = await play.buy(sessionId);
      metrics.play('buy', resultOf(result), (performance.now() - started) / 1000);
      const ended = result.ok ? undefined : ENDED_BY_BUY[result.code];
      if (ended) metrics.roundEnded(ended);
      return result;
    },
    async reveal(sessionId, roundId) {
      const started = performance.now();
      const result = await play.reveal(sessionId, roundId);
      metrics.play('reveal', resultOf(result), (performance.now() - started) / 1000);
      return result;
    },
  };
}

/**
 * Counts rounds as they open and close, from the webhook events the play service queues: every
 * opened and every closed round queues exactly one, inside its own transaction, whether it was
 * closed by a reveal, a time-out or the prize retrier. The event carries the round as its unit left
 * it (no read: issue 23), so its outcome is counted only once the player has seen it.
 */
export function roundCounting(events: RoundEventQueue, metrics: Metrics): RoundEventQueue {
  return {
    async enqueue(tx, event) {
      await events.enqueue(tx, event);
      const { round } = event;
      // Counted once the round's transaction commits: a rolled-back unit counts nothing.
      tx.afterCommit(() => {
        if (event.eventType === 'open-round') metrics.roundOpened();
        else
          metrics.roundEnded(round.reconciliation ? 'prize_given_up' : round.prizeMinor > 0 ? 'won' : 'lost');
      });
    },
  };
}
