import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildLadder } from '../ladder/build-ladder.ts';
import type { Ladder } from '../ladder/ladder-types.ts';
import { GAME_MODELS } from '../models.ts';
import { type Rng, seededRng } from '../random/rng.ts';
import {
  PLAYER_RESULTS_LIMITS,
  playerResults,
  playerResultsProblems,
  REPORTED_PERCENTILES,
  ticketSampler,
} from './player-results.ts';

function ladderOf(input: Partial<Parameters<typeof buildLadder>[0]> = {}): Ladder {
  const result = buildLadder({
    gameModel: 'oxe-ganhei',
    currency: 'BRL',
    rtp: 0.9,
    sampling: 1_000_000,
    prizedPercent: 0.3,
    betPrice: 2,
    ...input,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.ladder;
}

const anyLadder = fc
  .record({
    gameModel: fc.constantFrom(...GAME_MODELS),
    currency: fc.constantFrom('BRL', 'JPY', 'KWD'),
    rtpPpm: fc.integer({ min: 500_000, max: 950_000 }),
    sampling: fc.oneof(fc.constantFrom(100_001, 100_000_000), fc.integer({ min: 100_001, max: 100_000_000 })),
    prizedPpm: fc.integer({ min: 200_000, max: 1_000_000 }),
    bet: fc.integer({ min: 1, max: 500 }),
  })
  .map(({ gameModel, currency, rtpPpm, sampling, prizedPpm, bet }) =>
    buildLadder({
      gameModel,
      currency,
      rtp: rtpPpm / 1e6,
      sampling,
      prizedPercent: prizedPpm / 1e6,
      betPrice: bet,
    }),
  )
  .filter((result) => result.ok)
  .map((result) => (result as { ok: true; ladder: Ladder }).ladder);

/** Exact mean and variance of one card's net result, from the ladder. */
function oneCard(ladder: Ladder): { mean: number; variance: number } {
  const prizeMean = ladder.levels.reduce((s, l) => s + l.prize * l.winners, 0) / ladder.sampling;
  const square = ladder.levels.reduce((s, l) => s + l.prize * l.prize * l.winners, 0) / ladder.sampling;
  return { mean: prizeMean - ladder.betPrice, variance: square - prizeMean * prizeMean };
}

/** An rng that makes ticketSampler read the ticket numbers given, in order. */
function ticketsRng(tickets: number[]): Rng {
  const values = tickets.flatMap((t) => [Math.floor(t / 2 ** 27) / 2 ** 26, (t % 2 ** 27) / 2 ** 27]);
  return () => {
    const value = values.shift();
    if (value === undefined) throw new Error('rng ran dry');
    return value;
  };
}

describe('ticketSampler', () => {
  it('reads ticket numbers like the pool: level 1 first, then up, the rest losing', () => {
    const ladder = ladderOf({ sampling: 100_001 });
    const ends: number[] = [];
    ladder.levels.reduce((sum, level) => {
      ends.push(sum + level.winners);
      return sum + level.winners;
    }, 0);
    const prize = (level: number) => ladder.levels[level - 1]?.prize;
    const cases: Array<[number, number | undefined]> = [
      [0, prize(1)],
      [(ends[0] ?? 0) - 1, prize(1)],
      [ends[0] ?? 0, prize(2)],
      [(ends[7] ?? 0) - 1, prize(8)],
      [ends[7] ?? 0, 0],
      [100_000, 0],
      [100_001, prize(1)], // 53-bit numbers wrap around the pool
    ];
    const draw = ticketSampler(ladder);
    const rng = ticketsRng(cases.map(([ticket]) => ticket));
    expect(cases.map(() => draw(rng))).toEqual(cases.map(([, expected]) => expected));
  });

  it('draws with the ladder odds', () => {
    const ladder = ladderOf({ gameModel: 'frevo-da-sorte', sampling: 200_000, prizedPercent: 0.4 });
    const draw = ticketSampler(ladder);
    const rng = seededRng(11);
    const n = 400_000;
    const counts = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      const prize = draw(rng);
      counts.set(prize, (counts.get(prize) ?? 0) + 1);
    }
    for (const level of [{ prize: 0, winners: ladder.sampling - ladder.totalPrized }, ...ladder.levels]) {
      const p = level.winners / ladder.sampling;
      const sigma = Math.sqrt(n * p * (1 - p));
      expect(Math.abs((counts.get(level.prize) ?? 0) - n * p)).toBeLessThan(5 * sigma + 1);
    }
  });
});

describe('playerResults', () => {
  it('orders every figure and keeps each inside what N cards can pay', () => {
    fc.assert(
      fc.property(
        anyLadder,
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 100, max: 600 }),
        fc.integer(),
        (ladder, cards, trials, seed) => {
          const results = playerResults(ladder, cards, trials, seededRng(seed));
          const stake = cards * ladder.betPrice;
          expect(results.stake).toBe(stake);
          expect(results.quantiles).toHaveLength(101);
          for (let k = 1; k <= 100; k++) {
            expect(results.quantiles[k]).toBeGreaterThanOrEqual(results.quantiles[k - 1] ?? Number.NaN);
          }
          expect(results.quantiles[0]).toBe(results.worst);
          expect(results.quantiles[100]).toBe(results.best);
          expect(results.median).toBe(results.quantiles[50]);
          expect(results.percentiles.map((p) => p.percent)).toEqual([...REPORTED_PERCENTILES]);
          for (const { percent, net } of results.percentiles) expect(net).toBe(results.quantiles[percent]);
          expect(results.worst).toBeGreaterThanOrEqual(-stake);
          expect(results.best).toBeLessThanOrEqual(cards * ladder.maxBetPrize - stake);
          for (const value of [...results.quantiles, results.mean, results.expected]) {
            expect(Number.isSafeInteger(value)).toBe(true);
          }
          expect(results.aheadChance).toBeLessThanOrEqual(results.evenOrAheadChance);
          expect(results.evenOrAheadChance).toBeLessThanOrEqual(1);
          expect(results.aheadChance >= 0.5).toBe(results.median > 0 || results.aheadChance === 0.5);
          // The expected result, exactly: cards × (Σ totalPrize / sampling) − stake, rounded half up.
          const paid = ladder.levels.reduce((s, l) => s + BigInt(l.totalPrize), 0n);
          const n = BigInt(ladder.sampling);
          expect(BigInt(results.expected + stake)).toBe((BigInt(cards) * paid * 2n + n) / (2n * n));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('with one card, every result is a loss of the ticket or one of the ladder prizes minus it', () => {
    fc.assert(
      fc.property(anyLadder, fc.integer(), (ladder, seed) => {
        const results = playerResults(ladder, 1, 500, seededRng(seed));
        const possible = new Set(
          [0, ...ladder.levels.map((level) => level.prize)].map((p) => p - ladder.betPrice),
        );
        for (const net of results.quantiles) expect(possible.has(net)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('converges on the ladder: mean, chance of no win and chance to end ahead', () => {
    const ladder = ladderOf({ gameModel: 'trem-de-ouro-v2' });
    const cards = 20;
    const trials = 50_000;
    const results = playerResults(ladder, cards, trials, seededRng(3));
    const { mean, variance } = oneCard(ladder);
    const sigmaOfMean = Math.sqrt((cards * variance) / trials);
    expect(Math.abs(results.mean - cards * mean)).toBeLessThan(5 * sigmaOfMean + 1);
    expect(Math.abs(results.expected - cards * mean)).toBeLessThanOrEqual(0.5);
    expect(results.noWinChance).toBeCloseTo(0.7 ** cards, 12);

    // Ahead after one card: the share of tickets whose prize beats the price.
    const one = playerResults(ladder, 1, trials, seededRng(4));
    const beating = ladder.levels.filter((l) => l.prize > ladder.betPrice).reduce((s, l) => s + l.winners, 0);
    const p = beating / ladder.sampling;
    expect(Math.abs(one.aheadChance - p)).toBeLessThan(5 * Math.sqrt((p * (1 - p)) / trials));
  });

  it('is the same for the same seed, and says what is wrong with its counts', () => {
    const ladder = ladderOf();
    expect(playerResults(ladder, 100, 1000, seededRng(1))).toEqual(
      playerResults(ladder, 100, 1000, seededRng(1)),
    );
    expect(playerResultsProblems(100, 10_000)).toEqual([]);
    expect(playerResultsProblems(0, 50)).toEqual([
      'cards must be a whole number from 1 to 10,000',
      'trials must be a whole number from 100 to 100,000',
    ]);
    expect(playerResultsProblems(1.5, PLAYER_RESULTS_LIMITS.trials.max + 1)).toHaveLength(2);
    expect(() => playerResults(ladder, 10_001, 1000, seededRng(1))).toThrow(
      new RangeError('cards must be a whole number from 1 to 10,000'),
    );
  });
});
