/**
 * Merkle tree hashing of RFC 9162 §2.1 (RFC 6962 §2.1 is the same rule): a leaf hash is
 * SHA-256(0x00 ‖ leaf), a node SHA-256(0x01 ‖ left ‖ right), and a tree of n > 1 leaves splits at
 * k, the largest power of two below n, so an unbalanced tree never duplicates a leaf (the
 * Bitcoin-style duplication lets two leaf lists share a root). The audit path of §2.1.3.1 and its
 * verification of §2.1.3.2 are written from the RFC's text.
 *
 * Node-only (node:crypto's SHA-256): the verifier of a proof runs in a terminal, not in a page.
 */
import { createHash } from 'node:crypto';

/** A SHA-256 digest. */
export type Digest = Uint8Array;

const LEAF_PREFIX = Uint8Array.of(0x00);
const NODE_PREFIX = Uint8Array.of(0x01);

/** SHA-256(0x00 ‖ leaf): a leaf's hash, never equal to a node's (the prefixes differ). */
export function leafHash(leaf: Uint8Array | string): Digest {
  return createHash('sha256').update(LEAF_PREFIX).update(leaf).digest();
}

/** SHA-256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Digest, right: Digest): Digest {
  return createHash('sha256').update(NODE_PREFIX).update(left).update(right).digest();
}

/** The largest power of two strictly below n (n ≥ 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** The Merkle tree hash of the given leaf hashes; the empty tree's is SHA-256 of nothing. */
export function merkleRoot(leafHashes: readonly Digest[]): Digest {
  if (leafHashes.length === 0) return createHash('sha256').digest();
  return subtreeRoot(leafHashes, 0, leafHashes.length);
}

function subtreeRoot(hashes: readonly Digest[], from: number, to: number): Digest {
  const n = to - from;
  if (n === 1) return hashes[from] as Digest;
  const k = splitPoint(n);
  return nodeHash(subtreeRoot(hashes, from, from + k), subtreeRoot(hashes, from + k, to));
}

/** The audit path of leaf `index` (RFC 9162 §2.1.3.1): the sibling hashes from the leaf up. */
export function auditPath(leafHashes: readonly Digest[], index: number): Digest[] {
  if (!Number.isInteger(index) || index < 0 || index >= leafHashes.length) {
    throw new RangeError(`leaf index ${index} is outside a tree of ${leafHashes.length} leaves`);
  }
  const path: Digest[] = [];
  collectPath(leafHashes, 0, leafHashes.length, index, path);
  return path;
}

function collectPath(
  hashes: readonly Digest[],
  from: number,
  to: number,
  index: number,
  path: Digest[],
): void {
  const n = to - from;
  if (n === 1) return;
  const k = splitPoint(n);
  if (index < k) {
    collectPath(hashes, from, from + k, index, path);
    path.push(subtreeRoot(hashes, from + k, to));
  } else {
    collectPath(hashes, from + k, to, index - k, path);
    path.push(subtreeRoot(hashes, from, from + k));
  }
}

/**
 * The root a leaf hash and its audit path give for leaf `index` of a tree of `count` leaves
 * (RFC 9162 §2.1.3.2), or null when the path cannot belong to such a leaf (wrong length, index
 * out of range): the caller compares it with the signed root.
 */
export function rootFromPath(
  index: number,
  count: number,
  leaf: Digest,
  path: readonly Digest[],
): Digest | null {
  if (!Number.isInteger(index) || !Number.isInteger(count) || index < 0 || index >= count) return null;
  let fn = index;
  let sn = count - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : null;
}

/** Whether `path` proves leaf `index` of `count` leaves under `root`. */
export function verifyInclusion(
  index: number,
  count: number,
  leaf: Digest,
  path: readonly Digest[],
  root: Digest,
): boolean {
  const computed = rootFromPath(index, count, leaf, path);
  return computed !== null && sameBytes(computed, root);
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export const toHex = (d: Uint8Array): string => Buffer.from(d).toString('hex');

/** The bytes of a lowercase or uppercase hex string of 64 digits, or null. */
export function digestFromHex(hex: string): Digest | null {
  return /^[0-9a-fA-F]{64}$/.test(hex) ? Uint8Array.from(Buffer.from(hex, 'hex')) : null;
}
