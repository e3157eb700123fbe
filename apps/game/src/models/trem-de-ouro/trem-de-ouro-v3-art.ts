import { Container, Graphics } from 'pixi.js';
import type { FoilSpec } from '../../scratch/foil-painter.ts';
import { cardBody, cellRect, insetFrame, raisedRect } from '../card-parts.ts';
import { fittedLabel, gridRects, SANS, scatter, vertical } from '../draw-kit.ts';
import type { CardCell, CardGeometry, DrawContext, ModelArt, Palette, Rect } from '../model-art.ts';

/**
 * Trem de Ouro: Estações. Night in the city: a golden bullet train streaks past a lit skyline;
 * two winning station signs glow at the top, and the player's eight boarding passes below.
 */

const PLAY = { x: 30, y: 160, width: 660, height: 600 };
const STATIONS_LABEL_Y = PLAY.y + 26;
const TICKETS_LABEL_Y = PLAY.y + 214;
const SIGN = 132;

const STATIONS: Rect[] = [
  { x: 360 - 24 - SIGN, y: PLAY.y + 52, width: SIGN, height: SIGN },
  { x: 360 + 24, y: PLAY.y + 52, width: SIGN, height: SIGN },
];
const TICKETS = gridRects({ x: PLAY.x + 14, y: PLAY.y + 240, width: PLAY.width - 28, height: 346 }, 2, 4, 12);

const geometry: CardGeometry = { width: 720, height: 800, play: PLAY, cells: TICKETS, extras: STATIONS };

const palette: Palette = {
  page: {
    top: '#03061a',
    bottom: '#1b2d66',
    text: '#fff6d5',
    panel: 'rgba(3, 6, 26, 0.85)',
    panelText: '#fff6d5',
    accent: '#ffd54a',
    accentText: '#03061a',
  },
  win: 0x00e676,
  confetti: [0xffd54a, 0x00e676, 0x40c4ff, 0xffffff, 0xff4081],
  banner: { fill: 0xffd54a, text: 0x03061a, lossFill: 0x1b2d66, lossText: 0xfff6d5 },
};

function skyline(g: Graphics, width: number, base: number): void {
  const blocks = [
    [20, 60, 90],
    [84, 40, 140],
    [128, 70, 70],
    [202, 36, 170],
    [242, 80, 110],
    [326, 50, 150],
    [380, 64, 90],
    [448, 44, 180],
    [496, 70, 120],
    [570, 40, 150],
    [614, 86, 96],
  ] as const;
  for (const [x, w, h] of blocks) {
    if (x + w > width - 10) continue;
    g.rect(x, base - h, w, h).fill(0x1b2d66);
    for (let wy = base - h + 10; wy < base - 8; wy += 16) {
      for (let wx = x + 6; wx < x + w - 8; wx += 12) {
        if ((wx * 7 + wy * 3) % 5 < 2) g.rect(wx, wy, 5, 7).fill({ color: 0xffd54a, alpha: 0.8 });
      }
    }
  }
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
      [0, 0x03061a],
      [0.6, 0x0b1238],
      [1, 0x14225a],
    ]),
    0.4,
  );
  scatter(40, { x: 20, y: 16, width: width - 40, height: 120 }, 3, (x, y, _i, random) => {
    g.circle(x, y, 1 + random() * 1.6).fill({ color: 0xffffff, alpha: 0.5 + random() * 0.5 });
  });
  skyline(g, width, height - 16);
  // The bullet train streaking under the title.
  g.moveTo(60, 134)
    .lineTo(560, 134)
    .bezierCurveTo(640, 134, 660, 118, 664, 108)
    .lineTo(600, 104)
    .lineTo(60, 104)
    .fill(0xffd54a);
  g.rect(60, 114, 500, 6).fill(0x03061a);
  for (let x = 80; x < 540; x += 34) g.roundRect(x, 108, 20, 5, 2).fill({ color: 0x40c4ff, alpha: 0.9 });
  for (let i = 0; i < 4; i++) g.rect(0, 108 + i * 8, 50 - i * 10, 2).fill({ color: 0xffd54a, alpha: 0.6 });
  insetFrame(g, width, height, 6, 22, { color: 0xffd54a, width: 4 });
  insetFrame(g, width, height, 14, 16, { color: 0x40c4ff, width: 2, alpha: 0.6 });
  card.addChild(g);
  card.addChild(
    fittedLabel(
      'TREM DE OURO',
      {
        fontSize: 58,
        fontStyle: 'italic',
        fill: 0xffd54a,
        stroke: { color: 0x03061a, width: 6 },
        letterSpacing: 4,
      },
      width / 2,
      52,
      560,
      70,
    ),
  );
  card.addChild(
    fittedLabel('ESTAÇÕES', { fontSize: 20, fill: 0x40c4ff, letterSpacing: 10 }, width / 2, 90, 260, 24),
  );
  // Under the foil: the two rows' headings and a platform line.
  const plate = new Graphics();
  plate
    .roundRect(PLAY.x, PLAY.y, PLAY.width, PLAY.height, 18)
    .fill(0x0d1640)
    .stroke({ color: 0xffd54a, width: 2, alpha: 0.7 });
  plate.rect(PLAY.x + 20, TICKETS_LABEL_Y - 22, PLAY.width - 40, 2).fill({ color: 0x40c4ff, alpha: 0.5 });
  card.addChild(plate);
  const heading = { fontFamily: SANS, fontSize: 22, fill: 0xfff6d5, letterSpacing: 3 };
  card.addChild(
    fittedLabel(context.i18n.t('winningStations'), heading, width / 2, STATIONS_LABEL_Y, 560, 28),
  );
  card.addChild(fittedLabel(context.i18n.t('yourTickets'), heading, width / 2, TICKETS_LABEL_Y, 560, 28));
  return card;
}

/** A boarding pass: the station number large, the prize below the tear line. */
function drawCell(cell: CardCell, index: number, context: DrawContext): Container {
  const rect = cellRect(geometry, index);
  const node = new Container();
  if (!rect) return node;
  const { width, height } = rect;
  const g = new Graphics();
  raisedRect(g, width, height, 12, 0xfff6d5, { dx: 3, dy: 5, alpha: 0.35 });
  g.rect(0, 0, width, 30).fill(0x1b2d66);
  const tear = height * 0.64;
  g.circle(0, tear, 9).fill(0x0d1640);
  g.circle(width, tear, 9).fill(0x0d1640);
  for (let x = 14; x < width - 10; x += 12) g.rect(x, tear - 1, 6, 2).fill(0x9e9e9e);
  node.addChild(g);
  node.addChild(
    fittedLabel(
      context.i18n.t('station').toUpperCase(),
      { fontSize: 15, fill: 0xffd54a, letterSpacing: 2 },
      width / 2,
      15,
      width - 16,
      22,
    ),
  );
  node.addChild(
    fittedLabel(
      String(cell.number ?? '?'),
      { fontSize: 62, fill: 0x03061a },
      width / 2,
      30 + (tear - 30) / 2,
      width - 20,
      tear - 40,
    ),
  );
  node.addChild(
    fittedLabel(
      context.prize(cell.prizeLevel ?? 1),
      { fontSize: 28, fill: 0x1b2d66 },
      width / 2,
      tear + (height - tear) / 2,
      width - 16,
      height - tear - 12,
    ),
  );
  return node;
}

/** A winning station: a glowing round sign with its number. */
function drawExtra(cell: CardCell): Container {
  const node = new Container();
  const g = new Graphics();
  const r = SIGN / 2;
  g.circle(r, r, r).fill({ color: 0xffd54a, alpha: 0.25 });
  g.circle(r, r, r - 8)
    .fill(0xffd54a)
    .stroke({ color: 0xfff6d5, width: 4 });
  g.circle(r, r, r - 20).stroke({ color: 0x03061a, width: 3 });
  node.addChild(g);
  node.addChild(
    fittedLabel(String(cell.number ?? '?'), { fontSize: 60, fill: 0x03061a }, r, r + 2, SIGN - 50, SIGN - 50),
  );
  return node;
}

const foilSpec: FoilSpec = {
  stops: [
    [0, '#1b2d66'],
    [0.45, '#8fa3c7'],
    [0.55, '#6d82ad'],
    [1, '#14225a'],
  ],
  ink: '#ffd54a',
  inkStroke: '#03061a',
  pattern(context, width, height) {
    // A neon grid, like a departures board at night.
    context.fillStyle = 'rgba(64, 196, 255, 0.25)';
    for (let x = 0; x < width; x += 44) context.fillRect(x, 0, 1, height);
    for (let y = 0; y < height; y += 44) context.fillRect(0, y, width, 1);
  },
};

export const tremDeOuroV3Art: ModelArt = {
  model: 'trem-de-ouro-v3',
  palette,
  geometry,
  drawCard,
  drawCell,
  drawExtra,
  foil: foilSpec,
  icon: () => undefined,
};
