import type { GameModel } from '../models.ts';

/** What a designer or integrator chooses; amounts in major units as they travel in JSON. */
export interface LadderInput {
  gameModel: GameModel;
  currency: string;
  rtp: number;
  sampling: number;
  prizedPercent: number;
  betPrice: number;
}

/** One rung of the ladder. Money fields are integers in the currency's minor unit. */
export interface LadderLevel {
  level: number;
  winners: number;
  /** prize × winners, exactly. */
  totalPrize: number;
  prize: number;
  /** totalPrize / totalDistribuitionAmount. A ratio, not money. */
  percentage: number;
}

/**
 * A computed ladder. Every money field is an integer count of minor units
 * (`gameInfoFromLadder` turns them into the spec's major-unit numbers).
 */
export interface Ladder {
  gameModel: GameModel;
  currency: string;
  /** rtp and prizedPercent as exact integers in millionths (0.9 → 900000). */
  rtpPpm: number;
  prizedPpm: number;
  sampling: number;
  betPrice: number;
  totalAmount: number;
  /** Spelled as the spec spells it. */
  totalDistribuitionAmount: number;
  totalPrized: number;
  totalLevels: number;
  /** Ordered by ascending level: level 1 has the smallest prize and the most winners, level 8 is the jackpot. */
  levels: LadderLevel[];
  maxBetPrize: number;
}

export interface LadderProblem {
  /** The input field at fault, or `ladder` when the combination as a whole cannot work. */
  field: keyof LadderInput | 'ladder';
  message: string;
}

export type LadderResult = { ok: true; ladder: Ladder } | { ok: false; problems: LadderProblem[] };
