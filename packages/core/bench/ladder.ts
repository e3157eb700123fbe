/** Ladder building speed: the API builds one per POST /v1/game and the sandbox one per keystroke. */
import { buildLadder } from '../src/ladder/index.ts';
import { GAME_MODELS } from '../src/models.ts';

export async function benchLadder(): Promise<Array<{ name: string; value: number; unit: string }>> {
  const inputs = GAME_MODELS.map((gameModel, i) => ({
    gameModel,
    currency: 'BRL',
    rtp: [0.9, 0.89, 0.88, 0.87, 0.86, 0.85, 0.84][i] ?? 0.9,
    sampling: 1_000_000 * (i + 1),
    prizedPercent: 0.3,
    betPrice: 2,
  }));
  for (const input of inputs) buildLadder(input);
  const rounds = 700;
  const runs = rounds * inputs.length;
  const start = performance.now();
  for (let round = 0; round < rounds; round++) {
    for (const input of inputs) if (!buildLadder(input).ok) throw new Error('ladder bench: no ladder');
  }
  const seconds = (performance.now() - start) / 1000;
  return [
    {
      name: 'ladders built (all seven models in turn)',
      value: Math.round(runs / seconds),
      unit: 'ladders/s',
    },
  ];
}
