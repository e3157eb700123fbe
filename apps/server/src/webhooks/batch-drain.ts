import type { Deps } from '../deps.ts';
import type { OutboxEvent } from '../store/records.ts';
import type { DeliverBatch, Target } from './attempt.ts';
import { planBatches } from './batch-plan.ts';
import { trackAttempt } from './in-flight.ts';
import { orderKey } from './send-order.ts';

/**
 * Sends a batch webhook's queue (docs/webhooks.md, "Batches"): what each request carries is
 * batch-plan.ts's decision; this reads the queue, keeps the in-flight state and sends. As the
 * single drain (drain.ts): one request at a time until the receiver answers a 2xx, then up to
 * `perWebhook` in flight; a failure ends the drain (its events are retried on §7's schedule, maybe
 * in other batches); a request holds its place in the window until its answer is recorded, so a
 * crash re-sends at most the batches in flight, never loses one.
 */

export interface BatchDrainDeps extends Pick<Deps, 'store' | 'clock'> {
  batch: DeliverBatch;
  /** Requests in flight at most once the receiver has answered a 2xx. */
  perWebhook: number;
  stopping: () => boolean;
  /** The webhook if it may still receive (re-read at most every second); undefined: stop. */
  target: () => Promise<Target | undefined>;
}

/** The most events one read of the queue takes: a few full batches. */
const READ_BATCHES = 4;

export async function drainBatches(deps: BatchDrainDeps, webhookId: string): Promise<void> {
  const { store } = deps;
  /** Requests not yet answered / not yet recorded (the window). */
  const sending = new Set<Promise<unknown>>();
  const recording = new Set<Promise<unknown>>();
  /** Rounds with an event in an unanswered request: their later events wait (§7's order). */
  const roundsInFlight = new Map<string, number>();
  /** Seqs sent and not yet recorded: never read (and sent) again meanwhile. */
  const seqsInFlight = new Set<number>();
  let healthy = false;
  let failed = false;

  const send = (target: Target, events: OutboxEvent[]) => {
    for (const event of events) {
      seqsInFlight.add(event.seq);
      const key = orderKey(event);
      roundsInFlight.set(key, (roundsInFlight.get(key) ?? 0) + 1);
    }
    trackAttempt(
      { sending, recording },
      (onAnswer) => deps.batch(target, events, onAnswer),
      (ok) => {
        for (const event of events) {
          const key = orderKey(event);
          const left = (roundsInFlight.get(key) ?? 1) - 1;
          if (left > 0) roundsInFlight.set(key, left);
          else roundsInFlight.delete(key);
        }
        if (ok) healthy = true;
        else failed = true;
      },
      () => {
        for (const event of events) seqsInFlight.delete(event.seq);
      },
    );
  };

  try {
    for (;;) {
      let wakeInMs: number | null = null;
      const window = healthy ? deps.perWebhook : 1;
      if (!deps.stopping() && !failed && recording.size < window) {
        const target = await deps.target();
        if (!target) break;
        const { maxEvents, maxWaitMs } = target.webhook.delivery;
        const limit = maxEvents * Math.min(READ_BATCHES, window - recording.size);
        const queued = await store.outbox.queuedHead(webhookId, [...seqsInFlight], limit);
        // Planned only now, in one synchronous step: attempts may have ended while the store answered.
        if (!deps.stopping() && !failed) {
          const plan = planBatches({
            queued,
            roundsInFlight: new Set(roundsInFlight.keys()),
            inFlight: recording.size,
            window,
            maxEvents,
            maxWaitMs,
            now: deps.clock().getTime(),
          });
          for (const events of plan.send) send(target, events);
          wakeInMs = plan.wakeInMs;
        }
      }
      if (recording.size === 0) return;
      const waits: Promise<unknown>[] = [...sending, ...recording];
      let timer: NodeJS.Timeout | undefined;
      if (wakeInMs !== null) {
        const ms = wakeInMs;
        waits.push(new Promise((resolve) => (timer = setTimeout(resolve, ms))));
      }
      await Promise.race(waits);
      clearTimeout(timer);
    }
  } finally {
    await Promise.allSettled(recording);
  }
}
