import { createHmac, timingSafeEqual } from 'node:crypto';
import { signCanonical } from '@raspa/core/signer';

/**
 * The two signatures every webhook delivery carries (docs/contract.md §7), both keyed with the webhook's
 * signatureToken as UTF-8 bytes and both over the exact bytes sent:
 * - `x-signed-request`: as the API's own requests (§2), HMAC-SHA512 hex of the canonical body;
 *   the dispatcher sends the canonical JSON itself, so the raw body IS the canonical form;
 * - `webhook-signature`: Standard Webhooks, `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`,
 *   so receivers can use its libraries with the secret `whsec_` + base64(signatureToken).
 */

/** `x-signed-request` of a body that is already canonical JSON. */
export function signedRequestHeader(canonicalBody: string, signatureToken: string): string {
  return signCanonical(canonicalBody, signatureToken);
}

/** A signatureToken (its UTF-8 bytes are the key), or raw key bytes (a decoded `whsec_` secret). */
export type StandardWebhookKey = string | Uint8Array;

const keyBytes = (key: StandardWebhookKey) => (typeof key === 'string' ? Buffer.from(key, 'utf8') : key);

function standardMac(id: string, timestamp: number, body: string, key: StandardWebhookKey): Buffer {
  return createHmac('sha256', keyBytes(key)).update(`${id}.${timestamp}.${body}`, 'utf8').digest();
}

/** `webhook-signature` for one attempt: `v1,<base64>`. */
export function standardWebhookSignature(
  id: string,
  timestamp: number,
  body: string,
  key: StandardWebhookKey,
): string {
  return `v1,${standardMac(id, timestamp, body, key).toString('base64')}`;
}

/** The secret the Standard Webhooks libraries take for a signatureToken. */
export const standardWebhookSecret = (signatureToken: string) =>
  `whsec_${Buffer.from(signatureToken, 'utf8').toString('base64')}`;

export interface StandardWebhookHeaders {
  'webhook-id'?: string | null | undefined;
  'webhook-timestamp'?: string | null | undefined;
  'webhook-signature'?: string | null | undefined;
}

export type WebhookVerdict = { ok: true } | { ok: false; reason: string };

/** Seconds a timestamp may be off from the receiver's clock (the libraries' default). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Checks a delivery as a receiver would: the timestamp within `toleranceSeconds` of `now`
 * (against replays), and one of the space-separated `v1,` signatures matching, compared in
 * constant time. Other versions in the header are ignored, as the specification asks.
 */
export function verifyStandardWebhook(
  headers: StandardWebhookHeaders,
  rawBody: string,
  key: StandardWebhookKey,
  options: { now?: Date; toleranceSeconds?: number } = {},
): WebhookVerdict {
  const id = headers['webhook-id'];
  const timestampText = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestampText || !signatures) return { ok: false, reason: 'missing webhook headers' };
  if (!/^\d{1,12}$/.test(timestampText)) return { ok: false, reason: 'invalid webhook-timestamp' };
  const timestamp = Number(timestampText);
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    return { ok: false, reason: 'webhook-timestamp is outside the tolerance' };
  }
  const expected = standardMac(id, timestamp, rawBody, key);
  for (const entry of signatures.split(' ')) {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
  }
  return { ok: false, reason: 'no matching signature' };
}
