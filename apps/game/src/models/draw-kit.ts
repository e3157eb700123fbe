import { Container, FillGradient, Graphics, Text, type TextStyleOptions } from 'pixi.js';
import type { Rect } from './model-art.ts';

/** Small drawing helpers shared by the models' art. */

/** Text at a crisp resolution; the card is scaled, so it is rasterised at twice its size. */
export function label(text: string, style: TextStyleOptions): Text {
  const node = new Text({ text, style: { fontFamily: SANS, fontWeight: '800', ...style }, resolution: 2 });
  node.anchor.set(0.5);
  return node;
}

export const SANS = 'system-ui, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
export const SERIF = 'Georgia, "Times New Roman", serif';

/** Shrinks a node (never grows it) so it fits in width × height. */
export function fit<T extends Container>(node: T, width: number, height: number): T {
  const scale = Math.min(1, width / Math.max(1, node.width), height / Math.max(1, node.height));
  node.scale.set(scale);
  return node;
}

/** A label fitted into a box and centred at (x, y). */
export function fittedLabel(
  text: string,
  style: TextStyleOptions,
  x: number,
  y: number,
  width: number,
  height: number,
): Text {
  const node = fit(label(text, style), width, height);
  node.position.set(x, y);
  return node;
}

/** Rects of a rows × cols grid filling `area`, `gap` apart, row-major. */
export function gridRects(area: Rect, rows: number, cols: number, gap: number): Rect[] {
  const width = (area.width - gap * (cols - 1)) / cols;
  const height = (area.height - gap * (rows - 1)) / rows;
  const rects: Rect[] = [];
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      rects.push({ x: area.x + col * (width + gap), y: area.y + row * (height + gap), width, height });
    }
  }
  return rects;
}

type ColorStops = ReadonlyArray<readonly [number, number | string]>;

/** A linear gradient over the filled shape's box, from its top-left corner to `end`. */
function linear(end: { x: number; y: number }, stops: ColorStops): FillGradient {
  return new FillGradient({
    type: 'linear',
    start: { x: 0, y: 0 },
    end,
    colorStops: stops.map(([offset, color]) => ({ offset, color })),
  });
}

export function vertical(stops: ColorStops): FillGradient {
  return linear({ x: 0, y: 1 }, stops);
}

export function diagonal(stops: ColorStops): FillGradient {
  return linear({ x: 1, y: 1 }, stops);
}

/** A rounded panel with a soft drop shadow. */
export function panel(
  width: number,
  height: number,
  radius: number,
  fill: number | FillGradient,
  stroke?: { color: number; width: number },
): Graphics {
  const g = new Graphics();
  g.roundRect(3, 5, width, height, radius).fill({ color: 0x000000, alpha: 0.18 });
  g.roundRect(0, 0, width, height, radius).fill(fill);
  if (stroke) g.roundRect(0, 0, width, height, radius).stroke({ ...stroke, alignment: 1 });
  return g;
}

/** Darkens (amount < 0) or lightens (amount > 0) a colour. */
export function shade(color: number, amount: number): number {
  const channel = (shift: number) => {
    const value = (color >> shift) & 0xff;
    const target = amount < 0 ? 0 : 255;
    return Math.round(value + (target - value) * Math.abs(amount));
  };
  return (channel(16) << 16) | (channel(8) << 8) | channel(0);
}

export function cssColor(color: number): string {
  return `#${color.toString(16).padStart(6, '0')}`;
}

/** A five-pointed star centred at (x, y). */
export function star(g: Graphics, x: number, y: number, radius: number, color: number, alpha = 1): Graphics {
  return g.star(x, y, 5, radius, radius * 0.45, 0).fill({ color, alpha });
}

/** A sparkle (four-pointed star). */
export function sparkle(
  g: Graphics,
  x: number,
  y: number,
  radius: number,
  color: number,
  alpha = 1,
): Graphics {
  return g.star(x, y, 4, radius, radius * 0.28, 0).fill({ color, alpha });
}

/** Scatters `count` small shapes over a rect from a fixed seed, so decorations look the same each time. */
export function scatter(
  count: number,
  rect: Rect,
  seed: number,
  draw: (x: number, y: number, index: number, random: () => number) => void,
): void {
  let state = seed >>> 0 || 1;
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
  for (let index = 0; index < count; index++) {
    draw(rect.x + random() * rect.width, rect.y + random() * rect.height, index, random);
  }
}

/** A container holding `children`, placed at (x, y). */
export function group(x: number, y: number, ...children: Container[]): Container {
  const node = new Container();
  node.position.set(x, y);
  if (children.length) node.addChild(...children);
  return node;
}
