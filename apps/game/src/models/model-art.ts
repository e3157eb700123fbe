import type { GameModel, PlayRound } from '@raspa/core';
import type { Container } from 'pixi.js';
import type { I18n } from '../i18n/i18n.ts';
import type { FoilSpec } from '../scratch/foil-painter.ts';

/** One spot of a card as the server sends it: a symbol id, maybe a prize level or a number. */
export type CardCell = PlayRound['card']['cells'][number];

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A model's colours: numbers for Pixi, CSS strings for the HTML around the card. */
export interface Palette {
  page: {
    /** Page background gradient, top to bottom. */
    top: string;
    bottom: string;
    text: string;
    panel: string;
    panelText: string;
    accent: string;
    accentText: string;
  };
  /** Outline of winning spots. */
  win: number;
  /** Confetti colours. */
  confetti: readonly number[];
  /** The result banner: fill, text, and the softer fill of a losing card. */
  banner: { fill: number; text: number; lossFill: number; lossText: number };
}

/**
 * Where things sit on a model's card, in card units (the card is drawn at this size and scaled to
 * fit the screen). `play` is the area under the foil; cells and extras lie inside it.
 */
export interface CardGeometry {
  width: number;
  height: number;
  play: Rect;
  cells: readonly Rect[];
  extras: readonly Rect[];
}

/** What drawing needs from the session: the language and the ladder's prizes. */
export interface DrawContext {
  i18n: I18n;
  /** A ladder level's prize as money ("R$ 5,00"). */
  prize(level: number): string;
}

/** Everything that gives a model its look. Each draw function returns a new display object. */
export interface ModelArt {
  readonly model: GameModel;
  readonly palette: Palette;
  readonly geometry: CardGeometry;
  /** The card itself: frame, title, decorations, and the play area's backdrop. */
  drawCard(context: DrawContext): Container;
  /** A grid cell, drawn in a box of its rect's size with its top-left corner at 0,0. */
  drawCell(cell: CardCell, index: number, context: DrawContext): Container;
  /** A box outside the grid (locomotive, winning number, bonus), same convention. */
  drawExtra(cell: CardCell, index: number, context: DrawContext): Container;
  /** The foil over the play area (painted on its own 2D canvas, play-area sized). */
  readonly foil: FoilSpec;
  /** A symbol for the prize table's legend, centred in a size × size box at 0,0; none for amount-only models. */
  icon(symbolId: string, size: number): Container | undefined;
}
