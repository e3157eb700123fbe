import { type Rng, seededRng } from '../random/rng.ts';
import { hypergeometricSampler } from '../statistics/hypergeometric.ts';
import type { PoolMoments } from './pool-moments.ts';
import { type ReturnRange, SIMULATED_METHOD } from './return-range.ts';

/** Players simulated for one range, and the seed of their draws: the same sheet every time. */
export const SIMULATED_PLAYERS = 10_000;
export const SIMULATION_SEED = 1;

/**
 * The 90% and 99% ranges of the return after `cards` cards, simulated (`method: "simulated"`):
 * `players` players each take `cards` tickets without replacement from one pool, drawn as counts
 * per prize (a multivariate hypergeometric, one prize after another, each count exact in law), and
 * the ranges are the players' 5th–95th and 0.5th–99.5th percentiles (nearest rank). For the
 * volatile games whose skewed return the normal shape gets wrong (docs/games.md, PAR sheet); seeded,
 * so a sheet is the same on every call.
 */
export function simulatedReturnRange(
  moments: PoolMoments,
  cards: number,
  players = SIMULATED_PLAYERS,
  rng: Rng = seededRng(SIMULATION_SEED),
): ReturnRange {
  const tickets = Number(moments.tickets);
  if (!Number.isSafeInteger(cards) || cards < 1 || cards > tickets) {
    throw new RangeError(`cards must be a whole number from 1 to the pool's ${tickets} tickets`);
  }
  if (!Number.isSafeInteger(players) || players < 1) throw new RangeError('players must be 1 or more');
  // The largest prizes first: their counts are the rare ones, sampled while many draws are left.
  const prizes = [...moments.prizes].reverse().map(({ prize, count }, i, all) => {
    const left = all.slice(i).reduce((sum, each) => sum + Number(each.count), 0);
    return { prize: Number(prize), count: Number(count), sample: hypergeometricSampler(left, Number(count)) };
  });
  const stake = cards * Number(moments.bet);
  const returns = new Float64Array(players);
  for (let player = 0; player < players; player++) {
    let drawsLeft = cards;
    let paid = 0;
    for (let i = 0; i < prizes.length - 1 && drawsLeft > 0; i++) {
      const { prize, sample } = prizes[i] as (typeof prizes)[number];
      const taken = sample(rng, drawsLeft);
      paid += taken * prize;
      drawsLeft -= taken;
    }
    paid += drawsLeft * (prizes.at(-1)?.prize ?? 0);
    returns[player] = paid / stake;
  }
  returns.sort();
  const at = (share: number) => returns[Math.max(0, Math.ceil(share * players) - 1)] as number;
  return { cards, p90: [at(0.05), at(0.95)], p99: [at(0.005), at(0.995)], method: SIMULATED_METHOD };
}
