import { Container, Graphics } from 'pixi.js';
import type { Screen, Viewport } from './navigation.ts';

/** While the page connects: a spinning coin-edged ring in the card's slot (still, with reduced motion). */
export class LoadingScreen implements Screen {
  readonly view = new Container();
  private readonly ring = new Graphics();

  constructor(private readonly reducedMotion: boolean) {
    this.ring.circle(0, 0, 34).stroke({ color: 0xffffff, width: 8, alpha: 0.25 });
    this.ring.arc(0, 0, 34, -Math.PI / 2, Math.PI / 3).stroke({ color: 0xffd23f, width: 8, cap: 'round' });
    this.view.addChild(this.ring);
  }

  show(): void {
    this.view.visible = true;
  }

  hide(): void {
    this.view.visible = false;
  }

  update(deltaMs: number): boolean {
    if (this.reducedMotion) return false;
    this.ring.rotation += deltaMs * 0.006;
    return true;
  }

  resize({ slot }: Viewport): void {
    this.ring.position.set(slot.x + slot.width / 2, slot.y + slot.height / 2);
  }
}
