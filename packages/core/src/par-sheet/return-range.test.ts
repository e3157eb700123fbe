import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactRatio } from './exact-ratio.ts';
import { poolMoments } from './pool-moments.ts';
import { achievableReturns, meanReturnVariance, returnRange, Z_90, Z_99 } from './return-range.ts';
import { poolAndCards, smallPool, ticketsOf } from './small-pools.fixture.ts';

/** Every way of taking `cards` tickets of the pool: each subset of that size, by bit mask. */
function subsetSums(tickets: readonly number[], cards: number): bigint[] {
  const sums: bigint[] = [];
  for (let mask = 0; mask < 2 ** tickets.length; mask++) {
    const taken = tickets.filter((_, i) => (mask >> i) & 1);
    if (taken.length === cards) sums.push(taken.reduce((a, t) => a + BigInt(t), 0n));
  }
  return sums;
}

/** The standard normal's Φ(z), by Simpson's rule over [0, z]: checks the z constants independently. */
function normalCdf(z: number): number {
  const steps = 20_000;
  const h = z / steps;
  const f = (x: number) => Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI);
  let sum = f(0) + f(z);
  for (let i = 1; i < steps; i++) sum += (i % 2 === 1 ? 4 : 2) * f(i * h);
  return 0.5 + (sum * h) / 3;
}

describe('the return after N cards drawn without replacement from a small pool', () => {
  it('has the variance of the finite-population correction, exactly, over every subset of N tickets', () => {
    fc.assert(
      fc.property(poolAndCards, ({ pool, cards }) => {
        const sums = subsetSums(ticketsOf(pool), cards);
        const count = BigInt(sums.length);
        const total = sums.reduce((a, s) => a + s, 0n);
        const squares = sums.reduce((a, s) => a + s * s, 0n);
        // Var(S / (n·b)) over the subsets = (C·ΣS² − (ΣS)²) / (C²·n²·b²).
        const scale = BigInt(cards * pool.betPrice);
        const brute = { numerator: count * squares - total * total, denominator: count ** 2n * scale ** 2n };
        const formula = meanReturnVariance(poolMoments(pool), cards);
        expect(formula.numerator * brute.denominator).toBe(brute.numerator * formula.denominator);
      }),
    );
  });

  it('keeps its ranges within what N tickets can return, the 99% around the 90%, centred on the RTP unless clamped', () => {
    fc.assert(
      fc.property(poolAndCards, ({ pool, cards }) => {
        const moments = poolMoments(pool);
        const sums = subsetSums(ticketsOf(pool), cards);
        const scale = BigInt(cards * pool.betPrice);
        const sorted = [...sums].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        const least = sorted[0] ?? 0n;
        const most = sorted.at(-1) ?? 0n;
        expect(achievableReturns(moments, cards)).toEqual([
          exactRatio(least, scale),
          exactRatio(most, scale),
        ]);
        const rtp = exactRatio(moments.paid, moments.tickets * moments.bet);
        const range = returnRange(moments, rtp, cards);
        const [low, high] = achievableReturns(moments, cards);
        expect(range.method).toBe('normal-fpc');
        expect(low).toBeLessThanOrEqual(range.p99[0]);
        expect(range.p99[0]).toBeLessThanOrEqual(range.p90[0]);
        expect(range.p90[0]).toBeLessThanOrEqual(rtp);
        expect(rtp).toBeLessThanOrEqual(range.p90[1]);
        expect(range.p90[1]).toBeLessThanOrEqual(range.p99[1]);
        expect(range.p99[1]).toBeLessThanOrEqual(high);
        const spread = Math.sqrt(
          exactRatio(
            meanReturnVariance(moments, cards).numerator,
            meanReturnVariance(moments, cards).denominator,
          ),
        );
        if (rtp - Z_99 * spread > low && rtp + Z_99 * spread < high) {
          expect(range.p99).toEqual([rtp - Z_99 * spread, rtp + Z_99 * spread]);
          expect(range.p90).toEqual([rtp - Z_90 * spread, rtp + Z_90 * spread]);
        }
        if (cards === pool.sampling) {
          // A whole pool returns the RTP exactly (docs/contract.md §5).
          expect(range.p90).toEqual([rtp, rtp]);
          expect(range.p99).toEqual([rtp, rtp]);
        }
      }),
    );
  });

  it('spreads less with every card more', () => {
    fc.assert(
      fc.property(smallPool, (pool) => {
        const moments = poolMoments(pool);
        const spreads = Array.from({ length: pool.sampling }, (_, i) => {
          const variance = meanReturnVariance(moments, i + 1);
          return exactRatio(variance.numerator, variance.denominator);
        });
        for (let i = 1; i < spreads.length; i++) {
          expect(spreads[i]).toBeLessThanOrEqual(spreads[i - 1] ?? Number.NaN);
        }
      }),
    );
  });

  it('uses the two-sided 90% and 99% points of the standard normal', () => {
    expect(normalCdf(Z_90)).toBeCloseTo(0.95, 9);
    expect(normalCdf(Z_99)).toBeCloseTo(0.995, 9);
  });
});
