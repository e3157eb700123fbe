import { describe, expect, it } from 'vitest';
import { buildLadder } from './build-ladder.ts';
import { gameCreateData } from './game-info.ts';
import { ladderStats } from './ladder-stats.ts';

function ladderOf() {
  const result = buildLadder({
    gameModel: 'trem-de-ouro-v2',
    currency: 'BRL',
    rtp: 0.9,
    sampling: 1_000_000,
    prizedPercent: 0.3,
    betPrice: 2,
  });
  if (!result.ok) throw new Error('expected a ladder');
  return result.ladder;
}

describe('ladderStats', () => {
  it('derives odds, hit rate, realised RTP, average win and top multiple from the ladder', () => {
    const ladder = ladderOf();
    const stats = ladderStats(ladder);
    expect(stats.overallOdds).toBeCloseTo(1_000_000 / 300_000, 12);
    expect(stats.hitRate).toBe(0.3);
    expect(stats.levelOdds[7]).toBe(1_000_000 / (ladder.levels[7]?.winners ?? 0));
    const paid = ladder.levels.reduce((sum, level) => sum + level.totalPrize, 0);
    expect(stats.totalPaid).toBe(paid);
    expect(stats.realisedRtp).toBe(paid / ladder.totalAmount);
    expect(Math.abs(stats.realisedRtp - 0.9)).toBeLessThanOrEqual(0.001);
    expect(stats.averageWin).toBe(Math.round(paid / 300_000));
    expect(stats.topPrizeMultiple).toBe(ladder.maxBetPrize / 200);
  });
});

describe('gameCreateData', () => {
  it('has exactly the fields of the spec Game create response, in major units', () => {
    const data = gameCreateData(ladderOf(), { id: null, version: null, active: false });
    expect(Object.keys(data).sort()).toEqual(
      [
        'id',
        'version',
        'gameModel',
        'active',
        'totalAmount',
        'totalDistribuitionAmount',
        'totalPrized',
        'totalLevels',
        'levels',
      ].sort(),
    );
    expect(data.totalAmount).toBe(2_000_000);
    expect(data.totalDistribuitionAmount).toBe(1_800_000);
    expect(Object.keys(data.levels[0] ?? {}).sort()).toEqual([
      'level',
      'percentage',
      'prize',
      'totalPrize',
      'winners',
    ]);
  });
});
