import type { PlayRound } from '@raspa/core';
import { Container, Graphics } from 'pixi.js';
import type { GameConfig } from '../config.ts';
import type { DrawContext, ModelArt, Rect } from '../models/model-art.ts';
import { ResultBanner } from './result-banner.ts';

/** How long the winning outline pulses. */
const PULSE_MS = 3000;

/** A card as the server sends it (laid out by the core's layoutCard). */
export type Card = PlayRound['card'];

/**
 * One model's card: the body (frame, title), the laid-out cells and extras of the round, the
 * highlight of the winning spots and the result banner. Drawn in card units (the model's geometry);
 * the screen scales it to fit. The foil is not part of it (see ScratchFoil).
 */
export class CardView extends Container {
  private readonly spots = new Container();
  private readonly highlight = new Graphics();
  private readonly banner: ResultBanner;
  private cellNodes: Container[] = [];
  private extraNodes: Container[] = [];
  private pulse = 0;
  private pulsing = false;
  private changed = true;

  constructor(
    readonly art: ModelArt,
    private readonly context: DrawContext,
    config: GameConfig,
  ) {
    super();
    const { play } = art.geometry;
    this.addChild(art.drawCard(context));
    this.addChild(this.spots);
    this.addChild(this.highlight);
    this.banner = new ResultBanner(art, config.celebrate.bannerPopMs);
    // Over the title, which the player no longer needs, so the whole grid stays in view.
    this.banner.position.set(art.geometry.width / 2, Math.max(80, play.y / 2));
    this.addChild(this.banner);
  }

  get play(): Rect {
    return this.art.geometry.play;
  }

  /** Lays out a round's card, or an empty play area (no card bought yet). */
  showCard(card: Card | null): void {
    this.clearResult();
    for (const node of this.spots.removeChildren()) node.destroy({ children: true });
    this.cellNodes = [];
    this.extraNodes = [];
    if (card) {
      const { cells, extras } = this.art.geometry;
      card.cells.forEach((cell, index) => {
        const rect = cells[index];
        if (!rect) return;
        const node = this.art.drawCell(cell, index, this.context);
        node.position.set(rect.x, rect.y);
        this.cellNodes.push(node);
        this.spots.addChild(node);
      });
      card.extras.forEach((cell, index) => {
        const rect = extras[index];
        if (!rect) return;
        const node = this.art.drawExtra(cell, index, this.context);
        node.position.set(rect.x, rect.y);
        this.extraNodes.push(node);
        this.spots.addChild(node);
      });
    }
    this.changed = true;
  }

  /** Outlines the winning spots and dims the rest; `animate` lets the outline pulse. */
  highlightWin(card: Card, animate: boolean): void {
    const { cells, extras } = this.art.geometry;
    const winning: Rect[] = [
      ...card.winningCells.map((index) => cells[index]),
      ...card.winningExtras.map((index) => extras[index]),
    ].filter((rect): rect is Rect => rect !== undefined);
    this.highlight.clear();
    for (const rect of winning) {
      this.highlight
        .roundRect(rect.x - 8, rect.y - 8, rect.width + 16, rect.height + 16, 20)
        .stroke({ color: this.art.palette.win, width: 14, alpha: 0.35 });
      this.highlight
        .roundRect(rect.x - 4, rect.y - 4, rect.width + 8, rect.height + 8, 18)
        .stroke({ color: this.art.palette.win, width: 6 });
    }
    const winCells = new Set(card.winningCells);
    const winExtras = new Set(card.winningExtras);
    this.cellNodes.forEach((node, index) => {
      node.alpha = winCells.has(index) ? 1 : 0.5;
    });
    this.extraNodes.forEach((node, index) => {
      node.alpha = winExtras.has(index) ? 1 : 0.5;
    });
    this.pulsing = animate;
    this.pulse = 0;
    this.changed = true;
  }

  showResult(won: boolean, lines: { title: string; detail: string }, animate: boolean): void {
    this.banner.show(won, lines, animate);
    this.changed = true;
  }

  clearResult(): void {
    this.highlight.clear();
    this.highlight.alpha = 1;
    this.pulsing = false;
    this.banner.hide();
    for (const node of [...this.cellNodes, ...this.extraNodes]) node.alpha = 1;
    this.changed = true;
  }

  /** Advances the banner and the pulse; true when the card needs drawing. */
  update(deltaMs: number): boolean {
    const banner = this.banner.update(deltaMs);
    let pulsed = false;
    if (this.pulsing) {
      this.pulse += deltaMs;
      this.highlight.alpha = 0.7 + 0.3 * Math.sin(this.pulse / 180);
      // A few seconds of pulse, then the outline rests (and the page stops redrawing).
      if (this.pulse > PULSE_MS) {
        this.pulsing = false;
        this.highlight.alpha = 1;
      }
      pulsed = true;
    }
    const changed = this.changed || banner || pulsed;
    this.changed = false;
    return changed;
  }
}
