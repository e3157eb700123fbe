import type { GameModel } from '../models.ts';

/**
 * One visible spot on a card: a grid cell or a box outside the grid.
 * Plain data so a card survives JSON (SQLite column, Socket.IO message) unchanged.
 */
export interface CardCell {
  /** A symbol id from the model's metadata (`CARD_MODELS[model].symbols`, or `.extraSymbols` for extras). */
  symbol: string;
  /**
   * Prize printed on this spot, as a ladder level 1..8, so the page prints
   * `ladder.levels[prizeLevel - 1].prize` in the player's currency. Absent where nothing is printed.
   */
  prizeLevel?: number;
  /** Station number (trem-de-ouro-v3 only). */
  number?: number;
}

/** How a card is read; several models share a mechanic, the `model` field tells their symbols apart. */
export type CardRule =
  | 'match-three'
  | 'row-of-three'
  | 'match-the-locomotive'
  | 'winning-numbers'
  | 'find-the-symbol'
  | 'match-three-or-bonus';

interface CardOf<M extends GameModel, R extends CardRule> {
  model: M;
  rule: R;
  rows: number;
  cols: number;
  /** Row-major grid: cell (row r, column c) is `cells[r * cols + c]`. */
  cells: CardCell[];
  /** Boxes outside the grid (locomotive, winning numbers, bonus box); empty when the model has none. */
  extras: CardCell[];
  /** Grid indexes of the winning pattern, ascending; empty on a loss. For highlighting only. */
  winningCells: number[];
  /** Extras indexes taking part in the win (e.g. the matched winning number), ascending; empty on a loss. */
  winningExtras: number[];
}

export type OxeGanheiCard = CardOf<'oxe-ganhei', 'match-three'>;
export type TremDeOuroV1Card = CardOf<'trem-de-ouro-v1', 'row-of-three'>;
export type TremDeOuroV2Card = CardOf<'trem-de-ouro-v2', 'match-the-locomotive'>;
export type TremDeOuroV3Card = CardOf<'trem-de-ouro-v3', 'winning-numbers'>;
export type FrevoDaSorteCard = CardOf<'frevo-da-sorte', 'match-three'>;
export type BumbaMeuGreenCard = CardOf<'bumba-meu-green', 'find-the-symbol'>;
export type FeraSortudaCard = CardOf<'fera-sortuda', 'match-three-or-bonus'>;

/** A laid-out card, discriminated by `model` (and `rule`). It deliberately carries no level field. */
export type Card =
  | OxeGanheiCard
  | TremDeOuroV1Card
  | TremDeOuroV2Card
  | TremDeOuroV3Card
  | FrevoDaSorteCard
  | BumbaMeuGreenCard
  | FeraSortudaCard;

export type CardOfModel<M extends GameModel> = Extract<Card, { model: M }>;

/** What a player reads off a card: the level won (0 = loss) and the spots that make the win. */
export interface CardReading {
  level: number;
  winningCells: number[];
  winningExtras: number[];
}

export interface LocalizedText {
  pt: string;
  en: string;
  es: string;
}

export interface CardSymbol {
  /** Stable id stored in cards. */
  id: string;
  name: LocalizedText;
  /** A placeholder glyph until the artwork exists. */
  emoji: string;
  /** The prize level this symbol stands for, when the symbol itself is worth a prize (cargo, colour, animal). */
  level?: number;
  /** True for the symbol that wins the prize printed beside it (the boi, the jaguar). */
  wins?: boolean;
  /** CSS colour, for symbols told apart by colour (frevo umbrellas). */
  color?: string;
}

/** Display and documentation facts about a model's card. */
export interface CardModelInfo {
  model: GameModel;
  title: string;
  rule: CardRule;
  rows: number;
  cols: number;
  /** How many boxes sit outside the grid (`card.extras.length`). */
  extrasCount: number;
  /** Whether grid cells print a prize amount (`prizeLevel`). */
  cellsShowPrize: boolean;
  /** Whether extras print a prize amount (`prizeLevel`). */
  extrasShowPrize: boolean;
  /** One sentence telling the player how to win. */
  ruleText: LocalizedText;
  /** Symbols that may appear in grid cells. */
  symbols: readonly CardSymbol[];
  /** Symbols that may appear in extras; empty when the model has none. */
  extraSymbols: readonly CardSymbol[];
  /** Range of station numbers, for numbered models. */
  numbers?: { min: number; max: number };
}
