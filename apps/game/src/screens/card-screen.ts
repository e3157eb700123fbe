import { Container, type Renderer } from 'pixi.js';
import { type Card, CardView } from '../card/card-view.ts';
import type { GameConfig } from '../config.ts';
import { Confetti } from '../fx/confetti.ts';
import type { DrawContext, ModelArt } from '../models/model-art.ts';
import { ScratchFoil } from '../scratch/scratch-foil.ts';
import type { Screen, Viewport } from './navigation.ts';

/**
 * The play screen: the model's card fitted into the slot the HTML layout leaves for it, the foil
 * laid exactly over its play area, and confetti over everything for a win.
 */
export class CardScreen implements Screen {
  readonly view = new Container();
  readonly card: CardView;
  readonly foil: ScratchFoil;
  private readonly confetti: Confetti;
  private viewport: Viewport | undefined;

  constructor(
    foilHost: HTMLElement,
    art: ModelArt,
    renderer: Renderer,
    private readonly context: DrawContext,
    private readonly config: GameConfig,
  ) {
    this.card = new CardView(art, context, config);
    this.confetti = new Confetti(renderer);
    this.view.addChild(this.card, this.confetti);
    const { play } = art.geometry;
    this.foil = new ScratchFoil(foilHost, play.width, play.height, config.scratch);
    this.foil.setLabel(context.i18n.t('scratchArea'));
  }

  /** A round's card under fresh foil, or the empty card under foil before the first buy. */
  showCard(card: Card | null): void {
    this.card.showCard(card);
    this.foil.cover(this.card.art.foil, this.context.i18n.t('scratchHere'));
  }

  show(): void {
    this.view.visible = true;
  }

  hide(): void {
    this.view.visible = false;
    this.confetti.stop();
  }

  update(deltaMs: number): boolean {
    this.foil.update(deltaMs);
    const card = this.card.update(deltaMs);
    const confetti = this.confetti.update(deltaMs);
    return card || confetti;
  }

  resize(viewport: Viewport): void {
    this.viewport = viewport;
    const { slot } = viewport;
    const { width, height, play } = this.card.art.geometry;
    const scale = Math.max(0.1, Math.min(slot.width / width, slot.height / height));
    this.card.scale.set(scale);
    this.card.position.set(
      Math.round(slot.x + (slot.width - width * scale) / 2),
      Math.round(slot.y + (slot.height - height * scale) / 2),
    );
    this.foil.place({
      x: this.card.x + play.x * scale,
      y: this.card.y + play.y * scale,
      width: play.width * scale,
      height: play.height * scale,
    });
  }

  celebrate(colors: readonly number[]): void {
    if (!this.viewport) return;
    const { confettiCount, confettiMs } = this.config.celebrate;
    this.confetti.burst(this.viewport.width, this.viewport.height, colors, confettiCount, confettiMs);
  }

  destroy(): void {
    this.confetti.stop();
    this.foil.destroy();
    this.view.destroy({ children: true });
  }
}
