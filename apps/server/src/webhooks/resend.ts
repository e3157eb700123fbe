import type { Deps } from '../deps.ts';
import type { DeliveryRecord, OutboxEvent } from '../store/records.ts';
import { attemptLog, sendBatch, sendEvent, type Target } from './attempt.ts';
import type { WebhookSender } from './post.ts';

/**
 * Sends one event again at a person's request (POST /v1/webhook/{webhookId}/redeliver): one more
 * attempt, with the event's own `webhook-id`, logged like every attempt (the webhook's counters move
 * with the log in the same transaction). It is outside the queue: the event's place in the outbox
 * (delivered, given up) is left as it is, and nothing is retried if it fails. The caller checks the
 * event may be re-sent (see webhook-service.ts). A batch webhook gets it alone, as a batch of one
 * under a new batch id (its receiver reads only batches).
 */
export type ResendEvent = (
  to: Target,
  event: Pick<OutboxEvent, 'id' | 'eventType' | 'payload'>,
  /** The store to log the attempt in (the caller's, so its audit entry goes with it); default the dispatcher's. */
  store?: Pick<Deps['store'], 'transaction'>,
) => Promise<DeliveryRecord>;

export function createManualResend(
  deps: Pick<Deps, 'store' | 'clock' | 'newId'> & { sender: Pick<WebhookSender, 'post'> },
): ResendEvent {
  return async (to, event, store = deps.store) => {
    const batchId = to.webhook.delivery.mode === 'batch' ? deps.newId() : null;
    const result = await (batchId === null
      ? sendEvent(deps, to, event)
      : sendBatch(deps, to, batchId, [event]));
    // No retryCount: the repo counts the event's earlier rows (the queue's and earlier re-sends).
    const logged = attemptLog(deps.newId(), to.webhook.id, event, result, batchId);
    const row = await store.transaction((tx) => tx.webhooks.recordAttempt({ ...logged, willRetry: false }));
    return { ...row, payload: event.payload, batchId: row.batchId ?? null };
  };
}
