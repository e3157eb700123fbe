import { canonicalJson } from './canonical-json.ts';

/**
 * The `x-signed-request` of a body, as the service checks it: lowercase hex HMAC-SHA512 of the
 * body's canonical JSON (`{}` for no body), keyed with the signatureToken (both UTF-8). WebCrypto
 * (browsers, and Node's global `crypto`), so the pages that sign (the sandbox, the panel) ship no
 * hashing library and the token never leaves the page. Browser-safe, unlike sign-request.ts.
 */
export async function signBodyWebCrypto(body: unknown, signatureToken: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(signatureToken),
    { name: 'HMAC', hash: 'SHA-512' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign(
    'HMAC',
    key,
    encoder.encode(body === null || body === undefined ? '{}' : canonicalJson(body)),
  );
  return Array.from(new Uint8Array(mac), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
