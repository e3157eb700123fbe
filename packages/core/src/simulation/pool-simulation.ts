import type { Ladder } from '../ladder/ladder-types.ts';
import { LEVEL_COUNT } from '../models.ts';
import { createPool, type TicketPool, ticketAt } from '../pool/ticket-pool.ts';

/** Points of the running-RTP curve, evenly spaced over the tickets drawn. */
export const RTP_CURVE_POINTS = 200;
/** Draw positions of the top prize kept for the chart; a pool rarely holds more. */
export const MAX_LISTED_TOP_DRAWS = 1000;

export interface PoolSimulationOptions {
  /** How many tickets to draw, from the pool's first: the whole pool by default. */
  tickets?: number;
  /** Points of the running-RTP curve (default RTP_CURVE_POINTS). */
  curvePoints?: number;
}

/** The running RTP after `tickets` draws: money in minor units, rtp = paid / staked. */
export interface RtpPoint {
  tickets: number;
  paid: number;
  rtp: number;
}

/** Where a pool simulation stands: every figure covers the tickets drawn so far. Money in minor units. */
export interface PoolSimulationState {
  sampling: number;
  /** Tickets this run draws in all. */
  tickets: number;
  drawn: number;
  done: boolean;
  staked: number;
  paid: number;
  /** paid / staked; 0 before the first draw. */
  rtp: number;
  /** Winning tickets drawn per level: winners[0] is level 1 … winners[7] is level 8. */
  winners: number[];
  losers: number;
  /** The most losing tickets in a row so far. */
  longestLosingStreak: number;
  /** 0-based draw positions of the top prize (level 8), the first MAX_LISTED_TOP_DRAWS of them. */
  topPrizeDraws: number[];
  /** The running RTP at evenly spaced checkpoints reached so far. */
  curve: RtpPoint[];
}

/** A pool being played in its real draw order; resumable: call step() until done. */
export interface PoolSimulation {
  readonly tickets: number;
  readonly drawn: number;
  readonly done: boolean;
  /** Draws up to `count` more tickets and returns the state after them. */
  step(count: number): PoolSimulationState;
  state(): PoolSimulationState;
}

/**
 * Plays a ladder's ticket pool in the order the service would draw it (createPool with this seed,
 * ticketAt for each draw), so a whole pool pays exactly the ladder's totals.
 */
export function startPoolSimulation(
  ladder: Ladder,
  seed: Uint8Array,
  options: PoolSimulationOptions = {},
): PoolSimulation {
  const winnersPerLevel = ladder.levels.map((level) => level.winners);
  const pool: TicketPool = createPool(seed, ladder.sampling, winnersPerLevel);
  const tickets = options.tickets ?? ladder.sampling;
  if (!Number.isInteger(tickets) || tickets < 1 || tickets > ladder.sampling) {
    throw new RangeError(`tickets must be a whole number in [1, ${ladder.sampling}], got ${tickets}`);
  }
  const points = Math.min(options.curvePoints ?? RTP_CURVE_POINTS, tickets);
  if (!Number.isInteger(points) || points < 1) {
    throw new RangeError(`curvePoints must be a positive whole number, got ${options.curvePoints}`);
  }
  // prizeOf[level], level 0 = losing.
  const prizeOf = new Float64Array(LEVEL_COUNT + 1);
  for (const level of ladder.levels) prizeOf[level.level] = level.prize;
  const counts = new Float64Array(LEVEL_COUNT + 1);
  const topPrizeDraws: number[] = [];
  const curve: RtpPoint[] = [];
  const checkpoint = (k: number) => Math.ceil((k * tickets) / points);
  let nextPoint = 1;
  let drawn = 0;
  let paid = 0;
  let streak = 0;
  let longest = 0;

  /** Draws [drawn, to); no checkpoint lies strictly inside. */
  const drawTo = (to: number) => {
    for (let i = drawn; i < to; i++) {
      const level = ticketAt(pool, i);
      if (level === 0) {
        streak++;
        continue;
      }
      if (streak > longest) longest = streak;
      streak = 0;
      counts[level] = (counts[level] as number) + 1;
      paid += prizeOf[level] as number;
      if (level === LEVEL_COUNT && topPrizeDraws.length < MAX_LISTED_TOP_DRAWS) topPrizeDraws.push(i);
    }
    drawn = to;
  };

  const state = (): PoolSimulationState => {
    const staked = drawn * ladder.betPrice;
    const winners = Array.from(counts.subarray(1));
    const won = winners.reduce((sum, count) => sum + count, 0);
    return {
      sampling: ladder.sampling,
      tickets,
      drawn,
      done: drawn === tickets,
      staked,
      paid,
      rtp: staked === 0 ? 0 : paid / staked,
      winners,
      losers: drawn - won,
      longestLosingStreak: Math.max(longest, streak),
      topPrizeDraws: topPrizeDraws.slice(),
      curve: curve.slice(),
    };
  };

  return {
    tickets,
    get drawn() {
      return drawn;
    },
    get done() {
      return drawn === tickets;
    },
    step(count) {
      if (!Number.isInteger(count) || count < 1) {
        throw new RangeError(`step needs a positive whole number of tickets, got ${count}`);
      }
      const end = Math.min(tickets, drawn + count);
      while (drawn < end) {
        const mark = checkpoint(nextPoint);
        drawTo(Math.min(end, mark));
        if (drawn === mark) {
          curve.push({ tickets: drawn, paid, rtp: paid / (drawn * ladder.betPrice) });
          nextPoint++;
        }
      }
      return state();
    },
    state,
  };
}

export interface SimulatePoolOptions extends PoolSimulationOptions {
  /** Tickets drawn between two progress reports (default 1,000,000). */
  chunk?: number;
  onProgress?: (state: PoolSimulationState) => void;
}

/** Plays the pool to the end in one go, reporting progress after each chunk. */
export function simulatePool(
  ladder: Ladder,
  seed: Uint8Array,
  options: SimulatePoolOptions = {},
): PoolSimulationState {
  const { chunk = 1_000_000, onProgress, ...rest } = options;
  const run = startPoolSimulation(ladder, seed, rest);
  let state = run.state();
  while (!run.done) {
    state = run.step(chunk);
    onProgress?.(state);
  }
  return state;
}
