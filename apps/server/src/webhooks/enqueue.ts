import type { Deps } from '../deps.ts';
import type { WebhookEvent } from '../store/records.ts';
import type { Transaction } from '../store/store.ts';

/**
 * The first step of a delivery: an event is queued in the outbox inside its round's own
 * transaction; dispatch.ts takes it from there once that transaction commits.
 */

export interface RoundEvent {
  /** The API client whose webhooks get it. */
  clientId: string;
  roundId: string;
  eventType: WebhookEvent;
  /** The round as the event carries it (schemas/round.ts `roundView`, play/round-event.ts). */
  payload: unknown;
}

export interface WebhookOutbox {
  /**
   * Queues the event for every active webhook of the client subscribed to it, in one statement
   * (`outbox.insertForSubscribers`); returns the event ids (one per webhook). Runs on the round's
   * own transaction, so an event exists exactly when its round does, a crash included; the
   * dispatcher is nudged once that transaction commits.
   */
  enqueue(tx: Transaction, event: RoundEvent): Promise<string[]>;
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
