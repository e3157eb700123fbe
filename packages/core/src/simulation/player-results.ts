import type { Ladder } from '../ladder/ladder-types.ts';
import { LEVEL_COUNT } from '../models.ts';
import type { Rng } from '../random/rng.ts';

/** What `pnpm ladder --simulate` and the sandbox use unless told otherwise, so both print the same figures. */
export const PLAYER_RESULTS_DEFAULTS = { cards: 100, trials: 10_000, seed: 1 } as const;

export const PLAYER_RESULTS_LIMITS = {
  cards: { min: 1, max: 10_000 },
  trials: { min: 100, max: 100_000 },
} as const;

/** The percentiles reported beside the median. */
export const REPORTED_PERCENTILES = [1, 5, 10, 25, 50, 75, 90, 95, 99] as const;

/**
 * How N cards bought in a row end for a player, over many simulated players.
 * Every amount is a net result (prizes won − money staked) in minor units: negative is a loss.
 */
export interface PlayerResults {
  cards: number;
  trials: number;
  /** cards × betPrice. */
  stake: number;
  /** Share of players who end with more than they staked. */
  aheadChance: number;
  /** Share of players who get at least their stake back. */
  evenOrAheadChance: number;
  /** Share of players who win nothing at all, exactly: (1 − hit rate)^cards. */
  noWinChance: number;
  /** The median net result. */
  median: number;
  /** The mean net result of the simulated players, rounded to the minor unit. */
  mean: number;
  /** The exact expected net result: cards × (Σ totalPrize / sampling − betPrice), rounded to the minor unit. */
  expected: number;
  worst: number;
  best: number;
  /** The REPORTED_PERCENTILES, nearest rank. */
  percentiles: Array<{ percent: number; net: number }>;
  /** quantiles[k] is the k-th percentile (nearest rank) for k = 0..100: the chart of the distribution. */
  quantiles: number[];
}

/**
 * Simulates `trials` players who each buy `cards` cards in a row. Each card is a ticket drawn with
 * the ladder's odds (independently: one player's cards are a tiny share of a pool of 100,001+).
 */
export function playerResults(ladder: Ladder, cards: number, trials: number, rng: Rng): PlayerResults {
  const problems = playerResultsProblems(cards, trials);
  if (problems.length > 0) throw new RangeError(problems.join('; '));
  const stake = cards * ladder.betPrice;
  if (!Number.isSafeInteger(cards * ladder.maxBetPrize) || !Number.isSafeInteger(trials * stake)) {
    throw new RangeError('cards × the top prize must stay a safe integer of minor units');
  }
  const draw = ticketSampler(ladder);
  const nets = new Float64Array(trials);
  let sum = 0;
  let ahead = 0;
  let evenOrAhead = 0;
  for (let trial = 0; trial < trials; trial++) {
    let won = 0;
    for (let card = 0; card < cards; card++) won += draw(rng);
    const net = won - stake;
    nets[trial] = net;
    sum += net;
    if (net > 0) ahead++;
    if (net >= 0) evenOrAhead++;
  }
  nets.sort();
  const rank = (percent: number) => nets[Math.max(0, Math.ceil((percent / 100) * trials) - 1)] as number;
  const quantiles = Array.from({ length: 101 }, (_, k) => (k === 0 ? (nets[0] as number) : rank(k)));
  const paid = ladder.levels.reduce((total, level) => total + BigInt(level.totalPrize), 0n);
  const sampling = BigInt(ladder.sampling);
  const winsExpected = (BigInt(cards) * paid * 2n + sampling) / (2n * sampling);
  return {
    cards,
    trials,
    stake,
    aheadChance: ahead / trials,
    evenOrAheadChance: evenOrAhead / trials,
    noWinChance: (1 - ladder.totalPrized / ladder.sampling) ** cards,
    median: rank(50),
    mean: Math.round(sum / trials),
    expected: Number(winsExpected) - stake,
    worst: nets[0] as number,
    best: nets[trials - 1] as number,
    percentiles: REPORTED_PERCENTILES.map((percent) => ({ percent, net: rank(percent) })),
    quantiles,
  };
}

/**
 * A draw of one ticket with the ladder's odds, returning its prize in minor units (0 for a loss):
 * a ticket number uniform in [0, sampling) from 53 random bits, read like the pool reads it
 * (level 1's winners first here; only the odds matter).
 */
export function ticketSampler(ladder: Ladder): (rng: Rng) => number {
  const ends = new Float64Array(LEVEL_COUNT);
  const prizes = new Float64Array(LEVEL_COUNT);
  let total = 0;
  ladder.levels.forEach((level, i) => {
    total += level.winners;
    ends[i] = total;
    prizes[i] = level.prize;
  });
  const sampling = ladder.sampling;
  return (rng) => {
    const ticket = uniform53(rng) % sampling;
    if (ticket >= total) return 0;
    let i = 0;
    while (ticket >= (ends[i] as number)) i++;
    return prizes[i] as number;
  };
}

/** An integer in [0, 2^53) from two draws; taken modulo the pool size its bias is below 2^-26. */
function uniform53(rng: Rng): number {
  return Math.floor(rng() * 2 ** 26) * 2 ** 27 + Math.floor(rng() * 2 ** 27);
}

/** What is wrong with a number of cards or trials, one sentence each (none when both are fine). */
export function playerResultsProblems(cards: number, trials: number): string[] {
  const problems: string[] = [];
  for (const [name, value] of [
    ['cards', cards],
    ['trials', trials],
  ] as const) {
    const { min, max } = PLAYER_RESULTS_LIMITS[name];
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(
        `${name} must be a whole number from ${min.toLocaleString('en')} to ${max.toLocaleString('en')}`,
      );
    }
  }
  return problems;
}
