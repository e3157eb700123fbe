// The card of a level drawn by the player's page's own renderer (apps/game's CardView and model
// art), loaded only when the preview is shown: Pixi is large and the figures do not need it.
import { type Card, type Ladder, layoutCard, seededRng } from '@raspa/core';
import { CardView } from '@raspa/game/card-view';
import { defaultConfig } from '@raspa/game/config';
import { createI18n } from '@raspa/game/i18n';
import type { DrawContext } from '@raspa/game/model-art';
import { MODEL_ART } from '@raspa/game/models';
import { Application } from 'pixi.js';
import type { Lang } from '../config/sandbox-config.ts';

export interface PreviewRequest {
  ladder: Ladder;
  /** 0 = a losing card, 1..8 = that level's prize. */
  level: number;
  lang: Lang;
  /** Which layout of the fillers (another card with the same outcome). */
  variant: number;
}

export class CardPreview {
  private view: CardView | undefined;
  private width = 0;

  private constructor(
    private readonly app: Application,
    private readonly host: HTMLElement,
  ) {
    new ResizeObserver(() => this.fit()).observe(host);
  }

  /** A Pixi application in `host`; rejects when the browser cannot draw (no WebGL). */
  static async create(host: HTMLElement): Promise<CardPreview> {
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
    return new CardPreview(app, host);
  }

  /** Draws the card of a level revealed, its win outlined and the result banner on, as a player sees it at the end. */
  show(request: PreviewRequest): Card {
    const { ladder, level, lang, variant } = request;
    const art = MODEL_ART[ladder.gameModel];
    const i18n = createI18n(lang, ladder.currency);
    const prize = (at: number) => ladder.levels.find((each) => each.level === at)?.prize ?? 0;
    const context: DrawContext = { i18n, prize: (at) => i18n.money(prize(at)) };
    const card = layoutCard(ladder.gameModel, ladder, level, seededRng(variant * 97 + level));
    this.clear();
    // The card under the foil, revealed: the foil is the page's own layer, not the card's.
    const view = new CardView(art, context, defaultConfig);
    view.showCard(card);
    if (level > 0) {
      view.highlightWin(card, false);
      view.showResult(true, { title: i18n.t('wonBanner'), detail: i18n.money(prize(level)) }, false);
    } else {
      view.showResult(false, { title: i18n.t('lostBanner'), detail: '' }, false);
    }
    this.view = view;
    this.app.stage.addChild(view);
    this.width = 0;
    this.fit();
    return card;
  }

  destroy(): void {
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
