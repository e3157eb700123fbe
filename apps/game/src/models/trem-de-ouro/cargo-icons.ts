import { Container, Graphics } from 'pixi.js';
import { sparkle } from '../draw-kit.ts';

/**
 * The trem de ouro's cargoes, cheapest first (coal, cotton, sugar cane, coffee, cacao, silver,
 * gold bar) and the golden locomotive of v1's jackpot. Each is drawn centred at 0,0 within a
 * size × size box; the three versions share them.
 */
export function cargoIcon(id: string, size: number): Container {
  const g = new Graphics();
  const s = size / 100; // drawn on a 100-unit box, then scaled
  const draw = CARGO[id] ?? unknownCargo;
  draw(g);
  g.scale.set(s);
  const node = new Container();
  node.addChild(g);
  return node;
}

const CARGO: Record<string, (g: Graphics) => void> = {
  carvao(g) {
    g.ellipse(0, 30, 44, 12).fill({ color: 0x000000, alpha: 0.2 });
    const lumps: Array<[number, number, number]> = [
      [-24, 14, 18],
      [2, 18, 20],
      [26, 16, 16],
      [-12, -6, 17],
      [14, -4, 16],
      [0, -24, 14],
    ];
    for (const [x, y, r] of lumps) {
      g.poly([
        x - r,
        y,
        x - r * 0.5,
        y - r * 0.9,
        x + r * 0.6,
        y - r * 0.8,
        x + r,
        y + r * 0.1,
        x + r * 0.4,
        y + r * 0.8,
        x - r * 0.6,
        y + r * 0.7,
      ]).fill(0x2b2b2b);
      g.poly([x - r * 0.5, y - r * 0.6, x + r * 0.3, y - r * 0.6, x - r * 0.1, y - r * 0.1]).fill({
        color: 0x757575,
        alpha: 0.8,
      });
    }
  },
  algodao(g) {
    g.star(0, 10, 5, 30, 14, 0).fill(0x8d5a2b);
    for (const [x, y, r] of [
      [-18, -2, 17],
      [18, -2, 17],
      [0, -18, 19],
      [-8, 14, 16],
      [10, 14, 16],
    ] as const) {
      g.circle(x, y, r).fill(0xffffff).stroke({ color: 0xc9c2b8, width: 2 });
    }
    g.rect(-3, 28, 6, 20).fill(0x6d4c2b);
  },
  cana(g) {
    for (const [x, tilt] of [
      [-20, -0.12],
      [0, 0],
      [20, 0.12],
    ] as const) {
      // A stalk leaning by `tilt` radians about its middle, with its joints.
      const at = (dx: number, dy: number): [number, number] => [
        x + dx * Math.cos(tilt) - dy * Math.sin(tilt),
        dx * Math.sin(tilt) + dy * Math.cos(tilt),
      ];
      g.poly([...at(-6, -44), ...at(6, -44), ...at(6, 44), ...at(-6, 44)]).fill(0xc0ca33);
      for (let y = -30; y < 44; y += 18) {
        g.poly([...at(-6, y), ...at(6, y), ...at(6, y + 3), ...at(-6, y + 3)]).fill(0x827717);
      }
    }
    g.moveTo(0, -30)
      .bezierCurveTo(20, -50, 40, -46, 48, -30)
      .bezierCurveTo(34, -36, 18, -34, 0, -24)
      .fill(0x43a047);
    g.moveTo(0, -20)
      .bezierCurveTo(-22, -44, -40, -40, -48, -24)
      .bezierCurveTo(-34, -30, -18, -28, 0, -14)
      .fill(0x2e7d32);
  },
  cafe(g) {
    g.ellipse(0, 34, 44, 10).fill(0xd7ccc8).stroke({ color: 0x8d6e63, width: 2 });
    g.roundRect(-30, -8, 60, 42, 14).fill(0xfafafa).stroke({ color: 0x8d6e63, width: 3 });
    g.ellipse(0, -8, 30, 8).fill(0x5d2f12);
    g.circle(36, 10, 11).stroke({ color: 0x8d6e63, width: 5 });
    for (const x of [-12, 4, 18]) {
      g.moveTo(x, -22)
        .bezierCurveTo(x - 8, -32, x + 8, -38, x, -48)
        .stroke({ color: 0xbcaaa4, width: 4, cap: 'round' });
    }
  },
  cacau(g) {
    g.ellipse(0, 0, 26, 42).fill(0xd2691e).stroke({ color: 0x8b3a0e, width: 3 });
    for (const x of [-14, 0, 14]) {
      g.moveTo(x, -38)
        .quadraticCurveTo(x * 1.4, 0, x, 38)
        .stroke({ color: 0x8b3a0e, width: 2, alpha: 0.8 });
    }
    g.rect(-3, -52, 6, 12).fill(0x5d4037);
    g.ellipse(32, 30, 10, 7).fill(0x5d2f12);
    g.ellipse(-32, 32, 9, 6).fill(0x6d3b1f);
  },
  prata(g) {
    g.poly([-40, 20, 40, 20, 28, -4, -28, -4]).fill(0xb0bac5).stroke({ color: 0x6b7682, width: 3 });
    g.poly([-28, -4, 28, -4, 20, -12, -20, -12]).fill(0xe8edf2).stroke({ color: 0x6b7682, width: 3 });
    g.poly([-30, 38, 30, 38, 20, 20, -20, 20]).fill(0x9aa5b1).stroke({ color: 0x6b7682, width: 3 });
    g.circle(0, -30, 14).fill(0xdfe5ea).stroke({ color: 0x6b7682, width: 3 });
    sparkle(g, 22, -30, 10, 0xffffff);
  },
  'barra-de-ouro'(g) {
    g.poly([-44, 36, 4, 36, -6, 14, -34, 14]).fill(0xf4b400).stroke({ color: 0x8a5a00, width: 3 });
    g.poly([-2, 36, 46, 36, 36, 14, 8, 14]).fill(0xf4b400).stroke({ color: 0x8a5a00, width: 3 });
    g.poly([-22, 14, 26, 14, 16, -8, -12, -8]).fill(0xffd54f).stroke({ color: 0x8a5a00, width: 3 });
    g.poly([-12, -8, 16, -8, 10, -14, -6, -14]).fill(0xfff3c4);
    sparkle(g, 30, -26, 12, 0xfffde7);
    sparkle(g, -30, -12, 8, 0xfffde7);
  },
  'locomotiva-dourada'(g) {
    // Smoke, boiler, cab, chimney, wheels: a little golden steam engine.
    g.circle(-26, -42, 9).fill({ color: 0xffffff, alpha: 0.9 });
    g.circle(-14, -50, 11).fill({ color: 0xffffff, alpha: 0.9 });
    g.roundRect(-40, -18, 56, 34, 10).fill(0xffc107).stroke({ color: 0x8a5a00, width: 3 });
    g.rect(-34, -34, 12, 18).fill(0x5d3a00);
    g.roundRect(12, -34, 30, 50, 4).fill(0xffb300).stroke({ color: 0x8a5a00, width: 3 });
    g.rect(18, -28, 18, 14).fill(0xfff8e1);
    g.poly([-40, 16, -52, 28, -40, 28]).fill(0xc62828);
    g.rect(-44, 16, 90, 8).fill(0x5d3a00);
    for (const x of [-28, -4, 26]) {
      g.circle(x, 30, 11).fill(0x3e2723);
      g.circle(x, 30, 4).fill(0xffd54f);
    }
    sparkle(g, 36, -44, 9, 0xfffde7);
  },
};

function unknownCargo(g: Graphics): void {
  g.roundRect(-30, -30, 60, 60, 10).fill(0x9e9e9e);
}

/** Two rails on sleepers from (x, y), `width` long. */
export function rails(
  g: Graphics,
  x: number,
  y: number,
  width: number,
  colors = { sleeper: 0x6d4c41, rail: 0x9e9e9e },
): void {
  for (let at = x + 6; at < x + width - 6; at += 22) g.rect(at, y - 6, 10, 22).fill(colors.sleeper);
  g.rect(x, y - 2, width, 4).fill(colors.rail);
  g.rect(x, y + 10, width, 4).fill(colors.rail);
}
