import { Container, Graphics } from 'pixi.js';
import { type FoilSpec, scatterPoints } from '../../scratch/foil-painter.ts';
import { cardBody, cellRect, insetFrame, playBoard, symbolTile } from '../card-parts.ts';
import { fittedLabel, gridRects, panel, SERIF, scatter, vertical } from '../draw-kit.ts';
import type { CardCell, CardGeometry, DrawContext, ModelArt, Palette, Rect } from '../model-art.ts';
import { luckyAnimal } from './lucky-animals.ts';

/**
 * Fera Sortuda: lucky animals in the jungle, in the jogo do bicho's spirit: big leaves, gold coins,
 * a jaguar-spotted border, twelve animals on cream tiles and a gold bonus box where the jaguar pays.
 */

const PLAY = { x: 30, y: 166, width: 560, height: 704 };
const GRID = { x: PLAY.x + 12, y: PLAY.y + 12, width: PLAY.width - 24, height: 520 };
const BONUS: Rect = { x: PLAY.x + 12, y: PLAY.y + 548, width: PLAY.width - 24, height: 144 };

const geometry: CardGeometry = {
  width: 620,
  height: 900,
  play: PLAY,
  cells: gridRects(GRID, 4, 3, 10),
  extras: [BONUS],
};

const palette: Palette = {
  page: {
    top: '#1b5e20',
    bottom: '#031a0b',
    text: '#fffde7',
    panel: 'rgba(3, 26, 11, 0.85)',
    panelText: '#fffde7',
    accent: '#ffd54f',
    accentText: '#3b1f00',
  },
  win: 0xff1744,
  confetti: [0xffd54f, 0x43a047, 0xff9800, 0xfffde7, 0xb77c00],
  banner: { fill: 0xffd54f, text: 0x3b1f00, lossFill: 0x0f2e16, lossText: 0xffd54f },
};

function leaf(g: Graphics, x: number, y: number, length: number, angle: number, color: number): void {
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  const nx = -dy * length * 0.32;
  const ny = dx * length * 0.32;
  const tipX = x + dx * length;
  const tipY = y + dy * length;
  g.moveTo(x, y)
    .quadraticCurveTo(x + dx * length * 0.5 + nx, y + dy * length * 0.5 + ny, tipX, tipY)
    .quadraticCurveTo(x + dx * length * 0.5 - nx, y + dy * length * 0.5 - ny, x, y)
    .fill(color);
  g.moveTo(x, y).lineTo(tipX, tipY).stroke({ color: 0x0b3d1a, width: 2, alpha: 0.6 });
}

function coin(g: Graphics, x: number, y: number, r: number): void {
  g.circle(x, y, r).fill(0xffd54f).stroke({ color: 0xb77c00, width: 3 });
  g.circle(x, y, r * 0.65).stroke({ color: 0xb77c00, width: 2 });
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
      [0, 0x2e7d32],
      [0.4, 0x1b5e20],
      [1, 0x0b3d1a],
    ]),
    0.35,
  );
  // A jaguar-spotted border.
  insetFrame(g, width, height, 6, 22, { color: 0xb77c00, width: 12 });
  scatter(70, { x: 0, y: 0, width, height }, 17, (x, y) => {
    const nearEdge = x < 14 || y < 14 || x > width - 14 || y > height - 14;
    if (nearEdge) g.circle(x, y, 3).stroke({ color: 0x3b1f00, width: 2 });
  });
  for (let x = 20; x < width - 10; x += 26) {
    g.circle(x, 10, 3).stroke({ color: 0x3b1f00, width: 2 });
    g.circle(x + 10, height - 10, 3).stroke({ color: 0x3b1f00, width: 2 });
  }
  for (let y = 30; y < height - 20; y += 26) {
    g.circle(10, y, 3).stroke({ color: 0x3b1f00, width: 2 });
    g.circle(width - 10, y + 10, 3).stroke({ color: 0x3b1f00, width: 2 });
  }
  leaf(g, 18, 30, 110, 0.5, 0x43a047);
  leaf(g, 18, 30, 90, 1.1, 0x2e7d32);
  leaf(g, width - 18, 30, 110, Math.PI - 0.5, 0x43a047);
  leaf(g, width - 18, 30, 90, Math.PI - 1.1, 0x66bb6a);
  coin(g, 96, 130, 16);
  coin(g, width - 96, 128, 14);
  coin(g, width - 70, 146, 11);
  card.addChild(g);
  card.addChild(
    fittedLabel(
      'Fera Sortuda',
      {
        fontFamily: SERIF,
        fontSize: 68,
        fontWeight: '900',
        fill: 0xffd54f,
        stroke: { color: 0x3b1f00, width: 9 },
      },
      width / 2,
      86,
      420,
      90,
    ),
  );
  card.addChild(playBoard(PLAY, 20, 0x0f2e16, { color: 0xffd54f, width: 3 }));
  void context;
  return card;
}

function drawCell(cell: CardCell, index: number): Container {
  const rect = cellRect(geometry, index);
  if (!rect) return new Container();
  return symbolTile(rect, 14, 0xfffde7, { color: 0xb77c00, width: 3 }, 0.82, (size) =>
    luckyAnimal(cell.symbol, size),
  );
}

/** The bonus box: its label, the symbol (the jaguar wins) and the prize printed beside it. */
function drawExtra(cell: CardCell, _index: number, context: DrawContext): Container {
  const { width, height } = BONUS;
  const node = new Container();
  node.addChild(panel(width, height, 18, 0xffd54f, { color: 0x3b1f00, width: 4 }));
  const g = new Graphics();
  g.roundRect(10, 10, width - 20, height - 20, 12).stroke({ color: 0xb77c00, width: 2 });
  g.circle(width * 0.38, height / 2, height * 0.36)
    .fill(0xfffde7)
    .stroke({ color: 0xb77c00, width: 3 });
  node.addChild(g);
  node.addChild(
    fittedLabel(
      context.i18n.t('bonus'),
      { fontFamily: SERIF, fontSize: 40, fill: 0x3b1f00 },
      width * 0.15,
      height / 2,
      width * 0.22,
      50,
    ),
  );
  const symbol = luckyAnimal(cell.symbol, height * 0.62);
  symbol.position.set(width * 0.38, height / 2);
  node.addChild(symbol);
  node.addChild(
    fittedLabel(
      context.prize(cell.prizeLevel ?? 1),
      { fontSize: 44, fill: 0x3b1f00 },
      width * 0.75,
      height / 2,
      width * 0.42,
      60,
    ),
  );
  return node;
}

const foilSpec: FoilSpec = {
  stops: [
    [0, '#9c6a00'],
    [0.45, '#ffe082'],
    [0.55, '#ffd54f'],
    [1, '#7a5400'],
  ],
  ink: '#3b1f00',
  inkStroke: '#fffde7',
  pattern(context, width, height) {
    // Jaguar rosettes.
    context.strokeStyle = 'rgba(93, 50, 0, 0.35)';
    context.fillStyle = 'rgba(93, 50, 0, 0.3)';
    context.lineWidth = 3;
    for (const [x, y] of scatterPoints(70, width - 20, height - 20, 27)) {
      context.beginPath();
      context.arc(x + 10, y + 10, 9, 0, Math.PI * 2);
      context.stroke();
      context.beginPath();
      context.arc(x + 10, y + 10, 3, 0, Math.PI * 2);
      context.fill();
    }
  },
};

export const feraSortudaArt: ModelArt = {
  model: 'fera-sortuda',
  palette,
  geometry,
  drawCard,
  drawCell,
  drawExtra,
  foil: foilSpec,
  icon: (symbolId, size) => luckyAnimal(symbolId, size),
};
