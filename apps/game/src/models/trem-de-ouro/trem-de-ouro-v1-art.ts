import { Container, Graphics } from 'pixi.js';
import type { FoilSpec } from '../../scratch/foil-painter.ts';
import { cardBody, cellRect, insetFrame, symbolTile, wheel } from '../card-parts.ts';
import { fittedLabel, SERIF, vertical } from '../draw-kit.ts';
import type { CardCell, CardGeometry, DrawContext, ModelArt, Palette, Rect } from '../model-art.ts';
import { cargoIcon, rails } from './cargo-icons.ts';

/**
 * Trem de Ouro: Vagões. Daytime and steam: a clear sky, a golden steam engine puffing white smoke,
 * three wooden wagons with red trim, each carrying three cargoes.
 */

const WIDTH = 640;
const PLAY = { x: 30, y: 186, width: 580, height: 600 };
const WAGON_HEIGHT = 200;

function wagonBody(row: number): Rect {
  return { x: PLAY.x + 10, y: PLAY.y + row * WAGON_HEIGHT + 8, width: PLAY.width - 20, height: 150 };
}

function cellRects(): Rect[] {
  const rects: Rect[] = [];
  for (let row = 0; row < 3; row++) {
    const body = wagonBody(row);
    const width = 166;
    const gap = 12;
    const left = body.x + (body.width - (3 * width + 2 * gap)) / 2;
    for (let col = 0; col < 3; col++) {
      rects.push({ x: left + col * (width + gap), y: body.y + 14, width, height: 122 });
    }
  }
  return rects;
}

const geometry: CardGeometry = { width: WIDTH, height: 820, play: PLAY, cells: cellRects(), extras: [] };

const palette: Palette = {
  page: {
    top: '#62c6f5',
    bottom: '#1c5d8c',
    text: '#ffffff',
    panel: 'rgba(62, 39, 35, 0.85)',
    panelText: '#fff8e1',
    accent: '#ffc107',
    accentText: '#3e2723',
  },
  win: 0xd50000,
  confetti: [0xffc107, 0xc62828, 0xffffff, 0x6b4500, 0x4fc3f7],
  banner: { fill: 0xc62828, text: 0xffffff, lossFill: 0xfff8e1, lossText: 0x5d3a00 },
};

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
      [0, 0x7fd0ff],
      [0.5, 0xd9f1ff],
      [1, 0xf3e5c0],
    ]),
    0.25,
  );
  // Clouds and the steam engine's smoke.
  for (const [x, y, r] of [
    [90, 60, 22],
    [118, 50, 28],
    [150, 62, 20],
    [520, 150, 16],
    [546, 140, 22],
  ] as const) {
    g.circle(x, y, r).fill({ color: 0xffffff, alpha: 0.9 });
  }
  insetFrame(g, width, height, 6, 22, { color: 0x6b4500, width: 10 });
  insetFrame(g, width, height, 16, 16, { color: 0xc62828, width: 3 });
  rails(g, 24, height - 30, width - 48, { sleeper: 0x6d4c41, rail: 0x757575 });
  card.addChild(g);
  const engine = cargoIcon('locomotiva-dourada', 92);
  engine.position.set(width - 78, 92);
  card.addChild(engine);
  card.addChild(
    fittedLabel(
      'Trem de Ouro',
      {
        fontFamily: SERIF,
        fontSize: 64,
        fontWeight: '900',
        fill: 0xffc107,
        stroke: { color: 0x5d3a00, width: 8 },
      },
      width / 2 - 30,
      80,
      420,
      80,
    ),
  );
  card.addChild(
    fittedLabel(
      'VAGÕES',
      { fontSize: 26, fill: 0xffffff, stroke: { color: 0xc62828, width: 6 }, letterSpacing: 8 },
      width / 2 - 30,
      138,
      300,
      34,
    ),
  );
  // Three wooden wagons on the track, waiting for their cargo.
  const wagons = new Graphics();
  for (let row = 0; row < 3; row++) {
    const body = wagonBody(row);
    wagons.roundRect(body.x, body.y, body.width, body.height, 10).fill(0x8d5a2b);
    for (let y = body.y + 12; y < body.y + body.height; y += 18) {
      wagons.rect(body.x + 4, y, body.width - 8, 2).fill({ color: 0x5d3a1a, alpha: 0.6 });
    }
    wagons.roundRect(body.x, body.y, body.width, body.height, 10).stroke({ color: 0xc62828, width: 5 });
    for (const x of [body.x + 60, body.x + 130, body.x + body.width - 130, body.x + body.width - 60]) {
      wheel(wagons, x, body.y + body.height + 14, 16, 6, 0x3e2723, 0xffc107);
    }
  }
  card.addChild(wagons);
  void context;
  return card;
}

function drawCell(cell: CardCell, index: number): Container {
  const rect = cellRect(geometry, index);
  if (!rect) return new Container();
  return symbolTile(rect, 12, 0xfff8e1, { color: 0x5d3a00, width: 3 }, 0.8, (size) =>
    cargoIcon(cell.symbol, size),
  );
}

const foilSpec: FoilSpec = {
  stops: [
    [0, '#8c96a3'],
    [0.4, '#e9eef3'],
    [0.6, '#c2cad3'],
    [1, '#76818e'],
  ],
  ink: '#3e2723',
  inkStroke: '#ffffff',
  pattern(context, width) {
    // Three tracks, one under each wagon.
    for (let row = 0; row < 3; row++) {
      const y = row * WAGON_HEIGHT + 170;
      context.fillStyle = 'rgba(107, 118, 130, 0.8)';
      for (let x = 22; x < width - 22; x += 22) context.fillRect(x, y - 6, 10, 22);
      context.fillStyle = '#59636e';
      context.fillRect(16, y - 2, width - 32, 4);
      context.fillRect(16, y + 10, width - 32, 4);
    }
  },
};

function icon(symbolId: string, size: number): Container {
  return cargoIcon(symbolId, size);
}

export const tremDeOuroV1Art: ModelArt = {
  model: 'trem-de-ouro-v1',
  palette,
  geometry,
  drawCard,
  drawCell,
  drawExtra: () => new Container(),
  foil: foilSpec,
  icon,
};
