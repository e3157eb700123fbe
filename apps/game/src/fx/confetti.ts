import { Container, Graphics, type Renderer, Sprite, type Texture } from 'pixi.js';

interface Piece {
  sprite: Sprite;
  vx: number;
  vy: number;
  spin: number;
  wobble: number;
  phase: number;
}

/**
 * A burst of confetti over the whole screen for a win, in the model's colours. Only played when
 * the player has not asked for reduced motion. Advanced by update(), gone after `durationMs`.
 */
export class Confetti extends Container {
  private pieces: Piece[] = [];
  private elapsed = 0;
  private duration = 0;
  private readonly texture: Texture;

  constructor(renderer: Renderer) {
    super();
    const shape = new Graphics().rect(0, 0, 10, 16).fill(0xffffff);
    this.texture = renderer.generateTexture({ target: shape, resolution: 1 });
    shape.destroy();
    this.eventMode = 'none';
  }

  get running(): boolean {
    return this.pieces.length > 0;
  }

  burst(width: number, height: number, colors: readonly number[], count: number, durationMs: number): void {
    this.stop();
    this.duration = durationMs;
    this.elapsed = 0;
    for (let i = 0; i < count; i++) {
      const sprite = new Sprite(this.texture);
      sprite.anchor.set(0.5);
      sprite.tint = colors[i % colors.length] ?? 0xffffff;
      const size = 0.6 + Math.random() * 0.8;
      sprite.scale.set(size);
      // Two cannons at the bottom corners, plus a drizzle from the top.
      const fromTop = i % 3 === 0;
      const left = i % 2 === 0;
      sprite.position.set(
        fromTop ? Math.random() * width : left ? 0 : width,
        fromTop ? -20 - Math.random() * height * 0.3 : height,
      );
      const speed = (0.6 + Math.random() * 0.6) * Math.max(height, 500) * 0.0024;
      const angle = (left ? -1 : -2) * (Math.PI / 3) + (Math.random() - 0.5) * 0.5;
      this.pieces.push({
        sprite,
        vx: fromTop ? (Math.random() - 0.5) * 0.1 : Math.cos(angle) * speed,
        vy: fromTop ? Math.random() * 0.2 : Math.sin(angle) * speed,
        spin: (Math.random() - 0.5) * 0.02,
        wobble: 0.004 + Math.random() * 0.006,
        phase: Math.random() * Math.PI * 2,
      });
      this.addChild(sprite);
    }
  }

  /** True while confetti is flying. */
  update(deltaMs: number): boolean {
    if (!this.pieces.length) return false;
    this.elapsed += deltaMs;
    const fadeFrom = this.duration * 0.7;
    for (const piece of this.pieces) {
      piece.vy += 0.0012 * deltaMs; // gravity, px/ms²
      piece.vx *= 0.995;
      piece.vy = Math.min(piece.vy, 0.45);
      piece.sprite.x += piece.vx * deltaMs;
      piece.sprite.y += piece.vy * deltaMs;
      piece.sprite.rotation += piece.spin * deltaMs;
      piece.phase += piece.wobble * deltaMs;
      piece.sprite.scale.y = Math.abs(Math.sin(piece.phase)) * piece.sprite.scale.x + 0.05;
      if (this.elapsed > fadeFrom) {
        piece.sprite.alpha = Math.max(0, 1 - (this.elapsed - fadeFrom) / (this.duration - fadeFrom));
      }
    }
    if (this.elapsed >= this.duration) this.stop();
    return true;
  }

  stop(): void {
    for (const piece of this.pieces) piece.sprite.destroy();
    this.pieces = [];
    this.removeChildren();
  }
}
