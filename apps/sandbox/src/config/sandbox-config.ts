import {
  buildLadder,
  findCurrency,
  GAME_MODELS,
  type GameModel,
  isGameModel,
  type Ladder,
  type LadderInput,
  type LadderProblem,
  type LadderStats,
  ladderStats,
  PLAYER_RESULTS_DEFAULTS,
  playerResultsProblems,
} from '@raspa/core';

export const LANGS = ['pt', 'en', 'es'] as const;
export type Lang = (typeof LANGS)[number];

/**
 * One configuration as the designer typed it: numbers stay text until read, so the page and the
 * URL keep exactly what was typed (and "0.9" is not silently turned into something else).
 */
export interface SandboxConfig {
  model: GameModel;
  currency: string;
  rtp: string;
  sampling: string;
  prizedPercent: string;
  betPrice: string;
  /** The game's language: part of the POST /v1/game body, and the card preview's language. */
  lang: Lang;
  /** N cards bought in a row, for the player results. */
  cards: string;
  /** Seed of the player results (the CLI's --seed). */
  seed: string;
}

export const DEFAULT_CONFIG: SandboxConfig = {
  model: 'oxe-ganhei',
  currency: 'BRL',
  rtp: '0.9',
  sampling: '1000000',
  prizedPercent: '0.3',
  betPrice: '2',
  lang: 'pt',
  cards: String(PLAYER_RESULTS_DEFAULTS.cards),
  seed: String(PLAYER_RESULTS_DEFAULTS.seed),
};

export type ConfigField = keyof SandboxConfig;

/** A number as typed: spaces and underscores may group digits ("1 000 000", "1_000_000"); empty is not a number. */
export function readNumber(text: string): number {
  const compact = text.trim().replace(/[\s_]/g, '');
  return compact === '' ? Number.NaN : Number(compact);
}

export function ladderInputOf(config: SandboxConfig): LadderInput {
  return {
    gameModel: config.model,
    currency: config.currency,
    rtp: readNumber(config.rtp),
    sampling: readNumber(config.sampling),
    prizedPercent: readNumber(config.prizedPercent),
    betPrice: readNumber(config.betPrice),
  };
}

/** What the page shows for a configuration: the ladder and its figures, or why there is none. */
export type Figures =
  | { ok: true; input: LadderInput; ladder: Ladder; stats: LadderStats }
  | { ok: false; input: LadderInput; problems: LadderProblem[] };

/** The core decides: buildLadder's own problems are the messages the designer reads. */
export function figuresOf(config: SandboxConfig): Figures {
  const input = ladderInputOf(config);
  const result = buildLadder(input);
  if (!result.ok) return { ok: false, input, problems: result.problems };
  return { ok: true, input, ladder: result.ladder, stats: ladderStats(result.ladder) };
}

/** The player-results inputs: N cards and the seed, or what is wrong with them. */
export function playerInputOf(
  config: SandboxConfig,
): { ok: true; cards: number; seed: number } | { ok: false; field: 'cards' | 'seed'; message: string } {
  const cards = readNumber(config.cards);
  const problem = playerResultsProblems(cards, PLAYER_RESULTS_DEFAULTS.trials)[0];
  if (problem) return { ok: false, field: 'cards', message: problem };
  const seed = readNumber(config.seed);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffff_ffff) {
    return { ok: false, field: 'seed', message: `seed must be a whole number from 0 to ${0xffff_ffff}` };
  }
  return { ok: true, cards, seed };
}

/** A configuration from loose values (URL, an imported body): unknown models, currencies and languages fall back. */
export function configFrom(
  values: Partial<Record<ConfigField, string>>,
  base = DEFAULT_CONFIG,
): SandboxConfig {
  const model = values.model;
  const currency = values.currency?.trim().toUpperCase();
  const lang = values.lang;
  return {
    model: isGameModel(model) ? model : base.model,
    currency: currency && findCurrency(currency) ? currency : base.currency,
    rtp: values.rtp ?? base.rtp,
    sampling: values.sampling ?? base.sampling,
    prizedPercent: values.prizedPercent ?? base.prizedPercent,
    betPrice: values.betPrice ?? base.betPrice,
    lang: (LANGS as readonly string[]).includes(lang ?? '') ? (lang as Lang) : base.lang,
    cards: values.cards ?? base.cards,
    seed: values.seed ?? base.seed,
  };
}

export { GAME_MODELS };
