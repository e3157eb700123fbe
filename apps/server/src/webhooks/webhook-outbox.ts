import type { Deps } from '../deps.ts';
import type { WebhookEvent } from '../store/records.ts';
import type { Store } from '../store/store.ts';

export interface RoundEvent {
  /** The API client whose webhooks get it. */
  clientId: string;
  roundId: string;
  eventType: WebhookEvent;
  /**
   * The round as the event carries it (http/schemas/round.ts `roundView`), or a function that
   * builds it: called only when some webhook subscribes, since building it costs queries.
   */
  payload: unknown;
}

export interface WebhookOutbox {
  /**
   * Queues the event for every active webhook of the client subscribed to it; returns the event
   * ids (one per webhook). MUST run inside the round's `store.transaction`, so an event exists
   * exactly when its round does, a crash included.
   */
  enqueue(event: RoundEvent): string[];
}

export interface OutboxDeps extends Pick<Deps, 'newId' | 'clock'> {
  /** Called once the transaction has had the chance to commit: the dispatcher's `nudge`. */
  nudge?: () => void;
}

export function createWebhookOutbox(store: Store, deps: OutboxDeps): WebhookOutbox {
  return {
    enqueue({ clientId, roundId, eventType, payload }) {
      if (!store.outbox.inTransaction()) {
        throw new Error('webhook events must be queued inside the round’s store.transaction');
      }
      const now = deps.clock().toISOString();
      const ids: string[] = [];
      let built: { value: unknown } | undefined;
      for (const webhook of store.webhooks.listLiveByClient(clientId)) {
        if (webhook.status !== 'active' || !webhook.eventTriggers.includes(eventType)) continue;
        built ??= { value: typeof payload === 'function' ? payload() : payload };
        const id = deps.newId();
        store.outbox.insert({
          id,
          webhookId: webhook.id,
          roundId,
          eventType,
          payload: built.value,
          nextAttemptAt: now,
          createdAt: now,
        });
        ids.push(id);
      }
      // better-sqlite3 transactions are synchronous: by the time this runs the caller's
      // transaction has committed (or rolled back, and the dispatcher then finds nothing).
      if (ids.length > 0 && deps.nudge) setImmediate(deps.nudge);
      return ids;
    },
  };
}
