import { canonicalBody } from '@raspa/core/signer';
import type { OutboxEvent } from '../store/records.ts';
import { signedRequestHeader, standardWebhookSignature } from './signatures.ts';

export interface DeliveryRequest {
  headers: Record<string, string>;
  body: string;
}

/**
 * The POST of one attempt of an event (docs/contract.md §7): `{event, payload}` as canonical JSON,
 * signed both ways with the webhook's signatureToken. `at`: when it is sent, the webhook-timestamp;
 * the webhook-id is the event's id, the same on every retry, for receivers to deduplicate on.
 */
export function deliveryRequest(
  event: Pick<OutboxEvent, 'id' | 'eventType' | 'payload'>,
  signatureToken: string,
  at: Date,
): DeliveryRequest {
  const body = canonicalBody({ event: event.eventType, payload: event.payload });
  return signedRequest(event.id, body, signatureToken, at);
}

/**
 * The POST of one batch (docs/webhooks.md, "Batches"): `{"events": [{id, event, payload}, …]}`, each
 * item the envelope a single delivery carries plus its event id, receivers deduplicating on it. The
 * headers are the single delivery's over the whole body; the webhook-id is the batch's own id.
 */
export function batchRequest(
  batchId: string,
  events: readonly Pick<OutboxEvent, 'id' | 'eventType' | 'payload'>[],
  signatureToken: string,
  at: Date,
): DeliveryRequest {
  const items = events.map((event) => ({ id: event.id, event: event.eventType, payload: event.payload }));
  return signedRequest(batchId, canonicalBody({ events: items }), signatureToken, at);
}

function signedRequest(id: string, body: string, signatureToken: string, at: Date): DeliveryRequest {
  const timestamp = Math.floor(at.getTime() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Raspa-Webhooks/1',
    'x-signed-request': signedRequestHeader(body, signatureToken),
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardWebhookSignature(id, timestamp, body, signatureToken),
  };
  return { headers, body };
}
