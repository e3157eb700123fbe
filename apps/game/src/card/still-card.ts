import { Application } from 'pixi.js';
import { defaultConfig } from '../config.ts';
import type { I18n } from '../i18n/i18n.ts';
import type { DrawContext, ModelArt } from '../models/model-art.ts';
import { type Card, CardView } from './card-view.ts';

/** How a still card ends: won (with the prize as text) or lost. */
export interface StillResult {
  won: boolean;
  /** The banner's title ("YOU WON") and its line under it (the prize, or empty). */
  title: string;
  detail: string;
}

/** The banner of a finished card that paid `prize` (minor units): won with the prize, or lost. */
export function stillResult(i18n: I18n, prize: number): StillResult {
  const won = prize > 0;
  return { won, title: i18n.t(won ? 'wonBanner' : 'lostBanner'), detail: won ? i18n.money(prize) : '' };
}

/**
 * A card drawn once, fully revealed, as a player sees it at the end: no foil, no ticker, redrawn only
 * when its host changes width. The sandbox's preview and the replay page (and the panel through
 * `@raspa/game/round-card`) draw with it, so they show what the player's page showed.
 */
export class StillCard {
  private view: CardView | undefined;
  private width = 0;
  private readonly resize = new ResizeObserver(() => this.fit());

  private constructor(
    private readonly app: Application,
    private readonly host: HTMLElement,
  ) {
    this.resize.observe(host);
  }

  /** A Pixi application in `host`; rejects when the browser cannot draw (no WebGL). */
  static async create(host: HTMLElement): Promise<StillCard> {
    const app = new Application();
    await app.init({
      width: 360,
      height: 480,
      backgroundAlpha: 0,
      antialias: true,
      autoStart: false,
      autoDensity: true,
      resolution: Math.min(window.devicePixelRatio || 1, 2),
      preference: 'webgl',
    });
    app.ticker.stop();
    app.canvas.setAttribute('aria-hidden', 'true');
    host.append(app.canvas);
    return new StillCard(app, host);
  }

  /** Draws `card` revealed, its winning spots outlined when won, with the result banner on. */
  show(art: ModelArt, context: DrawContext, card: Card, result: StillResult): void {
    this.clear();
    const view = new CardView(art, context, defaultConfig);
    view.showCard(card);
    if (result.won) view.highlightWin(card, false);
    view.showResult(result.won, { title: result.title, detail: result.detail }, false);
    this.view = view;
    this.app.stage.addChild(view);
    this.width = 0;
    this.fit();
  }

  destroy(): void {
    this.resize.disconnect();
    this.clear();
    this.app.destroy(true, { children: true });
  }

  private clear(): void {
    if (!this.view) return;
    this.app.stage.removeChild(this.view);
    this.view.destroy({ children: true });
    this.view = undefined;
  }

  /** Scales the card to the host's width and renders once (nothing moves, so no ticker). */
  private fit(): void {
    const view = this.view;
    if (!view) return;
    const { width, height } = view.art.geometry;
    const cssWidth = Math.max(160, Math.min(this.host.clientWidth || 360, 420));
    if (cssWidth === this.width) return;
    this.width = cssWidth;
    const scale = cssWidth / width;
    this.app.renderer.resize(cssWidth, Math.round(height * scale));
    view.scale.set(scale);
    this.app.render();
  }
}
