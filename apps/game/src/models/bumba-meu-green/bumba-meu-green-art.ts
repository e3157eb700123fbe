import { Container, Graphics } from 'pixi.js';
import { type FoilSpec, scatterPoints } from '../../scratch/foil-painter.ts';
import { cardBody, cellRect, insetFrame, playBoard, prizePlate } from '../card-parts.ts';
import { cssColor, fittedLabel, gridRects, panel, SANS, scatter, vertical } from '../draw-kit.ts';
import type { CardCell, CardGeometry, DrawContext, ModelArt, Palette } from '../model-art.ts';
import { festivalCharacter } from './festival-characters.ts';

/**
 * Bumba Meu Green: the bumba-meu-boi festival of Maranhão at night: coloured ribbons and paper
 * flags over dark velvet embroidered with sequins, and the festival's characters beside their prizes.
 */

const PLAY = { x: 30, y: 176, width: 600, height: 470 };
const RIBBONS = [0xff1744, 0xffd600, 0x40c4ff, 0x00e676, 0xff4081, 0xffffff];

const geometry: CardGeometry = {
  width: 660,
  height: 680,
  play: PLAY,
  cells: gridRects(
    { x: PLAY.x + 14, y: PLAY.y + 14, width: PLAY.width - 28, height: PLAY.height - 28 },
    2,
    3,
    14,
  ),
  extras: [],
};

const palette: Palette = {
  page: {
    top: '#1a1a2e',
    bottom: '#0d3b66',
    text: '#ffffff',
    panel: 'rgba(26, 26, 46, 0.86)',
    panelText: '#fffde7',
    accent: '#00e676',
    accentText: '#0b2015',
  },
  win: 0x00e676,
  confetti: RIBBONS,
  banner: { fill: 0x00c853, text: 0xffffff, lossFill: 0x24244a, lossText: 0xffd600 },
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
      [0, 0x24244a],
      [1, 0x12122a],
    ]),
    0.35,
  );
  // Ribbons hanging from the top edge.
  for (let x = 24, i = 0; x < width - 20; x += 22, i++) {
    const length = 40 + ((i * 37) % 50);
    const color = RIBBONS[i % RIBBONS.length] ?? 0xffd600;
    g.moveTo(x, 10)
      .bezierCurveTo(x + 8, 10 + length * 0.4, x - 8, 10 + length * 0.7, x + 2, 10 + length)
      .stroke({ color, width: 6, alpha: 0.85, cap: 'round' });
  }
  // Paper flags on a string.
  g.moveTo(16, 150)
    .quadraticCurveTo(width / 2, 178, width - 16, 150)
    .stroke({ color: 0xffffff, width: 2, alpha: 0.6 });
  for (let x = 30, i = 0; x < width - 30; x += 34, i++) {
    const sag = 150 + 28 * (1 - ((x - width / 2) / (width / 2)) ** 2) * 0.9;
    g.poly([x, sag - 2, x + 24, sag - 2, x + 12, sag + 20]).fill(
      RIBBONS[(i + 2) % RIBBONS.length] ?? 0xffd600,
    );
  }
  scatter(60, { x: 20, y: 20, width: width - 40, height: height - 40 }, 9, (x, y, index) => {
    g.circle(x, y, 2).fill({ color: RIBBONS[index % RIBBONS.length] ?? 0xffffff, alpha: 0.5 });
  });
  insetFrame(g, width, height, 6, 22, { color: 0xffd600, width: 5 });
  for (let x = 24; x < width - 20; x += 16) {
    g.circle(x, height - 14, 3).fill(RIBBONS[((x / 16) % RIBBONS.length) | 0] ?? 0xffd600);
  }
  card.addChild(g);
  card.addChild(
    fittedLabel(
      'Bumba Meu Green',
      {
        fontFamily: SANS,
        fontSize: 62,
        fontWeight: '900',
        fill: 0xffd600,
        stroke: { color: 0xff1744, width: 9 },
      },
      width / 2,
      96,
      520,
      84,
    ),
  );
  const boi = festivalCharacter('boi', 70);
  boi.position.set(width - 62, 64);
  card.addChild(boi);
  card.addChild(playBoard(PLAY, 20, 0x2e2e5c, { color: 0xffd600, width: 3 }));
  void context;
  return card;
}

/** A character on embroidered velvet, its prize on a yellow plate. */
function drawCell(cell: CardCell, index: number, context: DrawContext): Container {
  const rect = cellRect(geometry, index);
  const node = new Container();
  if (!rect) return node;
  const { width, height } = rect;
  const isBoi = cell.symbol === 'boi';
  node.addChild(panel(width, height, 16, isBoi ? 0x3a3a78 : 0x1f1f44, { color: 0xffd600, width: 2 }));
  const beads = new Graphics();
  for (let x = 12; x < width - 8; x += 14) {
    beads.circle(x, 8, 2.2).fill(RIBBONS[((x / 14) % RIBBONS.length) | 0] ?? 0xffffff);
  }
  node.addChild(beads);
  const character = festivalCharacter(cell.symbol, Math.min(width, height * 0.62) * 0.92);
  character.position.set(width / 2, height * 0.38);
  node.addChild(character);
  node.addChild(
    ...prizePlate(
      context.prize(cell.prizeLevel ?? 1),
      {
        x: 10,
        y: height - 58,
        width: width - 20,
        height: 46,
        radius: 10,
        fill: 0xffd600,
        stroke: { color: 0x8a5a00, width: 2 },
      },
      { fontSize: 30, fill: 0x1a1a2e },
    ),
  );
  return node;
}

const foilSpec: FoilSpec = {
  stops: [
    [0, '#8e9ba3'],
    [0.45, '#eceff1'],
    [0.55, '#cfd8dc'],
    [1, '#78909c'],
  ],
  ink: '#1a1a2e',
  inkStroke: '#ffd600',
  pattern(context, width, height) {
    // Sequins.
    context.globalAlpha = 0.35;
    scatterPoints(90, width - 16, height - 16, 33).forEach(([x, y], index) => {
      context.fillStyle = cssColor(RIBBONS[index % RIBBONS.length] ?? 0xffffff);
      context.beginPath();
      context.arc(x + 8, y + 8, 5, 0, Math.PI * 2);
      context.fill();
    });
    context.globalAlpha = 1;
  },
};

export const bumbaMeuGreenArt: ModelArt = {
  model: 'bumba-meu-green',
  palette,
  geometry,
  drawCard,
  drawCell,
  drawExtra: () => new Container(),
  foil: foilSpec,
  icon: () => undefined,
};
