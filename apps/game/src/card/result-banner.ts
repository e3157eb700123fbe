import { Container, Graphics } from 'pixi.js';
import { fittedLabel } from '../models/draw-kit.ts';
import type { ModelArt } from '../models/model-art.ts';

/** The ribbon across the card after the reveal: the prize on a win, a kind word on a loss. */
export class ResultBanner extends Container {
  private elapsed = 0;
  private popping = false;

  constructor(
    private readonly art: ModelArt,
    private readonly popMs: number,
  ) {
    super();
    this.visible = false;
  }

  show(won: boolean, lines: { title: string; detail: string }, animate: boolean): void {
    for (const child of this.removeChildren()) child.destroy({ children: true });
    const { banner } = this.art.palette;
    const width = Math.min(this.art.geometry.play.width - 20, 520);
    const height = won ? 150 : 110;
    const g = new Graphics();
    g.roundRect(-width / 2 + 4, -height / 2 + 8, width, height, 26).fill({ color: 0x000000, alpha: 0.3 });
    g.roundRect(-width / 2, -height / 2, width, height, 26).fill(won ? banner.fill : banner.lossFill);
    g.roundRect(-width / 2 + 8, -height / 2 + 8, width - 16, height - 16, 20).stroke({
      color: won ? banner.text : banner.lossText,
      width: 3,
      alpha: 0.6,
    });
    this.addChild(g);
    const ink = won ? banner.text : banner.lossText;
    if (won) {
      this.addChild(
        fittedLabel(lines.title, { fontSize: 44, fill: ink, letterSpacing: 3 }, 0, -30, width - 40, 56),
      );
      this.addChild(fittedLabel(lines.detail, { fontSize: 56, fill: ink }, 0, 32, width - 40, 66));
    } else {
      this.addChild(fittedLabel(lines.title, { fontSize: 44, fill: ink }, 0, 0, width - 40, 70));
    }
    this.visible = true;
    this.popping = animate;
    this.elapsed = 0;
    this.scale.set(animate ? 0.4 : 1);
    this.alpha = animate ? 0 : 1;
  }

  hide(): void {
    this.visible = false;
    this.popping = false;
  }

  /** True while the banner pops in. */
  update(deltaMs: number): boolean {
    if (!this.popping) return false;
    this.elapsed += deltaMs;
    const t = Math.min(1, this.elapsed / this.popMs);
    // Ease out with a small overshoot.
    const back = 1.7;
    const eased = 1 + (back + 1) * (t - 1) ** 3 + back * (t - 1) ** 2;
    this.scale.set(0.4 + 0.6 * eased);
    this.alpha = Math.min(1, t * 2);
    if (t >= 1) this.popping = false;
    return true;
  }
}
