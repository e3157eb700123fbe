import { toMajor } from '../money/money.ts';
import type { Ladder } from './ladder-types.ts';

/** The ladder figures of the spec's Game responses, in major units as they travel in JSON. */
export interface GameFigures {
  totalAmount: number;
  totalDistribuitionAmount: number;
  totalPrized: number;
  totalLevels: number;
  levels: Array<{ level: number; winners: number; totalPrize: number; prize: number; percentage: number }>;
  maxBetPrize: number;
}

/** The `data` of the spec's Game create response; id and version are null for a simulation. */
export interface GameCreateData extends Omit<GameFigures, 'maxBetPrize'> {
  id: string | null;
  version: number | null;
  gameModel: string;
  active: boolean;
}

export function gameFigures(ladder: Ladder): GameFigures {
  const major = (minor: number) => toMajor(minor, ladder.currency);
  return {
    totalAmount: major(ladder.totalAmount),
    totalDistribuitionAmount: major(ladder.totalDistribuitionAmount),
    totalPrized: ladder.totalPrized,
    totalLevels: ladder.totalLevels,
    levels: ladder.levels.map((level) => ({
      level: level.level,
      winners: level.winners,
      totalPrize: major(level.totalPrize),
      prize: major(level.prize),
      percentage: level.percentage,
    })),
    maxBetPrize: major(ladder.maxBetPrize),
  };
}

export function gameCreateData(
  ladder: Ladder,
  game: { id: string | null; version: number | null; active: boolean },
): GameCreateData {
  const { maxBetPrize: _top, ...figures } = gameFigures(ladder);
  return {
    id: game.id,
    version: game.version,
    gameModel: ladder.gameModel,
    active: game.active,
    ...figures,
  };
}
