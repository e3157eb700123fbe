import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildLadder } from '../ladder/build-ladder.ts';
import { ladderStats } from '../ladder/ladder-stats.ts';
import { GAME_MODELS } from '../models.ts';
import { exactRatio } from './exact-ratio.ts';
import { PAR_SHEET_CARDS, parSheet } from './par-sheet.ts';
import { poolMoments } from './pool-moments.ts';
import { achievableReturns } from './return-range.ts';
import { smallPool, ticketsOf } from './small-pools.fixture.ts';

describe('parSheet against a count of every ticket of a small pool', () => {
  it('gives each level’s tickets, odds and share, the RTP, the hit frequency and the top multiple', () => {
    fc.assert(
      fc.property(smallPool, (pool) => {
        const tickets = ticketsOf(pool);
        const n = tickets.length;
        const b = pool.betPrice;
        const sheet = parSheet(pool, []);
        expect(sheet.sampling).toBe(n);
        expect(sheet.betPrice).toBe(b);
        for (const level of sheet.levels) {
          const count = tickets.filter((prize) => prize === level.prize).length;
          expect(level.winners).toBe(count);
          // Small integers: a double division is the exact fraction rounded once, as the sheet's.
          expect(level.probability).toBe(count / n);
          expect(level.oneIn).toBe(n / count);
          expect(level.multiple).toBe(level.prize / b);
          expect(level.rtpShare).toBe((count * level.prize) / (n * b));
        }
        const paid = tickets.reduce((a, t) => a + t, 0);
        expect(sheet.rtp).toBe(paid / (n * b));
        expect(sheet.hitFrequency).toBe(tickets.filter((t) => t > 0).length / n);
        expect(sheet.maxWinMultiple).toBe(Math.max(...tickets) / b);
      }),
    );
  });

  it('gives the standard deviation of one card’s return over the pool’s tickets', () => {
    fc.assert(
      fc.property(smallPool, (pool) => {
        const tickets = ticketsOf(pool).map(BigInt);
        const n = BigInt(tickets.length);
        const paid = tickets.reduce((a, t) => a + t, 0n);
        // Σ (t/b − mean)² / N, as one fraction: Σ (N·t − Σt)² / (N³·b²).
        const squares = tickets.reduce((a, t) => a + (n * t - paid) ** 2n, 0n);
        const variance = exactRatio(squares, n ** 3n * BigInt(pool.betPrice) ** 2n);
        expect(parSheet(pool, []).stdDev).toBe(Math.sqrt(variance));
      }),
    );
  });
});

describe('parSheet of the ladders the API builds', () => {
  const ladders = GAME_MODELS.flatMap((gameModel) =>
    [
      { currency: 'BRL', rtp: 0.9, sampling: 1_000_000, prizedPercent: 0.3, betPrice: 2 },
      { currency: 'JPY', rtp: 0.5, sampling: 100_001, prizedPercent: 1, betPrice: 300 },
      { currency: 'KWD', rtp: 0.95, sampling: 100_000_000, prizedPercent: 0.2, betPrice: 0.25 },
    ].map((input) => {
      const built = buildLadder({ gameModel, ...input });
      if (!built.ok) throw new Error(JSON.stringify(built.problems));
      return built.ladder;
    }),
  );

  it('agrees with the ladder and its figures (ladderStats, which the sandbox’s table shows)', () => {
    for (const ladder of ladders) {
      const sheet = parSheet(ladder);
      const stats = ladderStats(ladder);
      expect(sheet.levels.map(({ level, winners, prize }) => ({ level, winners, prize }))).toEqual(
        ladder.levels.map(({ level, winners, totalPrize }) => ({
          level,
          winners,
          prize: totalPrize / winners,
        })),
      );
      expect(sheet.levels.map((level) => level.oneIn)).toEqual(stats.levelOdds);
      expect(sheet.hitFrequency).toBe(stats.hitRate);
      expect(sheet.rtp).toBe(stats.realisedRtp);
      expect(Math.abs(sheet.rtp - ladder.rtpPpm / 1e6)).toBeLessThanOrEqual(0.001);
      expect(sheet.maxWinMultiple).toBe(stats.topPrizeMultiple);
      const shares = sheet.levels.reduce((sum, level) => sum + level.rtpShare, 0);
      expect(shares).toBeCloseTo(sheet.rtp, 12);
      for (const [i, level] of sheet.levels.entries()) {
        // The ladder's percentage is the share of the prize budget, to 6 decimals.
        const percentage = (level.rtpShare * ladder.totalAmount) / ladder.totalDistribuitionAmount;
        expect(Math.abs(percentage - (ladder.levels[i]?.percentage ?? Number.NaN))).toBeLessThan(6e-7);
      }
      expect(sheet.ranges.map((range) => range.cards)).toEqual([...PAR_SHEET_CARDS]);
    }
  });

  it('narrows the computed ranges as cards add up, and keeps every range within what the cards can return', () => {
    for (const ladder of ladders) {
      const sheet = parSheet(ladder);
      // A simulated range may widen with more cards: more players reach a rare top prize. The
      // computed ones follow the variance, which falls with every card.
      const widths = sheet.ranges
        .filter((range) => range.method === 'normal-fpc')
        .map(({ p99 }) => p99[1] - p99[0]);
      for (let i = 1; i < widths.length; i++) {
        expect(widths[i]).toBeLessThan(widths[i - 1] ?? Number.NaN);
      }
      for (const { cards, p90, p99 } of sheet.ranges) {
        const [lowest, highest] = achievableReturns(poolMoments(ladder), cards);
        expect([lowest, p99[0], p90[0], p90[1], p99[1], highest]).toEqual(
          [lowest, p99[0], p90[0], p90[1], p99[1], highest].sort((a, b) => a - b),
        );
      }
    }
  });
});

describe('parSheet refuses what is not a pool', () => {
  const pool = { sampling: 4, betPrice: 2, levels: [{ level: 1, winners: 2, prize: 3 }] };
  it.each([
    ['more winners than tickets', { ...pool, sampling: 1 }],
    ['a level without winners', { ...pool, levels: [{ level: 1, winners: 0, prize: 3 }] }],
    ['a fractional prize', { ...pool, levels: [{ level: 1, winners: 1, prize: 1.5 }] }],
    ['a free card', { ...pool, betPrice: 0 }],
  ])('%s', (_, bad) => {
    expect(() => parSheet(bad, [])).toThrow(RangeError);
  });

  it('more cards than one pool holds', () => {
    expect(() => parSheet(pool, [5])).toThrow(RangeError);
  });
});
