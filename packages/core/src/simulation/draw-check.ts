/**
 * A check of the draw, not of the ladder (`pnpm simulate`, docs/games.md "Simulating the draw"):
 * `cards` tickets drawn one after another through the service's pool code (createPool, ticketAt),
 * pool after pool, each pool from a seed of the run's own. Every whole pool must hold exactly the
 * ladder's tickets of each level; since it does, its level frequencies carry no chance at all, so
 * the chi-square tests look where chance is left: how the levels spread along the draw order (a
 * shuffle that leaves winners bunched fails it), and the frequencies of a last, partly drawn pool.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Ladder } from '../ladder/ladder-types.ts';
import { LEVEL_COUNT } from '../models.ts';
import { SEED_BYTES } from '../pool/feistel.ts';
import { createPool, ticketAt } from '../pool/ticket-pool.ts';
import {
  type ChiSquareTest,
  chiSquareTest,
  goodnessOfFitStatistic,
  independenceStatistic,
} from '../statistics/chi-square.ts';

/** Parts of each pool's draw order whose level frequencies are compared. */
export const DRAW_ORDER_SEGMENTS = 10;
/** Pearson's rule of thumb: levels are merged until each cell expects at least this many tickets. */
export const MIN_EXPECTED_PER_CELL = 5;
/** A check fails below this p-value unless the run asks for another. */
export const DEFAULT_ALPHA = 0.001;
/** The most cards one run may draw. */
export const MAX_SIMULATED_CARDS = 1_000_000_000;

/** The level at each draw index of one pool: the service's pool code unless a test swaps it. */
export type PoolDrawer = (
  seed: Uint8Array,
  sampling: number,
  winners: readonly number[],
) => (index: number) => number;

/** The service's own draw: createPool and ticketAt, as its pool drawer uses them. */
export const servicePoolDrawer: PoolDrawer = (seed, sampling, winners) => {
  const pool = createPool(seed, sampling, winners);
  return (index) => ticketAt(pool, index);
};

export interface DrawCheckOptions {
  cards: number;
  /** The run's 32-byte seed; pool k's seed is `simulationPoolSeed(seed, k)`, never a real pool's. */
  seed: Uint8Array;
  alpha?: number;
  /** Called after every `progressEvery` cards drawn, with the cards drawn so far. */
  onProgress?: (drawn: number) => void;
  progressEvery?: number;
  drawer?: PoolDrawer;
}

export interface DrawCheckPool {
  number: number;
  drawn: number;
  /** Every ticket of the pool drawn. */
  whole: boolean;
  /** Tickets drawn of each level: levelCounts[0] losing … levelCounts[8] the top level. */
  levelCounts: number[];
  /** Whole: exactly the ladder's count of each level; partly drawn: no level beyond it. */
  countsHold: boolean;
}

export interface DrawCheck {
  cards: number;
  sampling: number;
  alpha: number;
  /** The tickets of each level in one pool (index 0 losing), from the ladder. */
  ladderCounts: number[];
  pools: DrawCheckPool[];
  /** Tickets drawn of each level over the whole run (index 0 losing). */
  levelTotals: number[];
  /** The chi-square of independence of level and draw-order segment, summed over the pools. */
  order: ChiSquareTest;
  /** The last pool's level frequencies against the ladder's, when it was drawn in part; else null. */
  partialPool: (ChiSquareTest & { number: number }) | null;
  ok: boolean;
}

/** Pool `number`'s seed in a run: SHA-256 of a label, the run's seed and the number (4 bytes, big-endian). */
export function simulationPoolSeed(runSeed: Uint8Array, number: number): Uint8Array {
  const index = new Uint8Array(4);
  new DataView(index.buffer).setUint32(0, number);
  return sha256(concatBytes(utf8ToBytes('raspa-simulate-pool-v1'), runSeed, index));
}

/** Draws `cards` tickets pool after pool and checks them (see the file's header). */
export function checkDraws(ladder: Ladder, options: DrawCheckOptions): DrawCheck {
  const { cards, seed, alpha = DEFAULT_ALPHA, onProgress, drawer = servicePoolDrawer } = options;
  if (!Number.isSafeInteger(cards) || cards < 1 || cards > MAX_SIMULATED_CARDS) {
    throw new RangeError(`cards must be a whole number from 1 to ${MAX_SIMULATED_CARDS}, got ${cards}`);
  }
  if (!(seed instanceof Uint8Array) || seed.length !== SEED_BYTES) {
    throw new RangeError(`the run's seed must be ${SEED_BYTES} bytes`);
  }
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be between 0 and 1, got ${alpha}`);
  const progressEvery = options.progressEvery ?? cards;
  if (!Number.isSafeInteger(progressEvery) || progressEvery < 1) {
    throw new RangeError(`progressEvery must be a positive whole number, got ${progressEvery}`);
  }
  const { sampling } = ladder;
  const winners = ladder.levels.map((level) => level.winners);
  const ladderCounts = [sampling - winners.reduce((sum, count) => sum + count, 0), ...winners];
  const pools: DrawCheckPool[] = [];
  const levelTotals = new Array<number>(LEVEL_COUNT + 1).fill(0);
  let order = { statistic: 0, df: 0 };
  let partial: { statistic: number; df: number; number: number } | null = null;
  let drawnSoFar = 0;

  for (let number = 1; drawnSoFar < cards; number++) {
    const drawn = Math.min(sampling, cards - drawnSoFar);
    const levelAt = drawer(simulationPoolSeed(seed, number), sampling, winners);
    // bySegment[s][level]: the pool's draw order cut into equal parts.
    const bySegment = Array.from({ length: DRAW_ORDER_SEGMENTS }, () =>
      new Array<number>(LEVEL_COUNT + 1).fill(0),
    );
    for (let index = 0; index < drawn; index++) {
      const segment = bySegment[Math.floor((index * DRAW_ORDER_SEGMENTS) / drawn)] as number[];
      const level = levelAt(index);
      segment[level] = (segment[level] ?? 0) + 1;
      drawnSoFar++;
      if (onProgress && drawnSoFar % progressEvery === 0) onProgress(drawnSoFar);
    }
    const levelCounts = ladderCounts.map((_, level) =>
      bySegment.reduce((sum, segment) => sum + (segment[level] ?? 0), 0),
    );
    // A level outside 0..8 shows as counts that do not add up to the tickets drawn.
    const accounted = levelCounts.reduce((sum, count) => sum + count, 0) === drawn;
    const whole = drawn === sampling;
    const countsHold =
      accounted &&
      levelCounts.every((count, level) =>
        whole ? count === ladderCounts[level] : count <= (ladderCounts[level] as number),
      );
    pools.push({ number, drawn, whole, levelCounts, countsHold });
    levelCounts.forEach((count, level) => {
      levelTotals[level] = (levelTotals[level] as number) + count;
    });

    const groups = mergedLevels(levelCounts, MIN_EXPECTED_PER_CELL * DRAW_ORDER_SEGMENTS);
    const table = bySegment.map((segment) =>
      groups.map((group) => group.reduce((sum, level) => sum + (segment[level] ?? 0), 0)),
    );
    const ofPool = independenceStatistic(table);
    order = { statistic: order.statistic + ofPool.statistic, df: order.df + ofPool.df };
    if (!whole) partial = { ...partialPoolFit(levelCounts, ladderCounts, sampling, drawn), number };
  }

  const orderTest = chiSquareTest(order.statistic, order.df);
  const partialPool = partial && { ...chiSquareTest(partial.statistic, partial.df), number: partial.number };
  return {
    cards,
    sampling,
    alpha,
    ladderCounts,
    pools,
    levelTotals,
    order: orderTest,
    partialPool,
    ok:
      pools.every((pool) => pool.countsHold) &&
      orderTest.pValue >= alpha &&
      (partialPool === null || partialPool.pValue >= alpha),
  };
}

/**
 * Levels grouped so each group holds at least `least` of `counts` (index = level): from the top
 * level down, a group closes once it reaches `least`; a short remainder joins the last group.
 * Rare levels are merged, not dropped, so every ticket counts.
 */
function mergedLevels(counts: readonly number[], least: number): number[][] {
  const groups: number[][] = [];
  let open: number[] = [];
  let held = 0;
  for (let level = counts.length - 1; level >= 0; level--) {
    open.push(level);
    held += counts[level] as number;
    if (held >= least) {
      groups.push(open);
      open = [];
      held = 0;
    }
  }
  if (open.length > 0) {
    const last = groups.at(-1);
    if (last) last.push(...open);
    else groups.push(open);
  }
  return groups;
}

/**
 * A partly drawn pool's level counts against the ladder's: `drawn` tickets without replacement
 * from `sampling`, so Pearson's statistic is scaled by (sampling − 1)/(sampling − drawn), the
 * finite-population correction, to follow χ²(groups − 1). Levels merge until each expects 5.
 */
function partialPoolFit(
  observed: readonly number[],
  ladderCounts: readonly number[],
  sampling: number,
  drawn: number,
): { statistic: number; df: number } {
  const expected = ladderCounts.map((count) => (count * drawn) / sampling);
  const groups = mergedLevels(expected, MIN_EXPECTED_PER_CELL).filter((group) =>
    group.some((level) => (ladderCounts[level] as number) > 0),
  );
  const sumOf = (values: readonly number[], group: number[]) =>
    group.reduce((sum, level) => sum + (values[level] as number), 0);
  if (groups.length < 2) return { statistic: 0, df: 0 };
  const fit = goodnessOfFitStatistic(
    groups.map((group) => sumOf(observed, group)),
    groups.map((group) => sumOf(expected, group)),
  );
  return { statistic: (fit.statistic * (sampling - 1)) / (sampling - drawn), df: fit.df };
}
