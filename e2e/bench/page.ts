/**
 * `pnpm bench:page [--runs N] [--model M]`: the player's page's figures, measured in Debian's Chromium
 * (headless, software WebGL) the way the browser tests drive it: a real service, the operator's page on
 * another origin framing a fresh gameUrl, a desktop context of 1024×680.
 *
 * Each run opens a new session (a new context, so nothing cached from the run before is reused by the
 * page's own code), and measures
 * - first card: milliseconds from the frame's navigation to its first card drawn (`raspa:first-card`);
 * - longest task while scratching: the longest task of the frame from the first mouse stroke to the
 *   card revealing itself (`raspa:revealing`), strokes of real mouse drags. The browser reports long
 *   tasks only (50 ms or more), so 0 means that no task reached 50 ms.
 * The runs go through the models in turn. It prints every run, then p50 and max of each figure beside
 * the page's budgets (2 s first card, 50 ms long task). The figures are a benchmark's, not a test's:
 * they depend on the machine and on what else runs on it. Needs `pnpm build:game` first.
 */
import { loadavg } from 'node:os';
import { GAME_MODELS, type GameModel } from '@raspa/core';
import { LONG_TASK_RECORDER, launchChromium } from '../src/chromium.ts';
import { firstCardMs, openFramed, scratchMeasured, waitForState } from '../src/player-page.ts';
import { startRaspa } from '../src/raspa-fixture.ts';

const FIRST_CARD_BUDGET_MS = 2000;
const LONG_TASK_BUDGET_MS = 50;
const DESKTOP = { width: 1024, height: 680 };

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const runs = Number(option('runs') ?? 14);
const only = option('model');
const models: GameModel[] = only ? [only as GameModel] : [...GAME_MODELS];
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number ≥ 1');
if (only && !(GAME_MODELS as readonly string[]).includes(only)) {
  throw new Error(`--model takes one of ${GAME_MODELS.join(', ')}`);
}

/** Nearest-rank percentile of `values` (p in 0..100). */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const [raspa, browser] = await Promise.all([startRaspa(), launchChromium()]);
const rows: Array<{ model: GameModel; firstCardMs: number; longestTaskMs: number; strokes: number }> = [];
try {
  // One card first, not counted: the service's and the browser's first-use costs (disk cache of the
  // page's files, compiled shaders) would otherwise land on the first run only.
  const games = new Map<GameModel, string>();
  for (const model of models) games.set(model, await raspa.createGame(model));
  console.log(`The player's page in ${browser.version()} (headless, software WebGL), ${runs} runs:`);
  for (let run = 0; run <= runs; run++) {
    const model = models[(run + models.length - 1) % models.length] as GameModel;
    const context = await browser.newContext({ viewport: DESKTOP });
    await context.addInitScript(LONG_TASK_RECORDER);
    try {
      const gameUrl = await raspa.newSession(games.get(model) ?? '', `bench-${run}-${model}`, 'pt');
      const { page, frame } = await openFramed(context, raspa.host.urlFor(gameUrl));
      const firstCard = await firstCardMs(frame);
      await frame.locator('[data-action="buy"]').click();
      await waitForState(frame, 'playing');
      const { strokes, longestTaskMs } = await scratchMeasured(page, frame);
      await waitForState(frame, 'revealed');
      if (run === 0) continue; // the warm-up card
      rows.push({ model, firstCardMs: firstCard, longestTaskMs, strokes });
      console.log(
        `  run ${String(run).padStart(2)}  ${model.padEnd(16)} first card ${String(Math.round(firstCard)).padStart(5)} ms · longest task while scratching ${String(Math.round(longestTaskMs)).padStart(4)} ms · ${strokes} strokes`,
      );
    } finally {
      await context.close();
    }
  }
} finally {
  await browser.close();
  await raspa.close();
}

const load = loadavg()
  .map((each) => each.toFixed(2))
  .join(' / ');
const first = rows.map((row) => row.firstCardMs);
const longest = rows.map((row) => row.longestTaskMs);
// The browser reports long tasks only (50 ms or more): 0 means no task of 50 ms or more.
const ms = (value: number) => (value === 0 ? '0 ms (no task ≥ 50 ms)' : `${Math.round(value)} ms`);
const figure = (values: number[]) => `p50 ${ms(percentile(values, 50))}, max ${ms(Math.max(...values))}`;
console.log(
  [
    `  first card:                    ${figure(first)} (budget ${FIRST_CARD_BUDGET_MS} ms; ${first.filter((ms) => ms >= FIRST_CARD_BUDGET_MS).length} of ${rows.length} over)`,
    `  longest task while scratching: ${figure(longest)} (budget ${LONG_TASK_BUDGET_MS} ms; ${longest.filter((ms) => ms > LONG_TASK_BUDGET_MS).length} of ${rows.length} over)`,
    `  load average at the end (1 / 5 / 15 min): ${load}`,
  ].join('\n'),
);
