import { canonicalBody, verifySignature } from '@raspa/core/signer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchRequest, deliveryRequest } from './build-request.ts';
import { verifyStandardWebhook } from './signatures.ts';

const TOKEN = '9b2f3c4d-1e5a-4b6c-8d7e-0f1a2b3c4d5e';
const AT = new Date('2030-01-01T00:00:07.900Z');
const EVENT = { id: 'evt-1', eventType: 'open-round' as const, payload: { id: 'round-1', status: 'open' } };

describe('deliveryRequest', () => {
  it('posts {event, payload} as canonical JSON', () => {
    const { body, headers } = deliveryRequest(EVENT, TOKEN, AT);
    expect(JSON.parse(body)).toEqual({ event: 'open-round', payload: EVENT.payload });
    expect(body).toBe(canonicalBody({ event: 'open-round', payload: EVENT.payload }));
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toBe('Raspa-Webhooks/1');
  });

  it('carries the event id and the sending time in unix seconds (rounded down)', () => {
    const { headers } = deliveryRequest(EVENT, TOKEN, AT);
    expect(headers['webhook-id']).toBe('evt-1');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(AT.getTime() / 1000)));
  });

  it('is the same for the same event and time: a retry differs only by its time', () => {
    expect(deliveryRequest(EVENT, TOKEN, AT)).toEqual(deliveryRequest(EVENT, TOKEN, AT));
    const later = deliveryRequest(EVENT, TOKEN, new Date(AT.getTime() + 5000));
    expect(later.body).toBe(deliveryRequest(EVENT, TOKEN, AT).body);
    expect(later.headers['webhook-id']).toBe('evt-1');
  });

  it('for any payload, both signatures verify as a receiver checks them', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.constantFrom('open-round' as const, 'close-round' as const),
        fc.string({ minLength: 1 }),
        (payload, eventType, token) => {
          const { body, headers } = deliveryRequest({ id: 'evt-2', eventType, payload }, token, AT);
          expect(verifyStandardWebhook(headers, body, token, { now: AT })).toEqual({ ok: true });
          expect(verifySignature(JSON.parse(body), token, headers['x-signed-request'] as string)).toBe(true);
        },
      ),
    );
  });
});

describe('batchRequest', () => {
  it('posts {events: [{id, event, payload}]}, signed over the whole body, with the batch’s own webhook-id', () => {
    const second = { id: 'evt-2', eventType: 'close-round' as const, payload: { id: 'round-1' } };
    const { body, headers } = batchRequest('batch-1', [EVENT, second], TOKEN, AT);
    expect(JSON.parse(body)).toEqual({
      events: [
        { id: 'evt-1', event: 'open-round', payload: EVENT.payload },
        { id: 'evt-2', event: 'close-round', payload: second.payload },
      ],
    });
    expect(headers['webhook-id']).toBe('batch-1');
    expect(verifyStandardWebhook(headers, body, TOKEN, { now: AT })).toEqual({ ok: true });
    expect(verifySignature(JSON.parse(body), TOKEN, headers['x-signed-request'] as string)).toBe(true);
    const single = deliveryRequest(EVENT, TOKEN, AT).headers;
    expect(Object.keys(headers)).toEqual(Object.keys(single));
  });
});
