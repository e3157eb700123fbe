import type { CardModelInfo } from '@raspa/core';
import { Container, type Renderer } from 'pixi.js';
import type { ModelArt } from './model-art.ts';

/**
 * The model's symbols as small images for the HTML prize table, drawn by the same Pixi art as the
 * card (data URLs, so the table needs no image files).
 */
export function iconImages(
  renderer: Renderer,
  art: ModelArt,
  info: CardModelInfo,
  size = 56,
): Map<string, string> {
  const images = new Map<string, string>();
  for (const symbol of info.symbols) {
    if (symbol.level === undefined) continue;
    const icon = art.icon(symbol.id, size);
    if (!icon) continue;
    const holder = new Container();
    icon.position.set(size / 2, size / 2);
    holder.addChild(icon);
    const canvas = renderer.extract.canvas({ target: holder, resolution: 1 });
    const url = (canvas as HTMLCanvasElement).toDataURL?.('image/png');
    if (url) images.set(symbol.id, url);
    holder.destroy({ children: true });
  }
  return images;
}
