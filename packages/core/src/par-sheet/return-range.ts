import { exactRatio } from './exact-ratio.ts';
import { cardVariance, type Fraction, type PoolMoments } from './pool-moments.ts';

/** Φ⁻¹(0.95) and Φ⁻¹(0.995): the half-widths, in standard deviations, of the central 90% and 99%. */
export const Z_90 = 1.6448536269514722;
export const Z_99 = 2.5758293035489004;

/** How the ranges are found: see `returnRange`. */
export const RANGE_METHOD = 'normal-fpc';
/** Where the normal shape fails: see `simulatedReturnRange` (simulated-range.ts). */
export const SIMULATED_METHOD = 'simulated';
export const RANGE_METHODS = [RANGE_METHOD, SIMULATED_METHOD] as const;

/** Where a player's return (prizes ÷ bets) lands after `cards` cards, in 90% and 99% of cases. */
export interface ReturnRange {
  cards: number;
  p90: [number, number];
  p99: [number, number];
  method: (typeof RANGE_METHODS)[number];
}

/**
 * The variance of the mean return of `cards` tickets drawn without replacement from one pool:
 * σ²/n × (N − n)/(N − 1), σ² one card's variance (the finite-population correction; a whole pool
 * returns the RTP exactly, so its variance is 0).
 */
export function meanReturnVariance(moments: PoolMoments, cards: number): Fraction {
  const n = BigInt(cards);
  const { tickets } = moments;
  if (!Number.isSafeInteger(cards) || n < 1n || n > tickets) {
    throw new RangeError(`cards must be a whole number from 1 to the pool's ${tickets} tickets`);
  }
  if (n === tickets) return { numerator: 0n, denominator: 1n };
  const card = cardVariance(moments);
  return {
    numerator: card.numerator * (tickets - n),
    denominator: card.denominator * n * (tickets - 1n),
  };
}

/**
 * The 90% and 99% ranges of the return after `cards` cards, by the normal approximation of the
 * mean of `cards` tickets drawn without replacement from one pool: RTP ± z × the standard
 * deviation of `meanReturnVariance`. A player's cards are a uniformly random subset of the pool's
 * tickets (the draw order is a secret random permutation), so mean and variance are exact; only
 * the normal shape is approximate, and it is poor for few cards and a rare top prize (the true
 * distribution is skewed: most players land below the RTP). Each bound is clamped to the returns
 * `cards` tickets of the pool can give at all.
 */
export function returnRange(moments: PoolMoments, rtp: number, cards: number): ReturnRange {
  const spread = Math.sqrt(ratioOf(meanReturnVariance(moments, cards)));
  const [lowest, highest] = achievableReturns(moments, cards);
  const within = (value: number) => Math.min(highest, Math.max(lowest, value));
  const around = (z: number): [number, number] => [within(rtp - z * spread), within(rtp + z * spread)];
  return { cards, p90: around(Z_90), p99: around(Z_99), method: RANGE_METHOD };
}

/**
 * Whether the normal 99% range of `cards` cards reaches past what that many tickets can return:
 * the sign that the true return is too skewed for the normal shape (a rare, large top prize), where
 * the PAR sheet simulates instead.
 */
export function normalRangeClamped(moments: PoolMoments, rtp: number, cards: number): boolean {
  const spread = Math.sqrt(ratioOf(meanReturnVariance(moments, cards)));
  const [lowest, highest] = achievableReturns(moments, cards);
  return rtp - Z_99 * spread < lowest || rtp + Z_99 * spread > highest;
}

/** The lowest and highest return `cards` tickets of the pool can give: its smallest or largest prizes. */
export function achievableReturns(moments: PoolMoments, cards: number): [number, number] {
  const n = BigInt(cards);
  const take = (prizes: PoolMoments['prizes']) => {
    let left = n;
    let total = 0n;
    for (const { prize, count } of prizes) {
      const taken = count < left ? count : left;
      total += taken * prize;
      left -= taken;
    }
    return exactRatio(total, n * moments.bet);
  };
  return [take(moments.prizes), take([...moments.prizes].reverse())];
}

const ratioOf = (fraction: Fraction) => exactRatio(fraction.numerator, fraction.denominator);
