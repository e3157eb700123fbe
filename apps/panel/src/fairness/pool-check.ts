import { type PoolVerification, verifyPool } from '@raspa/core';
import type { Game, Pool, RoundTicket } from '@raspa/server/wire';

/** The winners of each level, level 1 first, as the core's pool takes them (the API lists levels in any order). */
export const winnersOf = (game: Pick<Game, 'levels'>) =>
  [...game.levels].sort((a, b) => a.level - b.level).map((level) => level.winners);

/**
 * An ended pool checked with the core's verifier: its seed's SHA-256 is the commitment published when
 * it started (and the pool derives from it). Undefined while the pool runs (no seed yet).
 */
export function checkPool(pool: Pool, game: Pick<Game, 'levels'>): PoolVerification | undefined {
  if (!pool.seed) return undefined;
  return verifyPool(pool.seed, pool.commitment, pool.sampling, winnersOf(game));
}

/** checkPool, plus: the seed gives this round's draw the level it recorded. Undefined before the seed is out. */
export function checkTicket(
  ticket: RoundTicket,
  game: Pick<Game, 'levels' | 'sampling'>,
): PoolVerification | undefined {
  const { seed, commitment, drawIndex, level } = ticket;
  if (!seed || !commitment || drawIndex === null || level === null) return undefined;
  return verifyPool(seed, commitment, game.sampling, winnersOf(game), [{ drawIndex, level }]);
}
