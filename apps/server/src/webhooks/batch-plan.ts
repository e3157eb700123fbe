import { orderKey, type Queued } from './send-order.ts';

/**
 * What a batch webhook's next requests carry (docs/webhooks.md, "Batches"; docs/contract.md §15).
 * Batches only when busy:
 * - nothing in flight: the due events go at once (one event alone when one is waiting);
 * - requests in flight: waiting events go together in the next request once `maxEvents` of them are
 *   ready or the oldest has waited `maxWaitMs`, while the in-flight window has room;
 * - seq order, as single deliveries: a retry not yet due holds back everything after it;
 * - a round's close-round goes in its open-round's batch, or in a batch sent after that one was
 *   answered: an event whose round is in an unanswered request waits, and so does one whose round
 *   is in an earlier batch of the same plan.
 * Rules only; batch-drain.ts reads the queue, keeps the state and sends.
 */

export interface BatchPlanInput<E extends Queued> {
  /** The queue's head, oldest first, leaving out the events in flight. */
  queued: readonly E[];
  /** Rounds (`orderKey`s) with an event in a request not yet answered. */
  roundsInFlight: ReadonlySet<string>;
  /** Requests not yet recorded (the in-flight window's use). */
  inFlight: number;
  /** Requests in flight at most (1 until the receiver has answered a 2xx). */
  window: number;
  maxEvents: number;
  maxWaitMs: number;
  /** The injected clock's now (ms); `nextAttemptAt` is when an event became due. */
  now: number;
}

export interface BatchPlan<E extends Queued> {
  /** Requests to start now, each its events oldest first. */
  send: E[][];
  /** Milliseconds until a waiting batch is due (its oldest event has waited maxWaitMs); null: none waits. */
  wakeInMs: number | null;
}

export function planBatches<E extends Queued>(input: BatchPlanInput<E>): BatchPlan<E> {
  const { maxEvents, maxWaitMs, now } = input;
  // A retry not yet due holds back everything after it.
  const stop = input.queued.findIndex((event) => Date.parse(event.nextAttemptAt) > now);
  let left = stop === -1 ? [...input.queued] : input.queued.slice(0, stop);
  const busy = new Set(input.roundsInFlight);
  const send: E[][] = [];
  let inFlight = input.inFlight;
  while (inFlight < input.window) {
    const batch: E[] = [];
    const rest: E[] = [];
    for (const event of left) {
      if (batch.length < maxEvents && !busy.has(orderKey(event))) batch.push(event);
      else rest.push(event);
    }
    if (batch.length === 0) break;
    const oldest = Math.min(...batch.map((event) => Date.parse(event.nextAttemptAt)));
    const waited = now - oldest;
    if (inFlight > 0 && batch.length < maxEvents && waited < maxWaitMs) {
      return { send, wakeInMs: maxWaitMs - waited };
    }
    send.push(batch);
    inFlight++;
    for (const event of batch) busy.add(orderKey(event));
    left = rest;
  }
  return { send, wakeInMs: null };
}
