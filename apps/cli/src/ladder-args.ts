import { parseArgs } from 'node:util';
import {
  GAME_MODELS,
  type GameModel,
  type LadderInput,
  PLAYER_RESULTS_DEFAULTS,
  PLAYER_RESULTS_LIMITS,
} from '@raspa/core';

export interface LadderCommand {
  input: LadderInput;
  json: boolean;
  /** --simulate: N cards bought in a row, simulated over many players with a seeded generator. */
  simulate?: { cards: number; seed: number };
}

const { cards } = PLAYER_RESULTS_LIMITS;

export const LADDER_USAGE = `usage: pnpm ladder --model <model> --rtp <0.50–0.95> --sampling <n> --prized <0.20–1.00> --bet <price> --currency <ISO 4217> [--json | --simulate <cards> [--seed <n>]]
  models: ${GAME_MODELS.join(', ')}
  --simulate N: after the table, how N cards bought in a row end for ${PLAYER_RESULTS_DEFAULTS.trials.toLocaleString('en')} players (seed ${PLAYER_RESULTS_DEFAULTS.seed} unless --seed)
  example: pnpm ladder --model oxe-ganhei --rtp 0.9 --sampling 1000000 --prized 0.3 --bet 2 --currency BRL --simulate 100`;

/** Reads the command line into a ladder input; every problem is reported, not just the first. */
export function parseLadderArgs(
  argv: readonly string[],
): { ok: true; command: LadderCommand } | { ok: false; errors: string[] } {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    return { ok: false, errors: [(error as Error).message] };
  }
  const errors: string[] = [];
  const number = (name: 'rtp' | 'sampling' | 'prized' | 'bet'): number => {
    const text = values[name];
    if (text === undefined) {
      errors.push(`--${name} is required`);
      return Number.NaN;
    }
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value))
      errors.push(`--${name} must be a number, got "${text}"`);
    return value;
  };
  const model = values.model;
  if (model === undefined) errors.push('--model is required');
  else if (!(GAME_MODELS as readonly string[]).includes(model))
    errors.push(`--model must be one of ${GAME_MODELS.join(', ')}`);
  const input: LadderInput = {
    gameModel: (model ?? '') as GameModel,
    rtp: number('rtp'),
    sampling: number('sampling'),
    prizedPercent: number('prized'),
    betPrice: number('bet'),
    currency: (values.currency ?? 'BRL').toUpperCase(),
  };
  const simulate = readSimulate(values.simulate, values.seed, errors);
  if (simulate && values.json)
    errors.push('--simulate prints after the table; it cannot be combined with --json');
  if (errors.length > 0) return { ok: false, errors };
  const command: LadderCommand = { input, json: values.json ?? false };
  if (simulate) command.simulate = simulate;
  return { ok: true, command };
}

function readSimulate(
  cardsText: string | undefined,
  seedText: string | undefined,
  errors: string[],
): LadderCommand['simulate'] {
  if (cardsText === undefined) {
    if (seedText !== undefined) errors.push('--seed only applies with --simulate');
    return undefined;
  }
  const count = Number(cardsText);
  if (!/^\d+$/.test(cardsText.trim()) || count < cards.min || count > cards.max) {
    errors.push(
      `--simulate must be a whole number of cards from ${cards.min} to ${cards.max.toLocaleString('en')}`,
    );
  }
  const seed = seedText === undefined ? PLAYER_RESULTS_DEFAULTS.seed : Number(seedText);
  if (seedText !== undefined && (!/^\d+$/.test(seedText.trim()) || seed > 0xffff_ffff)) {
    errors.push(`--seed must be a whole number from 0 to ${0xffff_ffff}`);
  }
  return { cards: count, seed };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      model: { type: 'string' },
      rtp: { type: 'string' },
      sampling: { type: 'string' },
      prized: { type: 'string' },
      bet: { type: 'string' },
      currency: { type: 'string' },
      json: { type: 'boolean' },
      simulate: { type: 'string' },
      seed: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
}
