/**
 * Sandbox simulation speed in Node (the sandbox runs the same code in a Web Worker). Target: a whole
 * 10,000,000-ticket pool played in a few seconds.
 */
import { buildLadder } from '../src/ladder/index.ts';
import { seededRng } from '../src/random/rng.ts';
import { playerResults, simulatePool } from '../src/simulation/index.ts';

export async function benchSimulation(): Promise<Array<{ name: string; value: number; unit: string }>> {
  const result = buildLadder({
    gameModel: 'fera-sortuda',
    currency: 'BRL',
    rtp: 0.9,
    sampling: 10_000_000,
    prizedPercent: 0.3,
    betPrice: 2,
  });
  if (!result.ok) throw new Error('simulation bench: no ladder');
  const seed = Uint8Array.from({ length: 32 }, (_, i) => (i * 53 + 5) & 255);
  const poolStart = performance.now();
  const pool = simulatePool(result.ladder, seed, { chunk: 250_000 });
  const poolSeconds = (performance.now() - poolStart) / 1000;
  if (pool.paid !== result.ladder.levels.reduce((sum, level) => sum + level.totalPrize, 0)) {
    throw new Error('simulation bench: the pool did not pay its ladder');
  }
  const playersStart = performance.now();
  playerResults(result.ladder, 100, 10_000, seededRng(1));
  const playersMs = performance.now() - playersStart;
  return [
    { name: 'play a whole 10,000,000-ticket pool', value: round(poolSeconds, 2), unit: 's' },
    { name: 'player results, 10,000 players × 100 cards', value: round(playersMs, 0), unit: 'ms' },
  ];
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
