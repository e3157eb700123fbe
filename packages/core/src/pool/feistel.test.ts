import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPermutation, halfBitsFor, type Permutation, permute } from './feistel.ts';

const seedOf = (n: number): Uint8Array => sha256(utf8ToBytes(`feistel test seed ${n}`));

/** Throws unless permute is a bijection of [0, domainSize); returns the order. */
function assertBijection(permutation: Permutation): Uint32Array {
  const n = permutation.domainSize;
  const hit = new Uint8Array(n);
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const t = permute(permutation, i);
    if (!(t >= 0 && t < n) || hit[t] === 1) throw new Error(`not a bijection at ${i} → ${t}`);
    hit[t] = 1;
    order[i] = t;
  }
  return order;
}

/** The derivation exactly as the spec comment in feistel.ts words it, written independently. */
function referencePermute(seed: Uint8Array, domainSize: number, x: number): number {
  let bits = 0;
  while (2 ** bits < domainSize) bits++;
  const h = Math.ceil(bits / 2);
  const tableEntry = (round: number, j: number): number => {
    const counter = Math.floor(j / 16);
    const message = new Uint8Array([
      ...seed,
      ...utf8ToBytes('raspa-pool-v1'),
      h,
      round,
      (counter >>> 24) & 255,
      (counter >>> 16) & 255,
      (counter >>> 8) & 255,
      counter & 255,
    ]);
    const block = sha256(message);
    const w = (j % 16) * 2;
    return ((block[w] as number) * 256 + (block[w + 1] as number)) % 2 ** h;
  };
  let value = x;
  do {
    let left = Math.floor(value / 2 ** h);
    let right = value % 2 ** h;
    for (let round = 0; round < 8; round++) {
      [left, right] = [right, left ^ tableEntry(round, right)];
    }
    value = left * 2 ** h + right;
  } while (value >= domainSize);
  return value;
}

describe('halfBitsFor', () => {
  it('splits the bits needed to number the domain, rounding up', () => {
    expect(halfBitsFor(2)).toBe(1);
    expect(halfBitsFor(100_001)).toBe(9); // 17 bits
    expect(halfBitsFor(131_072)).toBe(9); // exactly 2^17
    expect(halfBitsFor(131_073)).toBe(9); // 18 bits
    expect(halfBitsFor(100_000_000)).toBe(14); // 27 bits
  });
});

describe('createPermutation', () => {
  it.each([100_001, 131_072, 131_073, 262_144])('is a bijection of [0, %i)', (n) => {
    assertBijection(createPermutation(seedOf(n), n));
  });

  it('is a bijection for random larger domains', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100_001, max: 1_500_000 }), fc.nat(), (n, s) => {
        assertBijection(createPermutation(seedOf(s), n));
      }),
      { numRuns: 3 },
    );
  });

  it('is a bijection for any seed and any small domain', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 2, max: 5_000 }),
        (seed, n) => {
          assertBijection(createPermutation(seed, n));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('matches a straightforward implementation of the published derivation', () => {
    for (const n of [2, 3, 17, 1_000, 100_001, 100_000_000]) {
      const seed = seedOf(n);
      const permutation = createPermutation(seed, n);
      for (const x of [0, 1, n - 1, Math.floor(n / 2), Math.floor(n / 3)]) {
        expect(permute(permutation, x)).toBe(referencePermute(seed, n, x));
      }
    }
  });

  it('is deterministic: the same seed gives the same order', () => {
    const a = assertBijection(createPermutation(seedOf(7), 200_000));
    const b = assertBijection(createPermutation(seedOf(7), 200_000));
    expect(b.every((t, i) => t === a[i])).toBe(true);
  });

  it('gives unrelated orders for different seeds, even one bit apart', () => {
    const seed = seedOf(8);
    const flipped = seed.slice();
    flipped[31] = (flipped[31] as number) ^ 1;
    const n = 200_000;
    const a = assertBijection(createPermutation(seed, n));
    for (const other of [seedOf(9), flipped]) {
      const b = assertBijection(createPermutation(other, n));
      let same = 0;
      for (let i = 0; i < n; i++) if (a[i] === b[i]) same++;
      // Two independent random orders agree at about one position in expectation.
      expect(same).toBeLessThan(10);
    }
  });

  it('sends each element to each position equally often across seeds', () => {
    // 10 elements, 4,000 seeds: counts[x][π(x)] should all be near 400. For uniformly random
    // permutations the centred counts spread evenly over the (n − 1)² directions with zero row
    // and column sums, each with variance seeds / (n − 1), so Pearson's statistic times
    // (n − 1) / n is about chi-square with (10 − 1)² = 81 degrees of freedom.
    // 99.9% critical value: 126.08 (scipy.stats.chi2.ppf(0.999, 81)).
    const n = 10;
    const seeds = 4_000;
    const counts = new Float64Array(n * n);
    for (let s = 0; s < seeds; s++) {
      const permutation = createPermutation(seedOf(1_000_000 + s), n);
      for (let x = 0; x < n; x++) {
        const cell = x * n + permute(permutation, x);
        counts[cell] = (counts[cell] as number) + 1;
      }
    }
    const expected = seeds / n;
    let chiSquare = 0;
    for (const observed of counts) chiSquare += (observed - expected) ** 2 / expected;
    chiSquare *= (n - 1) / n;
    expect(chiSquare).toBeLessThan(126.08);
  });

  it('rejects a bad seed or domain', () => {
    expect(() => createPermutation(new Uint8Array(31), 10)).toThrow(RangeError);
    expect(() => createPermutation(seedOf(1), 1)).toThrow(RangeError);
    expect(() => createPermutation(seedOf(1), 2.5)).toThrow(RangeError);
    expect(() => createPermutation(seedOf(1), 2 ** 30 + 1)).toThrow(RangeError);
  });
});
