// The card of a level drawn by the player's page's own renderer (apps/game's StillCard and model
// art), loaded only when the preview is shown: Pixi is large and the figures do not need it.
import { type Card, type Ladder, layoutCard, seededRng } from '@raspa/core';
import { createI18n } from '@raspa/game/i18n';
import type { DrawContext } from '@raspa/game/model-art';
import { MODEL_ART } from '@raspa/game/models';
import { StillCard } from '@raspa/game/still-card';
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
  private constructor(private readonly still: StillCard) {}

  /** A Pixi application in `host`; rejects when the browser cannot draw (no WebGL). */
  static async create(host: HTMLElement): Promise<CardPreview> {
    return new CardPreview(await StillCard.create(host));
  }

  /** Draws the card of a level revealed, its win outlined and the result banner on, as a player sees it at the end. */
  show(request: PreviewRequest): Card {
    const { ladder, level, lang, variant } = request;
    const i18n = createI18n(lang, ladder.currency);
    const prize = (at: number) => ladder.levels.find((each) => each.level === at)?.prize ?? 0;
    const context: DrawContext = { i18n, prize: (at) => i18n.money(prize(at)) };
    const card = layoutCard(ladder.gameModel, ladder, level, seededRng(variant * 97 + level));
    this.still.show(MODEL_ART[ladder.gameModel], context, card, {
      won: level > 0,
      title: i18n.t(level > 0 ? 'wonBanner' : 'lostBanner'),
      detail: level > 0 ? i18n.money(prize(level)) : '',
    });
    return card;
  }

  destroy(): void {
    this.still.destroy();
  }
}
