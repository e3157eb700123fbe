/**
 * An anchor (contract §16): the signed root of a client's leaves since its previous anchor,
 * chained to it. `previous` is the hex SHA-256 of the previous anchor's canonical JSON (signature
 * included), 64 zeros for the first; `signature` is base64 Ed25519 over the canonical JSON of the
 * anchor without `signature`. Canonical JSON is the request signer's (§2, RFC 8785 for ordinary
 * JSON), so an auditor implements one serialisation.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { canonicalJson } from '../signer/canonical-json.ts';

export interface UnsignedAnchor {
  clientId: string;
  /** The client's anchors counted from 1, no gap. */
  seq: number;
  /** Leaves in the tree. */
  count: number;
  /** Hex Merkle tree hash of the leaves. */
  root: string;
  /** Hex SHA-256 of the previous anchor's canonical JSON; GENESIS_PREVIOUS for seq 1. */
  previous: string;
  /** ISO 8601 UTC time the anchor was written. */
  at: string;
  keyId: string;
}

export interface Anchor extends UnsignedAnchor {
  /** Base64 Ed25519 signature over canonicalJson(the anchor without signature). */
  signature: string;
}

export const GENESIS_PREVIOUS = '0'.repeat(64);

/** The anchor's fields in a fixed set: whatever else an object carries is not signed. */
export function unsignedAnchor(a: UnsignedAnchor): UnsignedAnchor {
  return {
    clientId: a.clientId,
    seq: a.seq,
    count: a.count,
    root: a.root,
    previous: a.previous,
    at: a.at,
    keyId: a.keyId,
  };
}

/** The string an anchor's signature covers. */
export const anchorSigningInput = (a: UnsignedAnchor): string => canonicalJson(unsignedAnchor(a));

/** What the next anchor's `previous` must be: SHA-256 of this one's canonical JSON, signature included. */
export function anchorHash(a: Anchor): string {
  const whole = { ...unsignedAnchor(a), signature: a.signature };
  return createHash('sha256').update(canonicalJson(whole), 'utf8').digest('hex');
}

/** An Ed25519 signing key: its private key, and the raw public key's base64 and key id. */
export interface AnchorSigningKey {
  keyId: string;
  /** Base64 of the raw 32-byte public key. */
  publicKey: string;
  privateKey: KeyObject;
}

/** A key's id: the first 16 hex digits of SHA-256 of the raw public key, so it names the key itself. */
export function keyIdOf(rawPublicKey: Uint8Array): string {
  return createHash('sha256').update(rawPublicKey).digest('hex').slice(0, 16);
}

/** The raw 32-byte public key of an Ed25519 key (its JWK `x`). */
function rawPublicKey(key: KeyObject): Buffer {
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  return Buffer.from(String(jwk.x), 'base64url');
}

/** PKCS#8 DER of an Ed25519 private key, up to its 32-byte seed (RFC 8410 §7). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** A signing key of an Ed25519 KeyObject. */
export function signingKeyOf(privateKey: KeyObject): AnchorSigningKey {
  const raw = rawPublicKey(privateKey);
  return { keyId: keyIdOf(raw), publicKey: raw.toString('base64'), privateKey };
}

/**
 * The signing key of a base64 raw 32-byte Ed25519 seed (AUDIT_SIGNING_KEY's form), or null when
 * the text is not one. Nothing here echoes the text: it is a secret.
 */
export function signingKeyFromSeed(base64Seed: string): AnchorSigningKey | null {
  const text = base64Seed.trim();
  if (!/^[A-Za-z0-9+/]{43}=$/.test(text)) return null;
  const seed = Buffer.from(text, 'base64');
  if (seed.length !== 32) return null;
  const der = Buffer.concat([PKCS8_ED25519_PREFIX, seed]);
  return signingKeyOf(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }));
}

/** The base64 seed of a signing key (what AUDIT_SIGNING_KEY holds). */
export function seedOf(key: AnchorSigningKey): string {
  return Buffer.from(String(key.privateKey.export({ format: 'jwk' }).d), 'base64url').toString('base64');
}

/** Whether `signature` (base64) is `publicKey`'s (base64 raw 32 bytes) Ed25519 signature of `a`. */
export function verifyAnchorSignature(a: Anchor, publicKey: string): boolean {
  const key = publicKeyObject(publicKey);
  if (!key || !/^[A-Za-z0-9+/]{86}==$/.test(a.signature)) return false;
  try {
    return verify(null, Buffer.from(anchorSigningInput(a), 'utf8'), key, Buffer.from(a.signature, 'base64'));
  } catch {
    return false;
  }
}

/** The KeyObject of a base64 raw 32-byte Ed25519 public key, or null. */
export function publicKeyObject(base64: string): KeyObject | null {
  if (!/^[A-Za-z0-9+/]{43}=$/.test(base64)) return null;
  try {
    return createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(base64, 'base64').toString('base64url') },
      format: 'jwk',
    });
  } catch {
    return null;
  }
}

/** Signs an anchor. */
export function signAnchor(a: UnsignedAnchor, key: AnchorSigningKey): Anchor {
  const signature = sign(null, Buffer.from(anchorSigningInput(a), 'utf8'), key.privateKey).toString('base64');
  return { ...unsignedAnchor(a), signature };
}
