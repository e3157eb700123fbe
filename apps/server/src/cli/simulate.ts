/**
 * A check of the draw (docs/games.md, "Simulating the draw"): draws N cards of a game version
 * through the service's pool code, in memory, pool after pool from seeds of its own, and checks
 * every level's count per pool exactly and the chi-square of the level frequencies.
 *
 *   pnpm simulate --game <gameId> --cards <N> [--seed <64 hex>] [--alpha <p>] [--data-dir <dir>]
 *
 * Reads only the version's configuration, from the service's database opened read-only
 * (DATABASE_URL, else DATA_DIR/raspa.sqlite; --data-dir wins): no real pool is read or changed.
 * Progress goes to stderr on runs of 200,000 cards or more; the summary to stdout. Exit 0 when
 * every check holds, 1 when one fails, 2 on bad arguments or a game it cannot read.
 */
import { randomBytes } from 'node:crypto';
import { checkDraws, DEFAULT_ALPHA, MAX_SIMULATED_CARDS, seedFromHex, seedToHex } from '@raspa/core';
import type { GameRecord } from '../store/records.ts';
import { openCliStore } from './cli-store.ts';
import { drawCheckReport } from './draw-check-report.ts';
import { readToolOptions, refuseUsage } from './tool-options.ts';

const USAGE =
  'usage: pnpm simulate --game <gameId> --cards <N> [--seed <64 hex>] [--alpha <p>] [--data-dir <dir>]';
/** Runs at least this long print their progress, ten times. */
const PROGRESS_FROM = 200_000;

interface Options {
  gameId: string;
  cards: number;
  seed: Uint8Array | undefined;
  alpha: number;
  dataDir: string | undefined;
}

function readOptions(argv: string[]): Options | string {
  const values = readToolOptions(argv, ['game', 'cards', 'seed', 'alpha', 'data-dir']);
  if (typeof values === 'string') return values;
  if (!values.game) return '--game is required (the id of the game version)';
  const cards = Number((values.cards ?? '').replaceAll('_', ''));
  if (
    !/^[\d_]+$/.test(values.cards ?? '') ||
    !Number.isSafeInteger(cards) ||
    cards < 1 ||
    cards > MAX_SIMULATED_CARDS
  ) {
    return `--cards must be a whole number from 1 to ${MAX_SIMULATED_CARDS.toLocaleString('en-US')}`;
  }
  let seed: Uint8Array | undefined;
  if (values.seed !== undefined) {
    try {
      seed = seedFromHex(values.seed);
    } catch {
      return '--seed must be 64 hexadecimal characters (a run’s seed, as its summary prints it)';
    }
  }
  const alpha = values.alpha === undefined ? DEFAULT_ALPHA : Number(values.alpha);
  if (!(alpha > 0 && alpha < 1)) return '--alpha must be a number between 0 and 1 (default 0.001)';
  return { gameId: values.game, cards, seed, alpha, dataDir: values['data-dir'] };
}

async function readGame(options: Options): Promise<GameRecord | number> {
  const opened = openCliStore(options.dataDir, USAGE);
  if (!opened) return 2;
  try {
    const game = await opened.store.games.findById(options.gameId);
    if (!game) {
      return refuseUsage(`no game ${options.gameId} in ${opened.where}`, USAGE);
    }
    return game;
  } catch (error) {
    console.error(`cannot read ${opened.where}: ${(error as Error).message}`);
    return 2;
  } finally {
    await opened.store.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const options = readOptions(argv);
  if (typeof options === 'string') return refuseUsage(options, USAGE);
  const game = await readGame(options);
  if (typeof game === 'number') return game;
  const seed = options.seed ?? new Uint8Array(randomBytes(32));
  const long = options.cards >= PROGRESS_FROM;
  const check = checkDraws(game.ladder, {
    cards: options.cards,
    seed,
    alpha: options.alpha,
    ...(long && {
      progressEvery: Math.ceil(options.cards / 10),
      onProgress: (drawn: number) =>
        process.stderr.write(
          `drawn ${drawn.toLocaleString('en-US')} of ${options.cards.toLocaleString('en-US')} cards (${Math.floor((drawn / options.cards) * 100)}%)\n`,
        ),
    }),
  });
  for (const line of drawCheckReport(game, check, seedToHex(seed))) process.stdout.write(`${line}\n`);
  return check.ok ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
