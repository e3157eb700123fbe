import { performance } from 'node:perf_hooks';
import type { Deps } from '../deps.ts';
import type { OutboxEvent } from '../store/records.ts';
import { type DeliverAttempt, type DeliverBatch, openTarget, type Target } from './attempt.ts';
import { drainBatches } from './batch-drain.ts';
import { deliveryWindow, headLateness } from './delivery-window.ts';
import { trackAttempt } from './in-flight.ts';
import type { WebhookSender } from './post.ts';
import { chooseSends, orderKey, readSize, sendRoom, worthReading } from './send-order.ts';

/**
 * Sends one webhook's queue: reads its due events in seq order and starts each attempt when
 * send-order.ts allows, until one is not due, none is left or one fails. The dispatcher runs at
 * most one drain per webhook (one process at a time holds its lease).
 *
 * Each read starts at the queue's head and leaves out this drain's own events, never after a
 * cursor: on PostgreSQL a seq is taken at insert and seen at commit, so an open-round can commit
 * after a later seq was read. Past a cursor it would wait for the next drain, while its round's
 * close-round, queued after it committed, went first (issue 22).
 */

export interface DrainDeps extends Pick<Deps, 'store' | 'clock' | 'secrets' | 'logger'> {
  sender: Pick<WebhookSender, 'forget'>;
  attempt: DeliverAttempt;
  /** A batch webhook's attempts (batch-drain.ts). */
  batch: DeliverBatch;
  /** Events in flight at most (WEBHOOK_IN_FLIGHT): the cap of the window (delivery-window.ts). */
  perWebhook: number;
  /** True once the dispatcher is stopping: nothing more may start. */
  stopping: () => boolean;
  /** The drain broke on an unexpected error (a bug, the disk); the drain logs it. */
  onFault: (webhookId: string) => void;
}

/** A drain re-reads its webhook (deleted? disabled?) at least this often. */
const TARGET_TTL_MS = 1000;

export function createWebhookDrain(deps: DrainDeps): (webhookId: string) => Promise<void> {
  const { store, logger, sender, perWebhook } = deps;

  /**
   * The webhook if it may still receive (else its queue is dropped), with its token opened. Its
   * address is checked by the sender at each connection (DNS can change after registration).
   */
  async function lookUp(webhookId: string): Promise<Target | undefined> {
    const webhook = await store.webhooks.findById(webhookId);
    if (!webhook || webhook.deletedAt !== null || webhook.status !== 'active') {
      // No transaction needed: a webhook never comes back from deleted or disabled.
      const dropped = await store.outbox.dropQueued(webhookId);
      logger.info('webhook events dropped', { webhookId, dropped });
      sender.forget(webhookId);
      return undefined;
    }
    return openTarget(deps.secrets, webhook);
  }

  /**
   * A webhook's due events in seq order, until one is not due, none is left or one fails. The
   * first goes alone; once one has had a 2xx, up to the window are in flight: it widens towards
   * `perWebhook` while the queue's head is late (delivery-window.ts).
   */
  return async function drain(webhookId: string): Promise<void> {
    /** Attempts not yet answered (an answer lets the round's next event go). */
    const sending = new Set<Promise<unknown>>();
    /**
     * Attempts not yet recorded (answered ones wait for their batch's unit: attempt.ts):
     * the in-flight window. An attempt holds its place until recorded, so a crash re-sends at most
     * `perWebhook` (the window's cap) events that were already delivered.
     */
    const recording = new Set<Promise<unknown>>();
    const roundsInFlight = new Set<string>();
    /** Read, but waiting for their round's earlier event to be answered (or for room); oldest first. */
    let held: OutboxEvent[] = [];
    /**
     * Seqs of the events sent and not yet recorded. One leaves only once its attempt is recorded
     * (committed), so a read begun after that sees it delivered; an event answered but not yet
     * recorded is never read (and sent) again. A failure ends the drain's reads.
     */
    const seqsInFlight = new Set<number>();
    let healthy = false;
    let failed = false;
    let to: { target: Target; readAt: number } | undefined;
    /** The in-flight window, set again from the head's lateness at each read. */
    let window = deliveryWindow({ cap: perWebhook, lateMs: 0 });
    const room = () => sendRoom({ healthy, inFlight: recording.size, perWebhook: window });

    const send = (target: Target, event: OutboxEvent) => {
      roundsInFlight.add(orderKey(event));
      seqsInFlight.add(event.seq);
      trackAttempt(
        { sending, recording },
        (onAnswer) => deps.attempt(target, event, onAnswer),
        // Answered: the round's next event may go (its open-round was answered).
        (ok) => {
          roundsInFlight.delete(orderKey(event));
          if (ok) healthy = true;
          else failed = true;
        },
        () => seqsInFlight.delete(event.seq),
      );
    };

    try {
      for (;;) {
        if (!deps.stopping() && !failed && room() > 0) {
          if (!to || performance.now() - to.readAt > TARGET_TTL_MS) {
            const target = await lookUp(webhookId);
            if (!target) break;
            to = { target, readAt: performance.now() };
            // A batch webhook's queue goes in batches (its mode never changes: checked once).
            if (target.webhook.delivery.mode === 'batch' && recording.size === 0) {
              let current: { target: Target; readAt: number } = to;
              await drainBatches(
                {
                  ...deps,
                  // Each request carries many events: the starting window, never widened.
                  perWebhook: deliveryWindow({ cap: perWebhook, lateMs: 0 }),
                  target: async () => {
                    if (performance.now() - current.readAt > TARGET_TTL_MS) {
                      const again = await lookUp(webhookId);
                      if (!again) return undefined;
                      current = { target: again, readAt: performance.now() };
                    }
                    return current.target;
                  },
                },
                webhookId,
              );
              return;
            }
          }
          const target = to.target;
          const reading = worthReading({ healthy, inFlight: recording.size, perWebhook: window });
          const size = reading ? readSize({ room: room(), held, roundsInFlight, perWebhook: window }) : 0;
          const skip = [...seqsInFlight, ...held.map((event) => event.seq)];
          const read = size > 0 ? await store.outbox.queuedHead(webhookId, skip, size) : [];
          // Chosen only now, in one synchronous step: while the store answered, attempts may have
          // ended (a failure: nothing more may start; a 2xx: a held close-round may go) or stop() come.
          if (!deps.stopping() && !failed) {
            const at = deps.clock();
            if (size > 0)
              window = deliveryWindow({
                cap: perWebhook,
                lateMs: headLateness([...held, ...read], at.getTime()),
              });
            const now = at.toISOString();
            const choice = chooseSends({ held, read, roundsInFlight, room: room(), now });
            held = choice.held;
            for (const event of choice.send) send(target, event);
          }
        }
        if (recording.size === 0) return;
        await Promise.race([...sending, ...recording]);
      }
    } catch (error) {
      deps.onFault(webhookId);
      logger.error('webhook delivery broke', {
        webhookId,
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      await Promise.allSettled(recording);
    }
  };
}
