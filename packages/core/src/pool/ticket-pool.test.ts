import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import {
  createPool,
  poolCommitment,
  seedFromHex,
  seedToHex,
  type TicketPool,
  ticketAt,
  ticketNumberAt,
} from './ticket-pool.ts';

const seedOf = (label: string): Uint8Array => sha256(utf8ToBytes(label));

/** A realistic ladder for 1,000,000 tickets (winners[0] = level 1). */
const MILLION_WINNERS = [150_000, 80_000, 40_000, 20_000, 8_000, 1_500, 300, 1];
const SMALL_WINNERS = [15_000, 8_000, 4_000, 2_000, 800, 150, 30, 1];

function levelsOf(pool: TicketPool): Uint8Array {
  const levels = new Uint8Array(pool.sampling);
  for (let i = 0; i < pool.sampling; i++) levels[i] = ticketAt(pool, i);
  return levels;
}

function countLevels(levels: Uint8Array): number[] {
  const counts = new Array<number>(9).fill(0);
  for (const level of levels) counts[level] = (counts[level] as number) + 1;
  return counts;
}

describe('createPool', () => {
  it.each([
    [100_001, SMALL_WINNERS],
    [1_000_000, MILLION_WINNERS],
  ])('a full pool of %i tickets holds exactly the promised winners of each level', (sampling, winners) => {
    const counts = countLevels(levelsOf(createPool(seedOf(`counts ${sampling}`), sampling, winners)));
    const totalWinners = winners.reduce((a, b) => a + b, 0);
    expect(counts).toEqual([sampling - totalWinners, ...winners]);
  });

  it('gives the top prizes the smallest ticket numbers', () => {
    const pool = createPool(seedOf('mapping'), 100_001, [1, 1, 1, 1, 1, 1, 1, 2]);
    const levelOfTicket = new Map<number, number>();
    for (let i = 0; i < pool.sampling; i++) {
      const t = ticketNumberAt(pool, i);
      if (t < 10) levelOfTicket.set(t, ticketAt(pool, i));
    }
    expect([...levelOfTicket.entries()].sort((a, b) => a[0] - b[0]).map(([, level]) => level)).toEqual([
      8, 8, 7, 6, 5, 4, 3, 2, 1, 0,
    ]);
  });

  it.each(['chi-square seed A', 'chi-square seed B', 'chi-square seed C'])(
    'spreads the winners evenly over the draws (%s)',
    (label) => {
      // Winning draws of a 1,000,000 pool counted in 100 bins of 10,000 draw positions. If the w
      // winners sit at a uniformly random set of positions, the counts are multivariate
      // hypergeometric, and Pearson's statistic times (N − 1) / (N − w) (the finite-population
      // correction, as draws are without replacement) is about chi-square with 100 − 1 = 99
      // degrees of freedom. 99.9% critical value: 148.23 (scipy.stats.chi2.ppf(0.999, 99)).
      const levels = levelsOf(createPool(seedOf(label), 1_000_000, MILLION_WINNERS));
      const bins = new Float64Array(100);
      let winners = 0;
      for (let i = 0; i < levels.length; i++) {
        if (levels[i] !== 0) {
          const bin = Math.floor(i / 10_000);
          bins[bin] = (bins[bin] as number) + 1;
          winners++;
        }
      }
      const expected = winners / bins.length;
      let chiSquare = 0;
      for (const observed of bins) chiSquare += (observed - expected) ** 2 / expected;
      chiSquare *= (levels.length - 1) / (levels.length - winners);
      expect(chiSquare).toBeLessThan(148.23);
    },
  );

  it('is deterministic, and different seeds draw in different orders', () => {
    const a = createPool(seedOf('order A'), 1_000_000, MILLION_WINNERS);
    const again = createPool(seedOf('order A'), 1_000_000, MILLION_WINNERS);
    const b = createPool(seedOf('order B'), 1_000_000, MILLION_WINNERS);
    let sameAsAgain = 0;
    let sameAsB = 0;
    for (let i = 0; i < 10_000; i++) {
      const t = ticketNumberAt(a, i);
      if (t === ticketNumberAt(again, i)) sameAsAgain++;
      if (t === ticketNumberAt(b, i)) sameAsB++;
    }
    expect(sameAsAgain).toBe(10_000);
    expect(sameAsB).toBeLessThan(5);
  });

  it('rejects bad arguments with a RangeError', () => {
    const seed = seedOf('bad arguments');
    expect(() => createPool(new Uint8Array(16), 100_001, SMALL_WINNERS)).toThrow(/seed must be 32 bytes/);
    expect(() => createPool(seed, 100_000, SMALL_WINNERS)).toThrow(RangeError);
    expect(() => createPool(seed, 100_000_001, SMALL_WINNERS)).toThrow(RangeError);
    expect(() => createPool(seed, 100_001.5, SMALL_WINNERS)).toThrow(/sampling must be an integer/);
    expect(() => createPool(seed, 100_001, [1, 2, 3])).toThrow(/8 counts/);
    expect(() => createPool(seed, 100_001, [-1, 0, 0, 0, 0, 0, 0, 0])).toThrow(/level 1 must be/);
    expect(() => createPool(seed, 100_001, [0, 0, 0, 0, 0, 0, 0.5, 0])).toThrow(/level 7 must be/);
    expect(() => createPool(seed, 100_001, [50_000, 50_000, 2, 0, 0, 0, 0, 0])).toThrow(/more than sampling/);
    const pool = createPool(seed, 100_001, SMALL_WINNERS);
    for (const bad of [-1, 100_001, 1.5, Number.NaN]) {
      expect(() => ticketAt(pool, bad)).toThrow(/drawIndex must be/);
    }
  });

  it('accepts a pool made entirely of winners, and one with none', () => {
    const all = createPool(seedOf('all'), 100_001, [100_000, 0, 0, 0, 0, 0, 0, 1]);
    expect(countLevels(levelsOf(all))).toEqual([0, 100_000, 0, 0, 0, 0, 0, 0, 1]);
    const none = createPool(seedOf('none'), 100_001, [0, 0, 0, 0, 0, 0, 0, 0]);
    expect(countLevels(levelsOf(none))).toEqual([100_001, 0, 0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('commitment and seed hex', () => {
  it('commits to the SHA-256 of the seed bytes', () => {
    expect(poolCommitment(new Uint8Array(32))).toBe(
      '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925',
    );
    expect(createPool(new Uint8Array(32), 100_001, SMALL_WINNERS).commitment).toBe(
      '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925',
    );
  });

  it('round-trips a seed through hex and validates it', () => {
    const seed = seedOf('hex');
    const hex = seedToHex(seed);
    expect(hex).toMatch(/^[0-9a-f]{64}$/);
    expect(seedFromHex(hex)).toEqual(seed);
    expect(seedFromHex(hex.toUpperCase())).toEqual(seed);
    expect(() => seedFromHex(hex.slice(1))).toThrow(RangeError);
    expect(() => seedFromHex(`${hex.slice(1)}g`)).toThrow(RangeError);
    expect(() => seedFromHex(`${hex}00`)).toThrow(RangeError);
    expect(() => seedToHex(new Uint8Array(33))).toThrow(RangeError);
    expect(() => poolCommitment(new Uint8Array(0))).toThrow(RangeError);
  });
});
