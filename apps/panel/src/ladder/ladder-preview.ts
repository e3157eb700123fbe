import {
  buildLadder,
  type Ladder,
  type LadderInput,
  type LadderProblem,
  type LadderStats,
  ladderStats,
} from '@raspa/core';

export type Volatility = 'low' | 'medium' | 'high' | 'extreme';

export type LadderPreview =
  | { ok: true; ladder: Ladder; stats: LadderStats; spread: number; volatility: Volatility }
  | { ok: false; problems: LadderProblem[] };

/**
 * The standard deviation of one card's prize, in ticket prices: how far a card's outcome strays from
 * the average (the RTP). Flat ladders stay near 1; a rare huge jackpot pushes it into the tens.
 * Computed from the ladder's exact winners and prizes (minor units), with no sampling.
 */
export function payoutSpread(ladder: Ladder): number {
  let mean = 0;
  let square = 0;
  for (const level of ladder.levels) {
    const chance = level.winners / ladder.sampling;
    const multiple = level.prize / ladder.betPrice;
    mean += chance * multiple;
    square += chance * multiple * multiple;
  }
  return Math.sqrt(Math.max(0, square - mean * mean));
}

/** Bands of payoutSpread, chosen so the seven models spread over them (see the test). */
export function volatilityOf(spread: number): Volatility {
  if (spread < 3) return 'low';
  if (spread < 10) return 'medium';
  if (spread < 30) return 'high';
  return 'extreme';
}

/** What the game form shows while the user types: the core's ladder and its figures, or why there is none. */
export function previewLadder(input: LadderInput): LadderPreview {
  const result = buildLadder(input);
  if (!result.ok) return result;
  const spread = payoutSpread(result.ladder);
  return {
    ok: true,
    ladder: result.ladder,
    stats: ladderStats(result.ladder),
    spread,
    volatility: volatilityOf(spread),
  };
}
