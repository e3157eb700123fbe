import {
  Container,
  type FillInput,
  type Graphics,
  type StrokeInput,
  type Text,
  type TextStyleOptions,
} from 'pixi.js';
import { fittedLabel, panel } from './draw-kit.ts';
import type { CardGeometry, Rect } from './model-art.ts';

/** Larger pieces of card art that several models share: card bodies, frames, boards, tiles, plates. */

/** A rounded rect of width × height at 0,0 over a black shadow offset by (dx, dy). */
export function raisedRect(
  g: Graphics,
  width: number,
  height: number,
  radius: number,
  fill: FillInput,
  shadow: { dx: number; dy: number; alpha: number },
): Graphics {
  g.roundRect(shadow.dx, shadow.dy, width, height, radius).fill({ color: 0x000000, alpha: shadow.alpha });
  return g.roundRect(0, 0, width, height, radius).fill(fill);
}

/** The card's body: its background with a drop shadow of the given strength under it. */
export function cardBody(
  g: Graphics,
  width: number,
  height: number,
  radius: number,
  fill: FillInput,
  shadowAlpha: number,
): Graphics {
  return raisedRect(g, width, height, radius, fill, { dx: 4, dy: 8, alpha: shadowAlpha });
}

/** A rounded frame drawn `inset` in from every edge of a width × height card. */
export function insetFrame(
  g: Graphics,
  width: number,
  height: number,
  inset: number,
  radius: number,
  stroke: StrokeInput,
): Graphics {
  return g.roundRect(inset, inset, width - inset * 2, height - inset * 2, radius).stroke(stroke);
}

/** The play area's backdrop: a shadowed panel laid over the play rect. */
export function playBoard(
  play: Rect,
  radius: number,
  fill: number,
  stroke: { color: number; width: number },
): Graphics {
  const board = panel(play.width, play.height, radius, fill, stroke);
  board.position.set(play.x, play.y);
  return board;
}

/** The rect of grid cell `index`, or the first cell's when there is no such cell. */
export function cellRect(geometry: CardGeometry, index: number): Rect | undefined {
  return geometry.cells[index] ?? geometry.cells[0];
}

/**
 * A tile of the rect's size: a framed panel with a symbol centred on it. `symbol` draws the symbol at
 * a size of `scale` × the rect's shorter side.
 */
export function symbolTile(
  rect: Rect,
  radius: number,
  fill: number,
  stroke: { color: number; width: number },
  scale: number,
  symbol: (size: number) => Container,
): Container {
  const node = new Container();
  node.addChild(panel(rect.width, rect.height, radius, fill, stroke));
  const icon = symbol(Math.min(rect.width, rect.height) * scale);
  icon.position.set(rect.width / 2, rect.height / 2);
  node.addChild(icon);
  return node;
}

/**
 * A prize plate: a small panel with its top-left corner at (x, y) and the prize written centred on
 * it, fitted 6 units inside each side horizontally and 3 vertically.
 */
export function prizePlate(
  text: string,
  plate: Rect & { radius: number; fill: number; stroke: { color: number; width: number } },
  style: TextStyleOptions,
): [Graphics, Text] {
  const back = panel(plate.width, plate.height, plate.radius, plate.fill, plate.stroke);
  back.position.set(plate.x, plate.y);
  const label = fittedLabel(
    text,
    style,
    plate.x + plate.width / 2,
    plate.y + plate.height / 2,
    plate.width - 12,
    plate.height - 6,
  );
  return [back, label];
}

/** A train wheel: a dark tyre with a coloured hub, centred at (x, y). */
export function wheel(
  g: Graphics,
  x: number,
  y: number,
  radius: number,
  hubRadius: number,
  tyre: number,
  hub: number,
): Graphics {
  g.circle(x, y, radius).fill(tyre);
  return g.circle(x, y, hubRadius).fill(hub);
}
