import { Application, type Renderer, UPDATE_PRIORITY } from 'pixi.js';
import type { GameConfig } from '../config.ts';
import { Navigation, type Screen } from '../screens/navigation.ts';

const FIRST_CARD_MARK = 'raspa:first-card';

/**
 * The Pixi side of the page: one full-window canvas under the HTML, the navigation between screens,
 * frame ticks passed down as `update(delta)`, and a redraw only on frames where something changed
 * (a still card costs nothing: battery on phones, and no GPU readbacks where compositing is in software).
 */
export class Stage {
  readonly navigation = new Navigation();
  private readonly pixi = new Application();
  private firstCardMarked = false;

  private constructor(private readonly slot: HTMLElement) {}

  /** The stage, or undefined when the browser cannot draw (no WebGL). */
  static async create(config: GameConfig, slot: HTMLElement): Promise<Stage | undefined> {
    const stage = new Stage(slot);
    try {
      await stage.pixi.init({
        width: window.innerWidth,
        height: window.innerHeight,
        backgroundAlpha: 0,
        antialias: false,
        autoDensity: true,
        resolution: Math.min(window.devicePixelRatio || 1, config.ui.maxResolution),
        preference: 'webgl',
      });
    } catch {
      return undefined;
    }
    performance.mark('raspa:pixi-ready');
    stage.attach();
    return stage;
  }

  get canvas(): HTMLCanvasElement {
    return this.pixi.canvas;
  }

  get renderer(): Renderer {
    return this.pixi.renderer;
  }

  goTo(screen: Screen): void {
    this.navigation.goTo(screen);
  }

  /**
   * Marks the first card on screen (the `raspa:first-card` performance mark, after this frame's
   * draw), then runs `then` a little later, out of the way of that first frame.
   */
  markFirstCard(then: () => void): void {
    if (this.firstCardMarked) return;
    this.firstCardMarked = true;
    // UTILITY runs after the draw (LOW) in the same tick.
    this.pixi.ticker.addOnce(
      () => {
        const mark = performance.mark(FIRST_CARD_MARK);
        document.documentElement.dataset.firstCard = String(Math.round(mark.startTime));
        window.setTimeout(then, 250);
      },
      undefined,
      UPDATE_PRIORITY.UTILITY,
    );
  }

  private attach(): void {
    this.pixi.canvas.setAttribute('aria-hidden', 'true');
    document.body.prepend(this.pixi.canvas);
    this.pixi.stage.addChild(this.navigation.root);
    this.pixi.ticker.remove(this.pixi.render, this.pixi);
    this.pixi.ticker.add(
      (ticker) => {
        if (this.navigation.update(ticker.deltaMS)) this.pixi.render();
      },
      undefined,
      UPDATE_PRIORITY.LOW,
    );
    new ResizeObserver(() => this.layout()).observe(this.slot);
    window.addEventListener('resize', () => this.layout());
    this.layout();
  }

  /** Fits the canvas to the window and tells the screen where the HTML layout left room for the card. */
  private layout(): void {
    const { renderer } = this.pixi;
    if (renderer.width !== window.innerWidth || renderer.height !== window.innerHeight) {
      renderer.resize(window.innerWidth, window.innerHeight);
    }
    const slot = this.slot.getBoundingClientRect();
    this.navigation.resize({
      width: window.innerWidth,
      height: window.innerHeight,
      slot: { x: slot.left, y: slot.top, width: slot.width, height: slot.height },
    });
  }
}
