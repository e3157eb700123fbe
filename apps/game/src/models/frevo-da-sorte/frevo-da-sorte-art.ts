import { CARD_MODELS } from '@raspa/core';
import { Color, Container, Graphics } from 'pixi.js';
import { type FoilSpec, scatterPoints } from '../../scratch/foil-painter.ts';
import { cardBody, cellRect, playBoard, symbolTile } from '../card-parts.ts';
import { cssColor, fittedLabel, gridRects, SANS, scatter, shade, sparkle } from '../draw-kit.ts';
import type { CardCell, CardGeometry, DrawContext, ModelArt, Palette } from '../model-art.ts';

/**
 * Frevo da Sorte: Recife's carnival. Little frevo umbrellas in eight colours on a white card with a
 * striped border in the umbrellas' colours, under a shower of confetti.
 */

const PLAY = { x: 30, y: 166, width: 640, height: 524 };

const geometry: CardGeometry = {
  width: 700,
  height: 730,
  play: PLAY,
  cells: gridRects(
    { x: PLAY.x + 12, y: PLAY.y + 12, width: PLAY.width - 24, height: PLAY.height - 24 },
    3,
    4,
    12,
  ),
  extras: [],
};

const STRIPES = [0x43a047, 0x1e88e5, 0xfdd835, 0xf07a10, 0xe53935, 0xe8559a, 0x8e24aa];

const palette: Palette = {
  page: {
    top: '#e53935',
    bottom: '#6a1b9a',
    text: '#ffffff',
    panel: 'rgba(60, 10, 50, 0.82)',
    panelText: '#fffde7',
    accent: '#fdd835',
    accentText: '#3b1d0e',
  },
  win: 0x2962ff,
  confetti: [0x43a047, 0x1e88e5, 0xfdd835, 0xe53935, 0x8e24aa, 0xffffff],
  banner: { fill: 0x2962ff, text: 0xffffff, lossFill: 0xfffde7, lossText: 0x8e1446 },
};

/** The colour of an umbrella symbol, from the core's metadata. */
const COLOURS = new Map(
  CARD_MODELS['frevo-da-sorte'].symbols.map((symbol) => [
    symbol.id,
    new Color(symbol.color ?? '#999999').toNumber(),
  ]),
);

/** A frevo umbrella (sombrinha) of one colour, centred at 0,0 in a size × size box. */
export function umbrella(color: number, size: number, golden = false): Container {
  const g = new Graphics();
  const r = size * 0.46;
  const cy = size * 0.02;
  const segments = 6;
  // The canopy: alternating segments, then a scalloped rim.
  for (let i = 0; i < segments; i++) {
    const from = Math.PI + (i / segments) * Math.PI;
    const to = Math.PI + ((i + 1) / segments) * Math.PI;
    g.moveTo(0, cy)
      .arc(0, cy, r, from, to)
      .lineTo(0, cy)
      .fill(i % 2 === 0 ? color : shade(color, 0.35));
  }
  for (let i = 0; i < segments; i++) {
    const x = -r + (r * 2 * (i + 0.5)) / segments;
    g.circle(x, cy, r / segments).fill(i % 2 === 0 ? color : shade(color, 0.35));
  }
  g.moveTo(0, cy)
    .arc(0, cy, r, Math.PI, 0)
    .stroke({ color: shade(color, -0.4), width: Math.max(1.5, size * 0.025) });
  g.circle(0, cy - r - size * 0.03, size * 0.04).fill(shade(color, -0.3));
  // The handle, with its hook.
  g.moveTo(0, cy)
    .lineTo(0, cy + r * 0.85)
    .stroke({ color: 0x3b1d0e, width: Math.max(2, size * 0.04), cap: 'round' });
  g.arc(-size * 0.07, cy + r * 0.85, size * 0.07, 0, Math.PI).stroke({
    color: 0x3b1d0e,
    width: Math.max(2, size * 0.04),
    cap: 'round',
  });
  if (golden) {
    sparkle(g, r * 0.85, -r * 0.7, size * 0.1, 0xfff8c4);
    sparkle(g, -r * 0.9, -r * 0.2, size * 0.07, 0xfff8c4);
  }
  const node = new Container();
  node.addChild(g);
  return node;
}

function drawCard(context: DrawContext): Container {
  const card = new Container();
  const g = new Graphics();
  const { width, height } = geometry;
  cardBody(g, width, height, 28, 0xfffdf5, 0.25);
  // A border of stripes in the umbrellas' colours.
  const stripe = 26;
  let i = 0;
  for (let x = 0; x < width; x += stripe) {
    const color = STRIPES[i++ % STRIPES.length] ?? 0xe53935;
    g.rect(x, 0, Math.min(stripe, width - x), 14).fill(color);
    g.rect(width - x - stripe, height - 14, Math.min(stripe, width - x), 14).fill(color);
  }
  for (let y = 14; y < height - 14; y += stripe) {
    const color = STRIPES[i++ % STRIPES.length] ?? 0xe53935;
    g.rect(0, y, 14, Math.min(stripe, height - 14 - y)).fill(color);
    g.rect(width - 14, y, 14, Math.min(stripe, height - 14 - y)).fill(color);
  }
  scatter(70, { x: 24, y: 20, width: width - 48, height: 134 }, 5, (x, y, index, random) => {
    const color = STRIPES[index % STRIPES.length] ?? 0xe53935;
    g.rect(x, y, 5 + random() * 5, 3 + random() * 4).fill({ color, alpha: 0.75 });
  });
  card.addChild(g);
  for (const [x, color, tilt] of [
    [72, 0xe53935, -0.35],
    [width - 72, 0x1e88e5, 0.35],
  ] as const) {
    const sombrinha = umbrella(color, 96);
    sombrinha.position.set(x, 84);
    sombrinha.rotation = tilt;
    card.addChild(sombrinha);
  }
  card.addChild(
    fittedLabel(
      'Frevo da Sorte',
      {
        fontFamily: SANS,
        fontSize: 66,
        fontWeight: '900',
        fontStyle: 'italic',
        fill: 0xe53935,
        stroke: { color: 0xfdd835, width: 10 },
      },
      width / 2,
      88,
      440,
      90,
    ),
  );
  card.addChild(playBoard(PLAY, 20, 0xfff3e0, { color: 0xf07a10, width: 3 }));
  void context;
  return card;
}

function drawCell(cell: CardCell, index: number): Container {
  const rect = cellRect(geometry, index);
  if (!rect) return new Container();
  const color = COLOURS.get(cell.symbol) ?? 0x999999;
  return symbolTile(rect, 14, 0xffffff, { color: shade(color, 0.2), width: 3 }, 0.86, (size) =>
    umbrella(color, size, cell.symbol === 'dourado'),
  );
}

const foilSpec: FoilSpec = {
  stops: [
    [0, '#f8bbd0'],
    [0.3, '#b3e5fc'],
    [0.55, '#fff59d'],
    [0.8, '#c5e1a5'],
    [1, '#e1bee7'],
  ],
  ink: '#8e1446',
  inkStroke: '#ffffff',
  pattern(context, width, height) {
    // Confetti in the umbrellas' colours.
    context.globalAlpha = 0.45;
    scatterPoints(120, width - 12, height - 12, 21).forEach(([x, y], index) => {
      context.fillStyle = cssColor(STRIPES[index % STRIPES.length] ?? 0xe53935);
      context.fillRect(x + 6, y + 6, 4 + (index % 4) * 1.5, 3 + (index % 3) * 1.5);
    });
    context.globalAlpha = 1;
  },
};

export const frevoDaSorteArt: ModelArt = {
  model: 'frevo-da-sorte',
  palette,
  geometry,
  drawCard,
  drawCell,
  drawExtra: () => new Container(),
  foil: foilSpec,
  icon: (symbolId, size) => umbrella(COLOURS.get(symbolId) ?? 0x999999, size, symbolId === 'dourado'),
};
