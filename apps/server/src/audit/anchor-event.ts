/**
 * The `anchor` webhook event (contract §16, docs/audit.md "Keeping a copy"): each anchor, signed,
 * to every active webhook of its client that lists `anchor` in its eventTriggers. Queued in the
 * unit that inserts the anchor, so the event exists exactly when the anchor does; the webhook
 * outbox delivers it with its signatures, retries and order (a webhook's anchors one after
 * another: webhooks/send-order.ts `orderKey`).
 */
import type { Transaction } from '../store/store.ts';
import type { AnchorWriterDeps } from './anchor-writer.ts';

/** The webhook outbox (webhooks/enqueue.ts), as the anchoring needs it: an event with no round. */
export interface AnchorEventQueue {
  enqueue(
    tx: Transaction,
    event: { clientId: string; roundId: null; eventType: 'anchor'; payload: unknown },
  ): Promise<unknown>;
}

export function queueAnchorEvent(outbox: AnchorEventQueue): NonNullable<AnchorWriterDeps['inUnit']> {
  return async (tx, { anchor }) => {
    await outbox.enqueue(tx, {
      clientId: anchor.clientId,
      roundId: null,
      eventType: 'anchor',
      payload: anchor,
    });
  };
}
