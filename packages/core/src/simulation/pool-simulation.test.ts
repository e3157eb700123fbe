import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildLadder } from '../ladder/build-ladder.ts';
import { ladderStats } from '../ladder/ladder-stats.ts';
import type { Ladder } from '../ladder/ladder-types.ts';
import { GAME_MODELS } from '../models.ts';
import { createPool, ticketAt } from '../pool/ticket-pool.ts';
import {
  MAX_LISTED_TOP_DRAWS,
  type PoolSimulationState,
  RTP_CURVE_POINTS,
  simulatePool,
  startPoolSimulation,
} from './pool-simulation.ts';

function ladderOf(input: Partial<Parameters<typeof buildLadder>[0]> = {}): Ladder {
  const result = buildLadder({
    gameModel: 'oxe-ganhei',
    currency: 'BRL',
    rtp: 0.9,
    sampling: 100_001,
    prizedPercent: 0.3,
    betPrice: 2,
    ...input,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.ladder;
}

/** Small valid ladders (so whole pools play in milliseconds) over every model and the ratio bounds. */
const smallLadder = fc
  .record({
    gameModel: fc.constantFrom(...GAME_MODELS),
    rtpPpm: fc.integer({ min: 500_000, max: 950_000 }),
    sampling: fc.integer({ min: 100_001, max: 160_000 }),
    prizedPpm: fc.integer({ min: 200_000, max: 1_000_000 }),
    betCents: fc.integer({ min: 50, max: 10_000 }),
  })
  .map(({ gameModel, rtpPpm, sampling, prizedPpm, betCents }) =>
    buildLadder({
      gameModel,
      currency: 'BRL',
      rtp: rtpPpm / 1e6,
      sampling,
      prizedPercent: prizedPpm / 1e6,
      betPrice: betCents / 100,
    }),
  )
  .filter((result) => result.ok)
  .map((result) => (result as { ok: true; ladder: Ladder }).ladder);

const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 });

/** The same figures the slow, obvious way: ticket by ticket with ticketAt. */
function reference(ladder: Ladder, seed: Uint8Array, tickets: number): Omit<PoolSimulationState, 'curve'> {
  const pool = createPool(
    seed,
    ladder.sampling,
    ladder.levels.map((level) => level.winners),
  );
  const winners = Array<number>(8).fill(0);
  const topPrizeDraws: number[] = [];
  let paid = 0;
  let streak = 0;
  let longest = 0;
  for (let i = 0; i < tickets; i++) {
    const level = ticketAt(pool, i);
    if (level === 0) {
      streak++;
      longest = Math.max(longest, streak);
      continue;
    }
    streak = 0;
    winners[level - 1] = (winners[level - 1] ?? 0) + 1;
    paid += ladder.levels[level - 1]?.prize ?? Number.NaN;
    if (level === 8 && topPrizeDraws.length < MAX_LISTED_TOP_DRAWS) topPrizeDraws.push(i);
  }
  const staked = tickets * ladder.betPrice;
  return {
    sampling: ladder.sampling,
    tickets,
    drawn: tickets,
    done: true,
    staked,
    paid,
    rtp: paid / staked,
    winners,
    losers: tickets - winners.reduce((a, b) => a + b, 0),
    longestLosingStreak: longest,
    topPrizeDraws,
  };
}

describe('simulatePool', () => {
  it('a whole pool draws exactly the ladder: its winners, its payout, its realised RTP', () => {
    fc.assert(
      fc.property(smallLadder, seedArb, (ladder, seed) => {
        const state = simulatePool(ladder, seed, { chunk: 40_000 });
        const stats = ladderStats(ladder);
        expect(state.done).toBe(true);
        expect(state.drawn).toBe(ladder.sampling);
        expect(state.winners).toEqual(ladder.levels.map((level) => level.winners));
        expect(state.losers).toBe(ladder.sampling - ladder.totalPrized);
        expect(state.paid).toBe(stats.totalPaid);
        expect(state.staked).toBe(ladder.totalAmount);
        expect(state.rtp).toBe(stats.realisedRtp);
        expect(state.topPrizeDraws).toHaveLength(
          Math.min(ladder.levels[7]?.winners ?? 0, MAX_LISTED_TOP_DRAWS),
        );
        const last = state.curve.at(-1);
        expect(last).toEqual({ tickets: ladder.sampling, paid: stats.totalPaid, rtp: stats.realisedRtp });
      }),
      { numRuns: 12 },
    );
  });

  it('matches a ticket-by-ticket count with ticketAt, for any prefix of the pool', () => {
    fc.assert(
      fc.property(smallLadder, seedArb, fc.integer({ min: 1, max: 100_001 }), (ladder, seed, tickets) => {
        const { curve, ...state } = simulatePool(ladder, seed, { tickets });
        expect(state).toEqual(reference(ladder, seed, tickets));
        expect(curve.length).toBe(Math.min(RTP_CURVE_POINTS, tickets));
      }),
      { numRuns: 12 },
    );
  });

  it('samples the running RTP at evenly spaced checkpoints, each the exact figure at that draw', () => {
    const ladder = ladderOf({ gameModel: 'fera-sortuda', sampling: 123_457 });
    const seed = new Uint8Array(32).fill(7);
    const { curve } = simulatePool(ladder, seed);
    expect(curve).toHaveLength(RTP_CURVE_POINTS);
    curve.forEach((point, k) => {
      expect(point.tickets).toBe(Math.ceil(((k + 1) * ladder.sampling) / RTP_CURVE_POINTS));
      expect(point.rtp).toBe(point.paid / (point.tickets * ladder.betPrice));
    });
    const at = curve[49];
    if (!at) throw new Error('no point 50');
    expect(at.paid).toBe(reference(ladder, seed, at.tickets).paid);
  });

  it('is resumable: any split into steps gives the same states as one run', () => {
    fc.assert(
      fc.property(
        seedArb,
        fc.array(fc.integer({ min: 1, max: 30_000 }), { minLength: 1, maxLength: 12 }),
        (seed, steps) => {
          const ladder = ladderOf({ gameModel: 'trem-de-ouro-v3', prizedPercent: 0.25 });
          const whole = simulatePool(ladder, seed);
          const run = startPoolSimulation(ladder, seed);
          let drawn = 0;
          for (const count of steps) {
            const state = run.step(count);
            drawn = Math.min(ladder.sampling, drawn + count);
            expect(state.drawn).toBe(drawn);
            expect(state.curve).toEqual(whole.curve.filter((point) => point.tickets <= drawn));
          }
          while (!run.done) run.step(45_000);
          expect(run.state()).toEqual(whole);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('reports progress after each chunk and is the same for the same seed', () => {
    const ladder = ladderOf({ sampling: 250_000 });
    const seed = new Uint8Array(32).fill(1);
    const seen: number[] = [];
    const first = simulatePool(ladder, seed, {
      chunk: 100_000,
      onProgress: (state) => seen.push(state.drawn),
    });
    expect(seen).toEqual([100_000, 200_000, 250_000]);
    expect(simulatePool(ladder, seed)).toEqual(first);
    expect(simulatePool(ladder, new Uint8Array(32).fill(2)).curve).not.toEqual(first.curve);
  });

  it('starts empty and refuses nonsense', () => {
    const ladder = ladderOf();
    const seed = new Uint8Array(32);
    expect(startPoolSimulation(ladder, seed).state()).toMatchObject({
      drawn: 0,
      done: false,
      paid: 0,
      staked: 0,
      rtp: 0,
      curve: [],
      longestLosingStreak: 0,
    });
    expect(() => startPoolSimulation(ladder, seed, { tickets: 0 })).toThrow(RangeError);
    expect(() => startPoolSimulation(ladder, seed, { tickets: 100_002 })).toThrow(/tickets must be/);
    expect(() => startPoolSimulation(ladder, seed, { curvePoints: 0 })).toThrow(/curvePoints/);
    expect(() => startPoolSimulation(ladder, seed).step(0)).toThrow(/step needs/);
    expect(() => startPoolSimulation(ladder, new Uint8Array(31))).toThrow(/seed must be 32 bytes/);
  });
});
