import { Container } from 'pixi.js';
import type { Rect } from '../models/model-art.ts';

/** Where the screen may draw: the whole canvas, and the slot the HTML layout leaves for the card. */
export interface Viewport {
  width: number;
  height: number;
  slot: Rect;
}

/**
 * A screen of the page: shown and hidden by the navigation, advanced each frame, laid out on resize.
 * `update` says whether anything changed, so a still page is not redrawn 60 times a second.
 */
export interface Screen {
  readonly view: Container;
  show(): void;
  hide(): void;
  update(deltaMs: number): boolean;
  resize(viewport: Viewport): void;
}

/** Holds the current screen on the stage and passes it the frame ticks and the viewport. */
export class Navigation {
  readonly root = new Container();
  private current: Screen | undefined;
  private changed = true;
  private viewport: Viewport = { width: 1, height: 1, slot: { x: 0, y: 0, width: 1, height: 1 } };

  get screen(): Screen | undefined {
    return this.current;
  }

  goTo(screen: Screen): void {
    if (screen === this.current) return;
    if (this.current) {
      this.current.hide();
      this.root.removeChild(this.current.view);
    }
    this.current = screen;
    this.root.addChild(screen.view);
    screen.resize(this.viewport);
    screen.show();
    this.changed = true;
  }

  /** Advances the current screen; true when the stage needs drawing. */
  update(deltaMs: number): boolean {
    const moved = this.current?.update(deltaMs) ?? false;
    const changed = this.changed || moved;
    this.changed = false;
    return changed;
  }

  resize(viewport: Viewport): void {
    this.viewport = viewport;
    this.current?.resize(viewport);
    this.changed = true;
  }
}
