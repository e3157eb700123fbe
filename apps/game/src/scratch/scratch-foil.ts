import type { GameConfig } from '../config.ts';
import type { Rect } from '../models/model-art.ts';
import { CoverageGrid, strokeStamps } from './coverage-grid.ts';
import { type FoilSpec, paintFoil } from './foil-painter.ts';

/**
 * The foil over the play area, erased under any pointer (mouse, pen, fingers) by stamping a soft
 * round brush with `destination-out`. It is its own 2D canvas laid over the card, so scratching
 * never redraws the WebGL scene: where the browser composites in software (no GPU), each WebGL frame
 * is read back from the GPU process, and a redraw per pointer move would stall the page.
 * Stamps are queued by the pointer handlers and drawn once per frame in update(); the scratched
 * share comes from a coarse grid fed by the same stamps and is checked every `measureEveryMs`.
 */
export class ScratchFoil {
  /** Called once when the scratched share passes the threshold. */
  onThreshold: (() => void) | undefined;
  /** Called for each stroke step (the scratch sound, the share shown to assistive tech). */
  onScratch: (() => void) | undefined;
  /** Scratching is allowed (a card is in play). */
  enabled = false;

  readonly canvas: HTMLCanvasElement;
  private readonly context: CanvasRenderingContext2D;
  private readonly brush: HTMLCanvasElement;
  private readonly grid: CoverageGrid;
  private pending: Array<{ x: number; y: number }> = [];
  private readonly lastPoint = new Map<number, { x: number; y: number }>();
  private placed: Rect = { x: 0, y: 0, width: 1, height: 1 };
  private sinceMeasure = 0;
  private dirty = false;
  private thresholdPassed = false;
  private fade: { elapsed: number; duration: number; done: () => void } | undefined;

  constructor(
    host: HTMLElement,
    readonly areaWidth: number,
    readonly areaHeight: number,
    private readonly config: GameConfig['scratch'],
  ) {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'foil';
    this.canvas.dataset.scratchZone = '';
    this.canvas.setAttribute('role', 'img');
    this.canvas.width = Math.round(areaWidth * config.foilResolution);
    this.canvas.height = Math.round(areaHeight * config.foilResolution);
    const context = this.canvas.getContext('2d');
    if (!context) throw new Error('no 2D canvas');
    this.context = context;
    this.brush = softBrush(config.brushRadius * config.foilResolution, config.brushSoftness);
    this.grid = new CoverageGrid(areaWidth, areaHeight, config.gridCols, config.gridRows);
    this.canvas.addEventListener('pointerdown', this.down);
    this.canvas.addEventListener('pointermove', this.move);
    this.canvas.addEventListener('pointerup', this.up);
    this.canvas.addEventListener('pointercancel', this.up);
    this.canvas.addEventListener('lostpointercapture', this.up);
    host.append(this.canvas);
  }

  /** Share of the foil scratched (0..1), as the grid counts it. */
  get share(): number {
    return this.grid.share;
  }

  setLabel(text: string): void {
    this.canvas.setAttribute('aria-label', text);
  }

  /** Lays fresh foil and forgets every stroke. */
  cover(spec: FoilSpec, scratchHere: string): void {
    const scale = this.config.foilResolution;
    this.context.setTransform(scale, 0, 0, scale, 0, 0);
    paintFoil(this.context, this.areaWidth, this.areaHeight, spec, scratchHere);
    this.grid.reset();
    this.pending = [];
    this.lastPoint.clear();
    this.thresholdPassed = false;
    this.fade = undefined;
    this.canvas.dataset.share = '0.00';
    this.canvas.style.opacity = '1';
    this.canvas.hidden = false;
  }

  /** Where the play area is on the page (CSS pixels). */
  place(rect: Rect): void {
    this.placed = rect;
    const style = this.canvas.style;
    style.left = `${rect.x}px`;
    style.top = `${rect.y}px`;
    style.width = `${rect.width}px`;
    style.height = `${rect.height}px`;
  }

  /** Takes the foil away: faded over `durationMs` (0 = at once). */
  uncover(durationMs: number): Promise<void> {
    this.enabled = false;
    this.grid.fill();
    this.pending = [];
    if (durationMs <= 0 || this.canvas.hidden) {
      this.canvas.hidden = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.fade = { elapsed: 0, duration: durationMs, done: resolve };
    });
  }

  /** Draws the queued stamps, fades, and checks the threshold now and then. */
  update(deltaMs: number): void {
    if (this.pending.length > 0) this.flushStamps();
    if (this.fade) {
      this.fade.elapsed += deltaMs;
      const t = Math.min(1, this.fade.elapsed / this.fade.duration);
      this.canvas.style.opacity = String(1 - t);
      if (t >= 1) {
        const { done } = this.fade;
        this.fade = undefined;
        this.canvas.hidden = true;
        done();
      }
      return;
    }
    this.sinceMeasure += deltaMs;
    if (!this.dirty || this.sinceMeasure < this.config.measureEveryMs) return;
    this.sinceMeasure = 0;
    this.dirty = false;
    this.canvas.dataset.share = this.grid.share.toFixed(2);
    if (!this.thresholdPassed && this.grid.share >= this.config.revealAt) {
      this.thresholdPassed = true;
      this.onThreshold?.();
    }
  }

  destroy(): void {
    this.canvas.remove();
  }

  /** A pointer at (x, y) in foil units; `down` starts a new stroke. */
  private strokeTo(pointerId: number, x: number, y: number, down: boolean): void {
    const last = down ? undefined : this.lastPoint.get(pointerId);
    const spacing = this.config.brushRadius * this.config.stampSpacing;
    const points = last ? strokeStamps(last.x, last.y, x, y, spacing) : [{ x, y }];
    // The grid counts the well-scratched core of each stamp, not its soft rim.
    const counted = this.config.brushRadius * (1 - this.config.brushSoftness / 2);
    for (const point of points) {
      this.pending.push(point);
      this.grid.stamp(point.x, point.y, counted);
    }
    this.lastPoint.set(pointerId, { x, y });
    this.dirty = true;
  }

  private flushStamps(): void {
    const context = this.context;
    const scale = this.config.foilResolution;
    const size = this.brush.width;
    context.save();
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.globalCompositeOperation = 'destination-out';
    for (const point of this.pending) {
      context.drawImage(this.brush, point.x * scale - size / 2, point.y * scale - size / 2);
    }
    context.restore();
    this.pending = [];
  }

  /** The canvas is fixed where place() put it, so no layout is read per move. */
  private toFoil(event: PointerEvent): { x: number; y: number } {
    const { x, y, width, height } = this.placed;
    return {
      x: ((event.clientX - x) / width) * this.areaWidth,
      y: ((event.clientY - y) / height) * this.areaHeight,
    };
  }

  private readonly down = (event: PointerEvent) => {
    if (!this.enabled || this.fade || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    this.canvas.setPointerCapture?.(event.pointerId);
    const point = this.toFoil(event);
    this.strokeTo(event.pointerId, point.x, point.y, true);
    this.onScratch?.();
  };

  private readonly move = (event: PointerEvent) => {
    if (!this.lastPoint.has(event.pointerId) || !this.enabled || this.fade) return;
    // Coalesced events keep fast strokes continuous on high-rate pointers.
    const events = event.getCoalescedEvents?.() ?? [];
    for (const each of events.length ? events : [event]) {
      const point = this.toFoil(each);
      this.strokeTo(event.pointerId, point.x, point.y, false);
    }
    this.onScratch?.();
  };

  private readonly up = (event: PointerEvent) => {
    this.lastPoint.delete(event.pointerId);
  };
}

/** A round brush, opaque in the middle and fading to nothing at its rim (radius in canvas pixels). */
function softBrush(radius: number, softness: number): HTMLCanvasElement {
  const size = Math.ceil(radius * 2);
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const context = canvas.getContext('2d');
  if (context) {
    const half = size / 2;
    const gradient = context.createRadialGradient(half, half, 0, half, half, half);
    gradient.addColorStop(0, 'rgba(0,0,0,1)');
    gradient.addColorStop(Math.max(0, 1 - softness), 'rgba(0,0,0,1)');
    gradient.addColorStop(1, 'rgba(0,0,0,0)');
    context.fillStyle = gradient;
    context.fillRect(0, 0, size, size);
  }
  return canvas;
}
