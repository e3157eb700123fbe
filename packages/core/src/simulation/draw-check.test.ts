import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { buildLadder } from '../ladder/build-ladder.ts';
import { createPool, levelOfTicket, ticketAt } from '../pool/ticket-pool.ts';
import { checkDraws, type PoolDrawer, servicePoolDrawer, simulationPoolSeed } from './draw-check.ts';

const built = buildLadder({
  gameModel: 'oxe-ganhei',
  currency: 'BRL',
  rtp: 0.9,
  sampling: 100_001,
  prizedPercent: 0.5,
  betPrice: 2,
});
if (!built.ok) throw new Error(JSON.stringify(built.problems));
const { ladder } = built;
const ladderCounts = [
  100_001 - ladder.levels.reduce((sum, level) => sum + level.winners, 0),
  ...ladder.levels.map((level) => level.winners),
];
const seed = sha256(utf8ToBytes('draw-check test'));

/** The service's draw with one thing changed at each index. */
const altered =
  (change: (level: number, index: number) => number): PoolDrawer =>
  (poolSeed, sampling, winners) => {
    const draw = servicePoolDrawer(poolSeed, sampling, winners);
    return (index) => change(draw(index), index);
  };

describe('checkDraws through the service’s pool code', () => {
  it('finds every whole pool holding the ladder exactly, and nothing amiss in the order or the last pool', () => {
    const check = checkDraws(ladder, { cards: 250_000, seed });
    expect(check.pools.map(({ number, drawn, whole }) => [number, drawn, whole])).toEqual([
      [1, 100_001, true],
      [2, 100_001, true],
      [3, 49_998, false],
    ]);
    expect(check.ladderCounts).toEqual(ladderCounts);
    expect(check.pools.slice(0, 2).map((pool) => pool.levelCounts)).toEqual([ladderCounts, ladderCounts]);
    expect(check.pools.every((pool) => pool.countsHold)).toBe(true);
    // Pool 3 is the pool its own seed derives, drawn from its first index on.
    const third = createPool(
      simulationPoolSeed(seed, 3),
      100_001,
      ladder.levels.map((level) => level.winners),
    );
    const counts = new Array(9).fill(0);
    for (let index = 0; index < 49_998; index++) counts[ticketAt(third, index)]++;
    expect(check.pools[2]?.levelCounts).toEqual(counts);
    expect(check.levelTotals.reduce((sum, count) => sum + count, 0)).toBe(250_000);
    expect(check.order.df).toBeGreaterThan(0);
    expect(check.order.pValue).toBeGreaterThanOrEqual(0.001);
    expect(check.partialPool).toMatchObject({ number: 3, df: expect.any(Number) });
    expect(check.partialPool?.df).toBeGreaterThan(0);
    expect(check.ok).toBe(true);
  });

  it('is the same run for the same seed, another for another, and reports its progress', () => {
    const progress: number[] = [];
    const run = (runSeed: Uint8Array) =>
      checkDraws(ladder, {
        cards: 120_000,
        seed: runSeed,
        progressEvery: 50_000,
        onProgress: (drawn) => progress.push(drawn),
      });
    const first = run(seed);
    expect(progress).toEqual([50_000, 100_000]);
    expect(run(seed)).toEqual(first);
    const other = run(sha256(utf8ToBytes('another run')));
    expect(other.pools[1]?.levelCounts).not.toEqual(first.pools[1]?.levelCounts);
    expect(simulationPoolSeed(seed, 1)).not.toEqual(simulationPoolSeed(seed, 2));
  });
});

describe('checkDraws fails a broken draw', () => {
  it('a shuffle that leaves the tickets in their order (the winners first): the order test', () => {
    const unshuffled: PoolDrawer = (poolSeed, sampling, winners) => {
      const pool = createPool(poolSeed, sampling, winners);
      return (index) => levelOfTicket(pool.levelEnds, index);
    };
    const check = checkDraws(ladder, { cards: 100_001, seed, drawer: unshuffled });
    expect(check.pools[0]?.countsHold).toBe(true);
    expect(check.order.pValue).toBeLessThan(1e-12);
    expect(check.ok).toBe(false);
  });

  it('a pool with a top prize too many: the exact count', () => {
    const check = checkDraws(ladder, {
      cards: 100_001,
      seed,
      drawer: altered((level, index) => (index === 0 ? 8 : level)),
    });
    expect(check.pools[0]?.countsHold).toBe(false);
    expect(check.ok).toBe(false);
  });

  it('a level outside the ladder: the exact count, where every level alone would pass', () => {
    // One losing ticket of a partly drawn pool turned into level 9: each level's count stays within
    // the ladder's, so only the tickets left unaccounted for fail it.
    const check = checkDraws(ladder, {
      cards: 50_000,
      seed,
      drawer: altered((level, index) => (index === 0 ? 9 : level)),
    });
    const pool = check.pools[0];
    expect(pool?.levelCounts.every((count, level) => count <= (ladderCounts[level] as number))).toBe(true);
    expect(pool?.levelCounts.reduce((sum, count) => sum + count, 0)).toBe(49_999);
    expect(pool?.countsHold).toBe(false);
    expect(check.ok).toBe(false);
  });

  it('a partly drawn pool that never pays level 1: the frequencies against the ladder', () => {
    const check = checkDraws(ladder, {
      cards: 50_000,
      seed,
      drawer: altered((level) => (level === 1 ? 0 : level)),
    });
    expect(check.pools[0]?.countsHold).toBe(true); // no level beyond the ladder's count
    expect(check.partialPool?.pValue).toBeLessThan(1e-12);
    expect(check.ok).toBe(false);
  });

  it('refuses options it cannot run', () => {
    for (const bad of [
      { cards: 0, seed },
      { cards: 1.5, seed },
      { cards: 10, seed: seed.subarray(1) },
      { cards: 10, seed, alpha: 0 },
      { cards: 10, seed, progressEvery: 0 },
    ]) {
      expect(() => checkDraws(ladder, bad)).toThrow(RangeError);
    }
  });
});
