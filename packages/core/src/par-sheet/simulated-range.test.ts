import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildLadder } from '../ladder/build-ladder.ts';
import { exactRatio } from './exact-ratio.ts';
import { parSheet } from './par-sheet.ts';
import { poolMoments } from './pool-moments.ts';
import { normalRangeClamped, returnRange } from './return-range.ts';
import { SIMULATED_PLAYERS, simulatedReturnRange } from './simulated-range.ts';
import { poolAndCards, ticketsOf } from './small-pools.fixture.ts';

/** The return of every way of taking `cards` tickets of the pool, each equally likely. */
function everyReturn(tickets: readonly number[], cards: number, betPrice: number): number[] {
  const returns: number[] = [];
  for (let mask = 0; mask < 2 ** tickets.length; mask++) {
    const taken = tickets.filter((_, i) => (mask >> i) & 1);
    if (taken.length === cards) returns.push(taken.reduce((a, t) => a + t, 0) / (cards * betPrice));
  }
  return returns;
}

describe('simulatedReturnRange against every subset of a small pool', () => {
  it('puts each bound at its percentile of the exact distribution, within the simulation’s error', () => {
    fc.assert(
      fc.property(poolAndCards, ({ pool, cards }) => {
        const exact = everyReturn(ticketsOf(pool), cards, pool.betPrice);
        const below = (value: number) => exact.filter((r) => r < value).length / exact.length;
        const atMost = (value: number) => exact.filter((r) => r <= value).length / exact.length;
        const range = simulatedReturnRange(poolMoments(pool), cards);
        expect(range.method).toBe('simulated');
        const bounds: Array<[number, number]> = [
          [range.p99[0], 0.005],
          [range.p90[0], 0.05],
          [range.p90[1], 0.95],
          [range.p99[1], 0.995],
        ];
        for (const [value, share] of bounds) {
          // Nearest rank: at least `share` of players at or below, fewer than `share` strictly below;
          // five standard errors of a share among SIMULATED_PLAYERS (plus the values' rounding).
          const slack = 5 * Math.sqrt((share * (1 - share)) / SIMULATED_PLAYERS) + 1e-12;
          expect(exact).toContain(value);
          expect(atMost(value)).toBeGreaterThanOrEqual(share - slack);
          expect(below(value)).toBeLessThanOrEqual(share + slack);
        }
        expect(range.p99[0]).toBeLessThanOrEqual(range.p90[0]);
        expect(range.p90[1]).toBeLessThanOrEqual(range.p99[1]);
      }),
      { numRuns: 60 },
    );
  });

  it('gives a whole pool its RTP exactly, and the same range on every call', () => {
    const pool = { sampling: 9, betPrice: 3, levels: [{ level: 1, winners: 2, prize: 10 }] };
    const moments = poolMoments(pool);
    const rtp = exactRatio(20n, 27n);
    expect(simulatedReturnRange(moments, 9)).toMatchObject({ p90: [rtp, rtp], p99: [rtp, rtp] });
    expect(simulatedReturnRange(moments, 4)).toEqual(simulatedReturnRange(moments, 4));
    expect(() => simulatedReturnRange(moments, 10)).toThrow(RangeError);
  });
});

describe('the PAR sheet of a volatile game', () => {
  const built = buildLadder({
    gameModel: 'fera-sortuda',
    currency: 'BRL',
    rtp: 0.9,
    sampling: 1_000_000,
    prizedPercent: 0.3,
    betPrice: 2,
  });
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  const { ladder } = built;
  const moments = poolMoments(ladder);

  it('simulates the ranges whose normal shape reaches past what the cards can return, and computes the rest', () => {
    const sheet = parSheet(ladder);
    for (const range of sheet.ranges) {
      const clamped = normalRangeClamped(moments, sheet.rtp, range.cards);
      expect([range.cards, range.method]).toEqual([range.cards, clamped ? 'simulated' : 'normal-fpc']);
      if (!clamped) expect(range).toEqual(returnRange(moments, sheet.rtp, range.cards));
    }
    const short = sheet.ranges.find((range) => range.cards === 100);
    expect(short?.method).toBe('simulated');
    // The normal range of 100 cards starts at 0, where it was clamped.
    expect(returnRange(moments, sheet.rtp, 100).p90[0]).toBe(0);
  });
});
