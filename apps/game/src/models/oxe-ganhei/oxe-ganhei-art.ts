import { Container, Graphics } from 'pixi.js';
import { type FoilSpec, scatterPoints, star } from '../../scratch/foil-painter.ts';
import { cardBody, cellRect, insetFrame, playBoard } from '../card-parts.ts';
import { fittedLabel, gridRects, panel, SERIF, scatter, shade, vertical } from '../draw-kit.ts';
import type { CardCell, CardGeometry, DrawContext, ModelArt, Palette } from '../model-art.ts';

/** Oxe, Ganhei!: the sertão at noon, a blazing sun over cracked red earth, mandacaru cacti, cordel type. */

const PLAY = { x: 40, y: 176, width: 520, height: 568 };

const geometry: CardGeometry = {
  width: 600,
  height: 784,
  play: PLAY,
  cells: gridRects(
    { x: PLAY.x + 14, y: PLAY.y + 14, width: PLAY.width - 28, height: PLAY.height - 28 },
    3,
    3,
    14,
  ),
  extras: [],
};

const palette: Palette = {
  page: {
    top: '#ff8a2a',
    bottom: '#7a2d0c',
    text: '#fff8e7',
    panel: 'rgba(58, 20, 4, 0.82)',
    panelText: '#fff3d6',
    accent: '#ffd23f',
    accentText: '#3b1400',
  },
  win: 0xe91e63,
  confetti: [0xffd23f, 0xe91e63, 0x2e7d32, 0xff6a13, 0xffffff],
  banner: { fill: 0xe91e63, text: 0xffffff, lossFill: 0xfff3d6, lossText: 0x7a2d0c },
};

/** Tile colours by prize level, from pale straw to the gold of the jackpot. */
const TILE = [0xfff0c2, 0xffe3a3, 0xffd79a, 0xffc98a, 0xffb877, 0xffa46b, 0xff8f6b, 0xffd23f];

/** A mandacaru cactus standing on (x, y), `height` tall. */
function cactus(g: Graphics, x: number, y: number, height: number, color = 0x2e7d32): void {
  const w = height * 0.16;
  g.roundRect(x - w / 2, y - height, w, height, w / 2).fill(color);
  g.roundRect(x - w * 2.1, y - height * 0.62, w * 0.8, height * 0.34, w * 0.4).fill(color);
  g.roundRect(x - w * 2.1, y - height * 0.36, w * 1.7, w * 0.7, w * 0.35).fill(color);
  g.roundRect(x + w * 1.3, y - height * 0.8, w * 0.8, height * 0.4, w * 0.4).fill(color);
  g.roundRect(x + w * 0.4, y - height * 0.48, w * 1.7, w * 0.7, w * 0.35).fill(color);
}

function sun(g: Graphics, x: number, y: number, radius: number, rays: number, alpha = 1): void {
  for (let i = 0; i < rays; i++) {
    const angle = (i / rays) * Math.PI * 2;
    const spread = Math.PI / rays / 2;
    g.poly([
      x + Math.cos(angle - spread) * radius * 1.05,
      y + Math.sin(angle - spread) * radius * 1.05,
      x + Math.cos(angle) * radius * 1.8,
      y + Math.sin(angle) * radius * 1.8,
      x + Math.cos(angle + spread) * radius * 1.05,
      y + Math.sin(angle + spread) * radius * 1.05,
    ]).fill({ color: 0xfff3b0, alpha: 0.8 * alpha });
  }
  g.circle(x, y, radius).fill({ color: 0xffe45c, alpha });
  g.circle(x, y, radius * 0.7).fill({ color: 0xfffbe0, alpha: 0.6 * alpha });
}

function drawCard(context: DrawContext): Container {
  const card = new Container();
  const g = new Graphics();
  const { width, height } = geometry;
  cardBody(
    g,
    width,
    height,
    30,
    vertical([
      [0, 0xff6a13],
      [0.2, 0xffb347],
      [0.34, 0xffe08a],
      [1, 0xf0c27a],
    ]),
    0.25,
  );
  sun(g, width - 96, 78, 44, 16);
  // Cracked earth along the bottom.
  g.rect(12, height - 60, width - 24, 44).fill({ color: 0xc4581f, alpha: 0.5 });
  scatter(14, { x: 30, y: height - 56, width: width - 60, height: 30 }, 7, (x, y, _i, random) => {
    g.moveTo(x, y)
      .lineTo(x + 14 * random() + 6, y + 10 * random())
      .lineTo(x + 24 * random(), y + 18)
      .stroke({ color: 0x5a1e06, width: 2, alpha: 0.6 });
  });
  cactus(g, 44, 150, 96);
  cactus(g, width - 36, height - 20, 80, 0x3f8f3a);
  // Cordel frame: a thick woodcut border with an inner dashed line.
  insetFrame(g, width, height, 6, 26, { color: 0x7a2d0c, width: 10 });
  for (let x = 30; x < width - 30; x += 22) {
    g.rect(x, 18, 12, 3).fill({ color: 0x7a2d0c, alpha: 0.7 });
    g.rect(x, height - 21, 12, 3).fill({ color: 0x7a2d0c, alpha: 0.7 });
  }
  card.addChild(g);
  card.addChild(
    fittedLabel(
      'Oxe, Ganhei!',
      {
        fontFamily: SERIF,
        fontSize: 72,
        fontStyle: 'italic',
        fontWeight: '900',
        fill: 0x3b1400,
        stroke: { color: 0xfff3b0, width: 8 },
      },
      width / 2 - 10,
      96,
      440,
      96,
    ),
  );
  // The play area's backdrop: a sun-bleached board.
  card.addChild(playBoard(PLAY, 20, 0xf6deb0, { color: 0x7a2d0c, width: 4 }));
  void context;
  return card;
}

function drawCell(cell: CardCell, index: number, context: DrawContext): Container {
  const rect = cellRect(geometry, index);
  const level = cell.prizeLevel ?? 1;
  const node = new Container();
  if (!rect) return node;
  const color = TILE[level - 1] ?? TILE[0] ?? 0xfff0c2;
  const tile = panel(rect.width, rect.height, 16, color, { color: shade(color, -0.45), width: 3 });
  node.addChild(tile);
  const g = new Graphics();
  if (level === 8) sun(g, rect.width / 2, rect.height * 0.34, 26, 12);
  else if (level >= 5) sun(g, rect.width / 2, rect.height * 0.3, 16, 10, 0.9);
  else cactus(g, rect.width / 2, rect.height * 0.48, 52, shade(0x3f8f3a, level * 0.05));
  node.addChild(g);
  node.addChild(
    fittedLabel(
      context.prize(level),
      { fontSize: 40, fill: 0x3b1400, stroke: { color: 0xffffff, width: 4 } },
      rect.width / 2,
      rect.height * 0.74,
      rect.width - 16,
      rect.height * 0.36,
    ),
  );
  return node;
}

const foilSpec: FoilSpec = {
  stops: [
    [0, '#c9702a'],
    [0.45, '#f6c77d'],
    [0.55, '#f9d79a'],
    [1, '#a8541a'],
  ],
  ink: '#5a1e06',
  inkStroke: '#ffe7b0',
  pattern(context, width, height) {
    context.fillStyle = 'rgba(255, 243, 176, 0.35)';
    for (const [x, y] of scatterPoints(34, width - 20, height - 20, 11))
      star(context, x + 10, y + 10, 8, 11, 5);
  },
};

export const oxeGanheiArt: ModelArt = {
  model: 'oxe-ganhei',
  palette,
  geometry,
  drawCard,
  drawCell,
  drawExtra: () => new Container(),
  foil: foilSpec,
  icon: () => undefined,
};
