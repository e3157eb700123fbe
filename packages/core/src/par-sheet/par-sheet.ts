import { exactRatio } from './exact-ratio.ts';
import { cardVariance, type ParSheetPool, poolMoments } from './pool-moments.ts';
import { normalRangeClamped, type ReturnRange, returnRange } from './return-range.ts';
import { simulatedReturnRange } from './simulated-range.ts';

/** The numbers of cards a PAR sheet gives the player's return ranges for (docs/contract.md §17). */
export const PAR_SHEET_CARDS = [100, 1_000, 10_000, 100_000] as const;

/** One prize level of a PAR sheet. `prize` is in minor units; the rest are ratios. */
export interface ParSheetLevel {
  level: number;
  /** The prize of one winning ticket, minor units. */
  prize: number;
  /** prize / betPrice. */
  multiple: number;
  winners: number;
  /** winners / sampling. */
  probability: number;
  /** sampling / winners: "1 in N". */
  oneIn: number;
  /** winners × prize / (sampling × betPrice): the level's part of the RTP (the levels' sum to `rtp`). */
  rtpShare: number;
}

/**
 * A game version's maths on one sheet, exact from its ladder and pool. Money stays in minor
 * units; every ratio is its exact fraction rounded once to the nearest double (`exactRatio`), and
 * `stdDev` is the square root of the variance so rounded.
 */
export interface ParSheet {
  sampling: number;
  /** Minor units. */
  betPrice: number;
  /** Σ totalPrize / (sampling × betPrice): what a whole pool returns. */
  rtp: number;
  /** Σ winners / sampling. */
  hitFrequency: number;
  /** The standard deviation of one card's return (prize ÷ betPrice) over the pool's tickets. */
  stdDev: number;
  /** The largest prize ÷ betPrice. */
  maxWinMultiple: number;
  levels: ParSheetLevel[];
  ranges: ReturnRange[];
}

/** The PAR sheet of a pool (a `Ladder` is one), with the return ranges after each of `cards` cards. */
export function parSheet(pool: ParSheetPool, cards: readonly number[] = PAR_SHEET_CARDS): ParSheet {
  const moments = poolMoments(pool);
  const { tickets, bet, winners, paid } = moments;
  const rtp = exactRatio(paid, tickets * bet);
  const variance = cardVariance(moments);
  const top = pool.levels.reduce((max, level) => Math.max(max, level.prize), 0);
  return {
    sampling: pool.sampling,
    betPrice: pool.betPrice,
    rtp,
    hitFrequency: exactRatio(winners, tickets),
    stdDev: Math.sqrt(exactRatio(variance.numerator, variance.denominator)),
    maxWinMultiple: exactRatio(BigInt(top), bet),
    levels: pool.levels.map(({ level, winners: count, prize }) => ({
      level,
      prize,
      multiple: exactRatio(BigInt(prize), bet),
      winners: count,
      probability: exactRatio(BigInt(count), tickets),
      oneIn: exactRatio(tickets, BigInt(count)),
      rtpShare: exactRatio(BigInt(count) * BigInt(prize), tickets * bet),
    })),
    // The normal shape where it holds; simulated where it reaches past what the cards can return.
    ranges: cards.map((n) =>
      normalRangeClamped(moments, rtp, n) ? simulatedReturnRange(moments, n) : returnRange(moments, rtp, n),
    ),
  };
}
