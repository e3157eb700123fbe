import type { Ladder } from './ladder-types.ts';

/** What a designer reads off a ladder. Ratios are plain numbers; money stays in minor units. */
export interface LadderStats {
  /** "1 in X" per level: sampling / winners. */
  levelOdds: number[];
  /** "1 in X" for any win. */
  overallOdds: number;
  /** Share of tickets that win. */
  hitRate: number;
  /** Σ totalPrize / totalAmount. */
  realisedRtp: number;
  /** Σ totalPrize, in minor units. */
  totalPaid: number;
  /** The average prize of a winning ticket, in minor units, rounded half up. */
  averageWin: number;
  /** The top prize as a multiple of the ticket price. */
  topPrizeMultiple: number;
}

export function ladderStats(ladder: Ladder): LadderStats {
  const totalPaid = ladder.levels.reduce((sum, level) => sum + BigInt(level.totalPrize), 0n);
  const winners = BigInt(ladder.totalPrized);
  return {
    levelOdds: ladder.levels.map((level) => ladder.sampling / level.winners),
    overallOdds: ladder.sampling / ladder.totalPrized,
    hitRate: ladder.totalPrized / ladder.sampling,
    realisedRtp: Number(totalPaid) / ladder.totalAmount,
    totalPaid: Number(totalPaid),
    averageWin: Number((totalPaid * 2n + winners) / (2n * winners)),
    topPrizeMultiple: ladder.maxBetPrize / ladder.betPrice,
  };
}
