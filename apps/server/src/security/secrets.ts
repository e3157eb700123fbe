import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/**
 * Secrets at rest. High-entropy tokens (apiKeys, access, reset, session and user tokens) are kept as
 * SHA-256 digests: a database leak does not reveal them, and lookup stays an index probe.
 * Secrets the service must use again (an operator's wallet token, a webhook's token) are sealed
 * with AES-256-GCM under the server key.
 */
export function digest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A random token of `bytes` bytes, base64url, optionally prefixed so people can tell kinds apart. */
export function newToken(random: (bytes: number) => Buffer, bytes = 32, prefix = ''): string {
  return prefix + random(bytes).toString('base64url');
}

export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
  /** The signatureToken of a token set, derived from its access token, so it is never stored. */
  signatureTokenFor(accessToken: string): string;
  /** A secret of its own for `purpose` (e.g. the captcha's HMAC keys), derived from the server key. */
  derivedSecret(purpose: string): string;
}

export function createSecretBox(key: Buffer, random: (bytes: number) => Buffer = randomBytes): SecretBox {
  if (key.length !== 32) throw new RangeError('the server key must be 32 bytes');
  const derivationKey = createHmac('sha256', key).update('raspa signature tokens v1').digest();
  return {
    seal(plain) {
      const iv = random(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `v1.${iv.toString('base64url')}.${body.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
    },
    open(sealed) {
      const [version, iv, body, tag] = sealed.split('.');
      if (version !== 'v1' || !iv || body === undefined || !tag) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
    signatureTokenFor(accessToken) {
      return createHmac('sha256', derivationKey).update(accessToken, 'utf8').digest('base64url');
    },
    derivedSecret(purpose) {
      // Its own HMAC label, so no derived secret can equal a signature token or another purpose's.
      return createHmac('sha256', key)
        .update(`raspa derived secret v1:${purpose}`, 'utf8')
        .digest('base64url');
    },
  };
}
