import { Container, Graphics } from 'pixi.js';
import type { FoilSpec } from '../../scratch/foil-painter.ts';
import { cardBody, cellRect, insetFrame, prizePlate, wheel } from '../card-parts.ts';
import { fittedLabel, SERIF, vertical } from '../draw-kit.ts';
import type { CardCell, CardGeometry, DrawContext, ModelArt, Palette, Rect } from '../model-art.ts';
import { cargoIcon, rails } from './cargo-icons.ts';

/**
 * Trem de Ouro: Locomotiva. Dusk in the mountains: a golden diesel locomotive pulls five wine-red
 * boxcars along a track that winds back on itself; the locomotive shows the cargo to match.
 */

const PLAY = { x: 30, y: 176, width: 620, height: 580 };
const ROW_HEIGHT = 224;
const TOP = PLAY.y + 22;
const BOTTOM = PLAY.y + 318;

/** The train winds: locomotive, wagons 1–2 left to right, then wagons 3–5 right to left. */
const LOCOMOTIVE: Rect = { x: 44, y: TOP, width: 220, height: ROW_HEIGHT };
const WAGONS: Rect[] = [
  { x: 280, y: TOP, width: 170, height: ROW_HEIGHT },
  { x: 466, y: TOP, width: 170, height: ROW_HEIGHT },
  { x: 466, y: BOTTOM, width: 170, height: ROW_HEIGHT },
  { x: 280, y: BOTTOM, width: 170, height: ROW_HEIGHT },
  { x: 94, y: BOTTOM, width: 170, height: ROW_HEIGHT },
];

const geometry: CardGeometry = { width: 680, height: 790, play: PLAY, cells: WAGONS, extras: [LOCOMOTIVE] };

const palette: Palette = {
  page: {
    top: '#2d1b54',
    bottom: '#7a1f2b',
    text: '#fff3c4',
    panel: 'rgba(20, 8, 16, 0.82)',
    panelText: '#ffe2a8',
    accent: '#ffb74d',
    accentText: '#1f1000',
  },
  win: 0x00e5ff,
  confetti: [0xffb74d, 0xffe2a8, 0x00e5ff, 0xff7043, 0x7e57c2],
  banner: { fill: 0x00acc1, text: 0xffffff, lossFill: 0xffe2a8, lossText: 0x5a3300 },
};

function mountains(g: Graphics, width: number, base: number): void {
  g.poly([
    0,
    base,
    90,
    base - 120,
    170,
    base - 40,
    260,
    base - 160,
    360,
    base - 50,
    450,
    base - 140,
    560,
    base - 30,
    width,
    base - 110,
    width,
    base,
    0,
    base,
  ]).fill(0x3a1f3f);
  g.poly([0, base, 60, base - 60, 140, base - 10, 230, base - 90, 330, base, 0, base]).fill(0x140810);
  g.poly([300, base, 420, base - 80, 520, base - 20, 600, base - 70, width, base - 20, width, base]).fill(
    0x1f1000,
  );
}

function drawCard(context: DrawContext): Container {
  const card = new Container();
  const g = new Graphics();
  const { width, height } = geometry;
  cardBody(
    g,
    width,
    height,
    26,
    vertical([
      [0, 0x2d1b54],
      [0.12, 0x7a1f2b],
      [0.2, 0xff7043],
      [0.24, 0xffb74d],
      [0.25, 0x3a1f3f],
      [1, 0x1a0d1f],
    ]),
    0.3,
  );
  g.circle(width * 0.72, 170, 40).fill({ color: 0xfff3c4, alpha: 0.85 });
  mountains(g, width, 200);
  insetFrame(g, width, height, 6, 22, { color: 0xffb74d, width: 6 });
  insetFrame(g, width, height, 14, 16, { color: 0x5a3300, width: 2 });
  card.addChild(g);
  card.addChild(
    fittedLabel(
      'Trem de Ouro',
      {
        fontFamily: SERIF,
        fontSize: 62,
        fontWeight: '900',
        fill: 0xffd27a,
        stroke: { color: 0x2d1b54, width: 8 },
      },
      width / 2,
      66,
      520,
      80,
    ),
  );
  card.addChild(
    fittedLabel(
      'LOCOMOTIVA',
      { fontSize: 24, fill: 0x2d1b54, stroke: { color: 0xffe2a8, width: 5 }, letterSpacing: 8 },
      width / 2,
      122,
      320,
      32,
    ),
  );
  // The track under the train, turning back on the right.
  const track = new Graphics();
  rails(track, 40, TOP + ROW_HEIGHT + 18, 600, { sleeper: 0x4e342e, rail: 0xbcaaa4 });
  rails(track, 90, BOTTOM + ROW_HEIGHT + 18, 550, { sleeper: 0x4e342e, rail: 0xbcaaa4 });
  // The turn back, along the card's right edge.
  const upper = TOP + ROW_HEIGHT + 24;
  const lower = BOTTOM + ROW_HEIGHT + 24;
  for (const inset of [0, 12]) {
    track
      .moveTo(640, upper - 6 + inset)
      .quadraticCurveTo(662 - inset, upper - 6 + inset, 662 - inset, upper + 20)
      .lineTo(662 - inset, lower - 20)
      .quadraticCurveTo(662 - inset, lower - 6 + 12 - inset, 640, lower - 6 + 12 - inset)
      .stroke({ color: 0xbcaaa4, width: 4 });
  }
  card.addChild(track);
  void context;
  return card;
}

/** A wine-red boxcar: the cargo in its hatch, the prize on a brass plate. */
function drawCell(cell: CardCell, index: number, context: DrawContext): Container {
  const rect = cellRect(geometry, index);
  const node = new Container();
  if (!rect) return node;
  const { width, height } = rect;
  const g = new Graphics();
  g.roundRect(0, 0, width, height - 26, 12)
    .fill(0x6e1f2e)
    .stroke({ color: 0xffb74d, width: 4 });
  for (let x = 16; x < width - 8; x += 22)
    g.rect(x, 8, 2, height - 42).fill({ color: 0x000000, alpha: 0.25 });
  g.roundRect(14, 12, width - 28, height * 0.5, 10)
    .fill(0xffe2a8)
    .stroke({ color: 0x5a3300, width: 3 });
  for (const x of [34, width - 34]) wheel(g, x, height - 16, 15, 5, 0x1f1000, 0xffb74d);
  node.addChild(g);
  const icon = cargoIcon(cell.symbol, height * 0.44);
  icon.position.set(width / 2, 12 + height * 0.25);
  node.addChild(icon);
  node.addChild(
    ...prizePlate(
      context.prize(cell.prizeLevel ?? 1),
      {
        x: 12,
        y: height * 0.5 + 24,
        width: width - 24,
        height: 44,
        radius: 8,
        fill: 0xffd27a,
        stroke: { color: 0x5a3300, width: 2 },
      },
      { fontSize: 30, fill: 0x2d1b54 },
    ),
  );
  return node;
}

/** The golden diesel locomotive, its cargo shown in the emblem on its side. */
function drawExtra(cell: CardCell): Container {
  const { width, height } = LOCOMOTIVE;
  const node = new Container();
  const g = new Graphics();
  g.roundRect(8, 40, width - 16, height - 80, 18)
    .fill(0xffb300)
    .stroke({ color: 0x5a3300, width: 4 });
  g.poly([width - 8, 60, width + 6, 110, width + 6, height - 40, width - 8, height - 40]).fill(0xff8f00);
  g.roundRect(20, 18, width * 0.42, 40, 8)
    .fill(0xffb300)
    .stroke({ color: 0x5a3300, width: 3 });
  g.rect(30, 26, width * 0.14, 22).fill(0x2d1b54);
  g.rect(34 + width * 0.16, 26, width * 0.14, 22).fill(0x2d1b54);
  g.rect(8, height - 70, width - 16, 10).fill(0x7a1f2b);
  g.circle(width - 4, 78, 9).fill(0xfff3c4);
  for (const x of [40, 80, width - 80, width - 40]) wheel(g, x, height - 30, 17, 6, 0x1f1000, 0xffb74d);
  g.circle(width / 2, height / 2 + 4, 54)
    .fill(0xfff3c4)
    .stroke({ color: 0x5a3300, width: 4 });
  node.addChild(g);
  const icon = cargoIcon(cell.symbol, 84);
  icon.position.set(width / 2, height / 2 + 4);
  node.addChild(icon);
  return node;
}

const foilSpec: FoilSpec = {
  stops: [
    [0, '#7a4318'],
    [0.45, '#e0a96d'],
    [0.55, '#c98c4d'],
    [1, '#5e3212'],
  ],
  ink: '#2d1b54',
  inkStroke: '#ffe2a8',
  pattern(context, width, height) {
    // Mountain ridges.
    context.strokeStyle = 'rgba(255, 226, 168, 0.3)';
    context.lineWidth = 3;
    for (let y = 60; y < height; y += 90) {
      context.beginPath();
      for (let x = 0; x <= width; x += 40) context.lineTo(x, y + (x % 80 === 0 ? 0 : -26));
      context.stroke();
    }
  },
};

export const tremDeOuroV2Art: ModelArt = {
  model: 'trem-de-ouro-v2',
  palette,
  geometry,
  drawCard,
  drawCell,
  drawExtra,
  foil: foilSpec,
  icon: (symbolId, size) => cargoIcon(symbolId, size),
};
