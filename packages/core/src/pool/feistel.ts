/**
 * A keyed permutation of [0, domainSize): the order in which a pool's tickets are drawn.
 *
 * Why this construction: the pool must not be stored (up to 100,000,000 tickets), draws must be
 * fast in plain JS (≥ 5,000,000 per second) and anyone holding the published seed must be able to
 * re-derive the order. A balanced Feistel network with cycle-walking gives a permutation of any
 * size; its round functions are random tables filled from SHA-256, so each round is a
 * hash-derived pseudo-random function that costs one table lookup instead of one hash.
 *
 * Exact specification (third-party verifiers re-implement this):
 *
 *   bits = ceil(log2(domainSize)) (the smallest bits with 2^bits ≥ domainSize)
 *   h    = ceil(bits / 2)         (half width; the network permutes [0, 2^(2h)))
 *   R    = 8 rounds
 *
 *   Tables. For round r in 0..7, table T_r has 2^h entries. Blocks
 *     B(r, c) = SHA-256( seed (32 bytes)
 *                        ‖ UTF-8 "raspa-pool-v1" (13 bytes)
 *                        ‖ h as one byte
 *                        ‖ r as one byte
 *                        ‖ c as 4-byte big-endian unsigned integer )
 *   for c = 0, 1, 2, … are read as 16 big-endian 16-bit words each, concatenated, and
 *     T_r[j] = word_j AND (2^h − 1)      for j = 0 .. 2^h − 1
 *   (unused words of the last block are ignored). Masking is unbiased because 2^h divides 2^16.
 *
 *   Encryption of x in [0, 2^(2h)): L = x >> h, R = x AND (2^h − 1); for r = 0..7:
 *     (L, R) ← (R, L XOR T_r[R])
 *   and the result is (L << h) OR R (no final swap).
 *
 *   Cycle-walking: permute(x) for x in [0, domainSize) encrypts x, and re-encrypts the result
 *   while it is ≥ domainSize. This ends (x lies on its own cycle) and yields a bijection of
 *   [0, domainSize). Since 2^(2h) < 4 · domainSize, it takes under 4 encryptions on average.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

export const FEISTEL_ROUNDS = 8;
export const POOL_DOMAIN_LABEL = 'raspa-pool-v1';
export const SEED_BYTES = 32;

/** Keeps x = (L << h) | R inside JS's signed 32-bit bit operations (h ≤ 15). */
export const MAX_PERMUTATION_DOMAIN = 2 ** 30;

export interface Permutation {
  readonly domainSize: number;
  /** h: each Feistel half holds this many bits. */
  readonly halfBits: number;
  /** The R round tables back to back: entry j of round r is at (r << halfBits) | j. */
  readonly tables: Uint16Array;
}

/** h for a domain: half of the bits needed to number it, rounded up. */
export function halfBitsFor(domainSize: number): number {
  let bits = 0;
  while (2 ** bits < domainSize) bits++;
  return Math.max(1, Math.ceil(bits / 2));
}

/**
 * Exported for tests and verifiers: accepts any domainSize in [2, 2^30].
 * Pools go through createPool, which enforces the contract's sampling limits.
 */
export function createPermutation(seed: Uint8Array, domainSize: number): Permutation {
  if (!(seed instanceof Uint8Array) || seed.length !== SEED_BYTES) {
    throw new RangeError(`seed must be ${SEED_BYTES} bytes`);
  }
  if (!Number.isInteger(domainSize) || domainSize < 2 || domainSize > MAX_PERMUTATION_DOMAIN) {
    throw new RangeError(
      `permutation domain must be an integer in [2, ${MAX_PERMUTATION_DOMAIN}], got ${domainSize}`,
    );
  }
  const halfBits = halfBitsFor(domainSize);
  return { domainSize, halfBits, tables: deriveRoundTables(seed, halfBits) };
}

function deriveRoundTables(seed: Uint8Array, halfBits: number): Uint16Array {
  const size = 1 << halfBits;
  const mask = size - 1;
  const label = utf8ToBytes(POOL_DOMAIN_LABEL);
  // seed ‖ label ‖ h ‖ r ‖ counter(4, big-endian); only the last 5 bytes change.
  const message = new Uint8Array(SEED_BYTES + label.length + 6);
  message.set(seed, 0);
  message.set(label, SEED_BYTES);
  const hAt = SEED_BYTES + label.length;
  const view = new DataView(message.buffer);
  message[hAt] = halfBits;

  const tables = new Uint16Array(FEISTEL_ROUNDS * size);
  for (let round = 0; round < FEISTEL_ROUNDS; round++) {
    message[hAt + 1] = round;
    const base = round * size;
    for (let counter = 0, j = 0; j < size; counter++) {
      view.setUint32(hAt + 2, counter, false);
      const block = sha256(message);
      for (let w = 0; w < 32 && j < size; w += 2, j++) {
        tables[base + j] = (((block[w] as number) << 8) | (block[w + 1] as number)) & mask;
      }
    }
  }
  return tables;
}

/** The position in [0, domainSize) that x maps to. Caller guarantees 0 ≤ x < domainSize. */
export function permute(permutation: Permutation, x: number): number {
  const { tables, halfBits: h, domainSize } = permutation;
  const mask = (1 << h) - 1;
  const t1 = 1 << h;
  const t2 = 2 << h;
  const t3 = 3 << h;
  const t4 = 4 << h;
  const t5 = 5 << h;
  const t6 = 6 << h;
  const t7 = 7 << h;
  let value = x;
  do {
    // Unrolled: the 8 rounds (L, R) ← (R, L ^ T_r[R]), alternating which variable holds L.
    let l = value >>> h;
    let r = value & mask;
    l ^= tables[r] as number;
    r ^= tables[t1 | l] as number;
    l ^= tables[t2 | r] as number;
    r ^= tables[t3 | l] as number;
    l ^= tables[t4 | r] as number;
    r ^= tables[t5 | l] as number;
    l ^= tables[t6 | r] as number;
    r ^= tables[t7 | l] as number;
    value = (l << h) | r;
  } while (value >= domainSize);
  return value;
}
