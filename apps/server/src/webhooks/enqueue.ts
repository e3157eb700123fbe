import type { Deps } from '../deps.ts';
import type { WebhookEvent } from '../store/records.ts';
import type { Transaction } from '../store/store.ts';

/**
 * The first step of a delivery: an event is queued in the outbox inside the unit that writes what
 * it tells (a round's own transaction, an anchor's insert); dispatch.ts takes it from there once
 * that unit commits.
 */

export interface QueuedEvent {
  /** The API client whose webhooks get it. */
  clientId: string;
  /** The round of a round's event; null for an `anchor` event. */
  roundId: string | null;
  eventType: WebhookEvent;
  /**
   * The round as the event carries it (schemas/round.ts `roundView`, play/round-event.ts), or the
   * signed anchor (audit/anchor-event.ts).
   */
  payload: unknown;
}

export interface WebhookOutbox {
  /**
   * Queues the event for every active webhook of the client subscribed to it, in one statement
   * (`outbox.insertForSubscribers`); returns the event ids (one per webhook). Runs on the round's
   * (or the anchor's) own transaction, so an event exists exactly when what it tells does, a
   * crash included; the dispatcher is nudged once that transaction commits.
   */
  enqueue(tx: Transaction, event: QueuedEvent): Promise<string[]>;
}

export interface OutboxDeps extends Pick<Deps, 'newId' | 'clock'> {
  /** Called once the transaction has committed: the dispatcher's `nudge`. */
  nudge?: () => void;
}

export function createWebhookOutbox(deps: OutboxDeps): WebhookOutbox {
  return {
    async enqueue(tx, { clientId, roundId, eventType, payload }) {
      const ids = await tx.outbox.insertForSubscribers({
        id: deps.newId(),
        clientId,
        roundId,
        eventType,
        payload,
        at: deps.clock().toISOString(),
      });
      const { nudge } = deps;
      if (ids.length > 0 && nudge) tx.afterCommit(nudge);
      return ids;
    },
  };
}
