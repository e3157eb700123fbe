import type { Deps } from '../deps.ts';
import type { WebhookEvent } from '../store/records.ts';
import type { Transaction } from '../store/store.ts';

export interface RoundEvent {
  /** The API client whose webhooks get it. */
  clientId: string;
  roundId: string;
  eventType: WebhookEvent;
  /**
   * The round as the event carries it (schemas/round.ts `roundView`), or a function that
   * builds it: called only when some webhook subscribes, since building it costs queries.
   */
  payload: unknown | (() => Promise<unknown>);
}

export interface WebhookOutbox {
  /**
   * Queues the event for every active webhook of the client subscribed to it; returns the event
   * ids (one per webhook). Runs on the round's own transaction, so an event exists exactly when
   * its round does, a crash included; the dispatcher is nudged once that transaction commits.
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
      const now = deps.clock().toISOString();
      const ids: string[] = [];
      let built: { value: unknown } | undefined;
      for (const webhook of await tx.webhooks.listLiveByClient(clientId)) {
        if (webhook.status !== 'active' || !webhook.eventTriggers.includes(eventType)) continue;
        built ??= { value: typeof payload === 'function' ? await payload() : payload };
        const id = deps.newId();
        await tx.outbox.insert({
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
      const { nudge } = deps;
      if (ids.length > 0 && nudge) tx.afterCommit(nudge);
      return ids;
    },
  };
}
