import { parseArgs } from 'node:util';
import { GAME_MODELS, type GameModel, type LadderInput } from '@raspa/core';

export interface LadderCommand {
  input: LadderInput;
  json: boolean;
}

export const LADDER_USAGE = `usage: pnpm ladder --model <model> --rtp <0.50–0.95> --sampling <n> --prized <0.20–1.00> --bet <price> --currency <ISO 4217> [--json]
  models: ${GAME_MODELS.join(', ')}
  example: pnpm ladder --model oxe-ganhei --rtp 0.9 --sampling 1000000 --prized 0.3 --bet 2 --currency BRL`;

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
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, command: { input, json: values.json ?? false } };
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
    },
    strict: true,
    allowPositionals: false,
  });
}
