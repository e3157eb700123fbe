// A round's card drawn by the player's page's own renderer (@raspa/game's CardView and model art),
// revealed as the player saw it at the end. Imported only by the round page when a card is shown:
// Pixi is large and every other page does without it.
import 'pixi.js/unsafe-eval'; // the service's CSP forbids eval; this build of Pixi's shader code needs none
import { type GameModel, isGameModel, type PlayRound, toMinor } from '@raspa/core';
import { CardView } from '@raspa/game/card-view';
import { defaultConfig } from '@raspa/game/config';
import { createI18n } from '@raspa/game/i18n';
import type { DrawContext } from '@raspa/game/model-art';
import { MODEL_ART } from '@raspa/game/models';
import { Application } from 'pixi.js';
import type { Lang } from '../api/wire-types.ts';

export interface RoundCard {
  gameModel: string;
  /** The card as GET /v1/round/{roundId} answers it (the core's layout). */
  card: unknown;
  /** 0 for a losing card, else the prize level. */
  level: number;
  /** Each level's prize, in major units. */
  prizes: ReadonlyMap<number, number>;
  currency: string;
  lang: Lang;
}

/** The card's width on screen, in CSS pixels (it scales down on a phone). */
const MAX_WIDTH = 380;

/**
 * Draws the card into `host` once (nothing moves, so no ticker) and returns a way to free it.
 * Rejects when the model is unknown or the browser cannot draw (no WebGL).
 */
export async function drawRoundCard(host: HTMLElement, round: RoundCard): Promise<() => void> {
  if (!isGameModel(round.gameModel)) throw new Error(`unknown game model ${round.gameModel}`);
  const model: GameModel = round.gameModel;
  const card = round.card as PlayRound['card'];
  const art = MODEL_ART[model];
  const i18n = createI18n(round.lang, round.currency);
  const minor = (major: number) => {
    const result = toMinor(major, round.currency);
    return result.ok ? result.minor : 0;
  };
  const prizeOf = (level: number) => i18n.money(minor(round.prizes.get(level) ?? 0));
  const context: DrawContext = { i18n, prize: prizeOf };

  const { width, height } = art.geometry;
  const cssWidth = Math.max(200, Math.min(host.clientWidth || MAX_WIDTH, MAX_WIDTH));
  const scale = cssWidth / width;
  const app = new Application();
  await app.init({
    width: cssWidth,
    height: Math.round(height * scale),
    backgroundAlpha: 0,
    antialias: true,
    autoStart: false,
    autoDensity: true,
    resolution: Math.min(window.devicePixelRatio || 1, 2),
    preference: 'webgl',
  });
  app.ticker.stop();
  const view = new CardView(art, context, defaultConfig);
  view.showCard(card);
  if (round.level > 0) {
    view.highlightWin(card, false);
    view.showResult(true, { title: i18n.t('wonBanner'), detail: prizeOf(round.level) }, false);
  } else {
    view.showResult(false, { title: i18n.t('lostBanner'), detail: '' }, false);
  }
  view.update(0);
  view.scale.set(scale);
  app.stage.addChild(view);
  app.canvas.setAttribute('aria-hidden', 'true');
  host.replaceChildren(app.canvas);
  app.render();
  return () => app.destroy(true, { children: true });
}
