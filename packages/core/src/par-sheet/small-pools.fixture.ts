// Test support: small pools to count by hand, shared by the PAR sheet's tests (not exported).
import fc from 'fast-check';
import type { ParSheetPool } from './pool-moments.ts';

/**
 * A small pool built directly (the API's pools hold over 100,000 tickets): 1 to 4 levels with
 * rising prizes, at least one winner each, the rest of the up to 10 tickets losing.
 */
export const smallPool = fc
  .record({
    losers: fc.integer({ min: 0, max: 5 }),
    winners: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 4 }),
    steps: fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 4, maxLength: 4 }),
    betPrice: fc.integer({ min: 1, max: 500 }),
  })
  .map(({ losers, winners, steps, betPrice }): ParSheetPool => {
    let prize = 0;
    const levels = winners.map((count, i) => {
      prize += steps[i] ?? 1;
      return { level: i + 1, winners: count, prize };
    });
    return { sampling: losers + winners.reduce((a, b) => a + b, 0), betPrice, levels };
  });

/** A small pool and a number of cards from 1 to all of its tickets. */
export const poolAndCards = smallPool.chain((pool) =>
  fc.record({ pool: fc.constant(pool), cards: fc.integer({ min: 1, max: pool.sampling }) }),
);

/** Every ticket of the pool, one prize each (0 for a losing one). */
export function ticketsOf(pool: ParSheetPool): number[] {
  const tickets = pool.levels.flatMap((level) => Array<number>(level.winners).fill(level.prize));
  return [...tickets, ...Array<number>(pool.sampling - tickets.length).fill(0)];
}
