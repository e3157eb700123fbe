import type { GameModel } from '../models.ts';

/**
 * How a model spreads its winners and its money over the 8 levels.
 * `winnersPpm`: the share of winning tickets at each level, in millionths (sums to 1,000,000).
 * `multipliers`: each level's prize relative to level 1's, in hundredths (level 1 = 100).
 * The money a level gets is proportional to winners × multiplier. The jackpot's winner share is
 * kept ≤ 500 ppm so that the leftover of whole-unit rounding always fits the 0.001 RTP tolerance.
 */
export interface LadderShape {
  style: string;
  winnersPpm: readonly number[];
  multipliers: readonly number[];
}

export const LADDER_SHAPES: Record<GameModel, LadderShape> = {
  'oxe-ganhei': {
    style: 'balanced: every level pays about the same share of the money; top prize 2,500× the smallest',
    winnersPpm: [520_000, 250_000, 130_000, 60_000, 28_000, 9_500, 2_300, 200],
    multipliers: [100, 200, 400, 800, 2_000, 6_000, 25_000, 250_000],
  },
  'trem-de-ouro-v1': {
    style: 'flat: many small prizes, a modest top prize (40× the smallest); the gentlest ride',
    winnersPpm: [420_000, 260_000, 150_000, 90_000, 45_000, 24_500, 10_000, 500],
    multipliers: [100, 150, 200, 300, 500, 800, 1_500, 4_000],
  },
  'trem-de-ouro-v2': {
    style: 'steady: weight in the middle levels; top prize 500× the smallest',
    winnersPpm: [480_000, 240_000, 140_000, 80_000, 40_000, 15_000, 4_700, 300],
    multipliers: [100, 200, 300, 500, 1_000, 2_500, 10_000, 50_000],
  },
  'trem-de-ouro-v3': {
    style: 'express: jackpot-heavy; a rare top prize 50,000× the smallest takes the largest share',
    winnersPpm: [560_000, 250_000, 110_000, 50_000, 22_000, 6_500, 1_450, 50],
    multipliers: [100, 200, 500, 1_000, 2_500, 10_000, 100_000, 5_000_000],
  },
  'frevo-da-sorte': {
    style: 'festive and flat: prizes close together (top 12× the smallest), wins feel frequent',
    winnersPpm: [350_000, 250_000, 170_000, 110_000, 70_000, 35_000, 14_500, 500],
    multipliers: [100, 125, 150, 200, 300, 400, 600, 1_200],
  },
  'bumba-meu-green': {
    style: 'mid-heavy: the middle levels (10×–80× the smallest) carry most of the money',
    winnersPpm: [500_000, 260_000, 130_000, 65_000, 30_000, 11_000, 3_700, 300],
    multipliers: [100, 200, 400, 1_000, 3_000, 8_000, 20_000, 100_000],
  },
  'fera-sortuda': {
    style: 'wild: the most volatile; a very rare top prize 100,000× the smallest',
    winnersPpm: [600_000, 230_000, 100_000, 45_000, 18_000, 5_500, 1_480, 20],
    multipliers: [100, 300, 800, 2_000, 6_000, 25_000, 200_000, 10_000_000],
  },
};
