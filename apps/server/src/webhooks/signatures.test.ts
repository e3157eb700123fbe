import { createHmac } from 'node:crypto';
import { verifySignature } from '@raspa/core/signer';
import { describe, expect, it } from 'vitest';
import {
  signedRequestHeader,
  standardWebhookSecret,
  standardWebhookSignature,
  verifyStandardWebhook,
} from './signatures.ts';

// The published Standard Webhooks test vector: reproducing it is what says receivers' libraries
// accept our signatures (a round trip through our own verifier would not).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const vectorKey = Buffer.from(VECTOR.secret.slice('whsec_'.length), 'base64');
const TOKEN = '9b2f3c4d-1e5a-4b6c-8d7e-0f1a2b3c4d5e';
const at = (seconds: number) => new Date(seconds * 1000);

describe('standardWebhookSignature', () => {
  it('reproduces the Standard Webhooks test vector', () => {
    expect(standardWebhookSignature(VECTOR.id, VECTOR.timestamp, VECTOR.body, vectorKey)).toBe(
      VECTOR.signature,
    );
  });

  it('keys with the UTF-8 bytes of the signatureToken, i.e. the secret whsec_ + base64(token)', () => {
    const secret = standardWebhookSecret(TOKEN);
    expect(secret).toBe(`whsec_${Buffer.from(TOKEN).toString('base64')}`);
    const decoded = Buffer.from(secret.slice('whsec_'.length), 'base64');
    expect(standardWebhookSignature('evt_1', 1700000000, '{}', TOKEN)).toBe(
      standardWebhookSignature('evt_1', 1700000000, '{}', decoded),
    );
    const independent = createHmac('sha256', TOKEN).update('evt_1.1700000000.{}').digest('base64');
    expect(standardWebhookSignature('evt_1', 1700000000, '{}', TOKEN)).toBe(`v1,${independent}`);
  });
});

describe('verifyStandardWebhook', () => {
  const headers = {
    'webhook-id': VECTOR.id,
    'webhook-timestamp': String(VECTOR.timestamp),
    'webhook-signature': VECTOR.signature,
  };
  const now = at(VECTOR.timestamp);

  it('accepts the vector, also among other signatures and versions', () => {
    expect(verifyStandardWebhook(headers, VECTOR.body, vectorKey, { now })).toEqual({ ok: true });
    const several = { ...headers, 'webhook-signature': `v2,abc v1,bm9wZQ== ${VECTOR.signature}` };
    expect(verifyStandardWebhook(several, VECTOR.body, vectorKey, { now })).toEqual({ ok: true });
  });

  it('refuses a changed body, id or key', () => {
    const refused = { ok: false, reason: 'no matching signature' };
    expect(verifyStandardWebhook(headers, `${VECTOR.body} `, vectorKey, { now })).toEqual(refused);
    expect(
      verifyStandardWebhook({ ...headers, 'webhook-id': 'msg_other' }, VECTOR.body, vectorKey, { now }),
    ).toEqual(refused);
    expect(verifyStandardWebhook(headers, VECTOR.body, TOKEN, { now })).toEqual(refused);
    expect(
      verifyStandardWebhook({ ...headers, 'webhook-signature': 'v1,' }, VECTOR.body, vectorKey, { now }),
    ).toEqual(refused);
  });

  it('refuses a timestamp outside the tolerance, either way', () => {
    const outside = { ok: false, reason: 'webhook-timestamp is outside the tolerance' };
    expect(
      verifyStandardWebhook(headers, VECTOR.body, vectorKey, { now: at(VECTOR.timestamp + 300) }),
    ).toEqual({
      ok: true,
    });
    expect(
      verifyStandardWebhook(headers, VECTOR.body, vectorKey, { now: at(VECTOR.timestamp + 301) }),
    ).toEqual(outside);
    expect(
      verifyStandardWebhook(headers, VECTOR.body, vectorKey, { now: at(VECTOR.timestamp - 301) }),
    ).toEqual(outside);
    expect(
      verifyStandardWebhook(headers, VECTOR.body, vectorKey, {
        now: at(VECTOR.timestamp + 3600),
        toleranceSeconds: 3600,
      }),
    ).toEqual({ ok: true });
  });

  it('refuses missing or malformed headers', () => {
    expect(verifyStandardWebhook({}, VECTOR.body, vectorKey, { now })).toEqual({
      ok: false,
      reason: 'missing webhook headers',
    });
    expect(
      verifyStandardWebhook({ ...headers, 'webhook-timestamp': '1614265330.5' }, VECTOR.body, vectorKey, {
        now,
      }),
    ).toEqual({ ok: false, reason: 'invalid webhook-timestamp' });
  });
});

describe('signedRequestHeader', () => {
  it('is the API signature (§2) of the canonical body', () => {
    const body = '{"event":"open-round","payload":{"a":1}}';
    const header = signedRequestHeader(body, TOKEN);
    expect(header).toBe(createHmac('sha512', TOKEN).update(body).digest('hex'));
    expect(verifySignature(JSON.parse(body), TOKEN, header)).toBe(true);
  });
});
