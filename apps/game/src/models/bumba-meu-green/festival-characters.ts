import { Container, Graphics } from 'pixi.js';
import { star } from '../draw-kit.ts';

/**
 * The characters of the bumba-meu-boi festival, each drawn centred at 0,0 in a size × size box:
 * the boi in its embroidered, sequinned costume, Catirina, Pai Francisco, the Cazumbá mask, the
 * feathered caboclo and the burrinha.
 */
export function festivalCharacter(id: string, size: number): Container {
  // Drawn on a 100-unit box, then scaled.
  const node = new Container();
  const g = new Graphics();
  node.addChild(g);
  (CHARACTERS[id] ?? unknown)(g, node);
  node.scale.set(size / 100);
  return node;
}

const SEQUINS = [0xffd600, 0x40c4ff, 0xff4081, 0x00e676, 0xffffff];

const CHARACTERS: Record<string, (g: Graphics, node: Container) => void> = {
  boi(g) {
    // The skirt of ribbons, the velvet body with sequins, the head with horns and a star.
    const ribbons = [0xff1744, 0xffd600, 0x40c4ff, 0x00e676, 0xff4081, 0xffffff];
    ribbons.forEach((color, i) => {
      g.rect(-36 + i * 12, 22, 9, 26).fill(color);
    });
    g.ellipse(0, 14, 44, 20).fill(0x1a1a2e).stroke({ color: 0xffd600, width: 3 });
    for (let i = 0; i < 9; i++)
      g.circle(-34 + i * 8.5, 14 + (i % 2 ? 5 : -5), 3).fill(SEQUINS[i % SEQUINS.length] ?? 0xffffff);
    g.moveTo(-20, -30)
      .bezierCurveTo(-46, -34, -50, -52, -40, -60)
      .bezierCurveTo(-40, -48, -30, -40, -14, -38)
      .fill(0xfff3e0);
    g.moveTo(20, -30)
      .bezierCurveTo(46, -34, 50, -52, 40, -60)
      .bezierCurveTo(40, -48, 30, -40, 14, -38)
      .fill(0xfff3e0);
    g.ellipse(-26, -22, 10, 6).fill(0x1a1a2e);
    g.ellipse(26, -22, 10, 6).fill(0x1a1a2e);
    g.roundRect(-20, -40, 40, 50, 18).fill(0x1a1a2e).stroke({ color: 0xffd600, width: 2 });
    star(g, 0, -26, 9, 0xffd600);
    g.ellipse(0, 2, 13, 9).fill(0xff80ab);
    g.circle(-5, 2, 2.4).fill(0x1a1a2e);
    g.circle(5, 2, 2.4).fill(0x1a1a2e);
    g.circle(-9, -14, 3).fill(0xffffff);
    g.circle(9, -14, 3).fill(0xffffff);
  },
  catirina(g) {
    g.roundRect(-26, 18, 52, 34, 16).fill(0xff4081);
    for (let i = 0; i < 4; i++) g.circle(-16 + i * 11, 34, 3).fill(0xffffff);
    g.circle(0, -2, 24).fill(0x8d5524);
    g.moveTo(-28, -6)
      .bezierCurveTo(-30, -40, 30, -40, 28, -6)
      .bezierCurveTo(20, -18, -20, -18, -28, -6)
      .fill(0xffd600);
    g.circle(30, -10, 8).fill(0xff1744);
    g.circle(-9, -2, 3).fill(0x1a1a2e);
    g.circle(9, -2, 3).fill(0x1a1a2e);
    g.arc(0, 6, 9, 0.2, Math.PI - 0.2).stroke({ color: 0x6a1b2a, width: 3 });
    g.circle(-24, 10, 3.5).fill(0xffd600);
    g.circle(24, 10, 3.5).fill(0xffd600);
  },
  'pai-francisco'(g) {
    g.roundRect(-28, 20, 56, 32, 14).fill(0x40c4ff);
    g.rect(-3, 20, 6, 32).fill(0xffffff);
    g.circle(0, 2, 23).fill(0x6d4c41);
    g.ellipse(0, -20, 46, 10).fill(0xd7a14a).stroke({ color: 0x8a5a00, width: 2 });
    g.roundRect(-20, -44, 40, 26, 10).fill(0xd7a14a).stroke({ color: 0x8a5a00, width: 2 });
    g.rect(-20, -26, 40, 6).fill(0xff1744);
    g.circle(-8, 0, 3).fill(0x1a1a2e);
    g.circle(8, 0, 3).fill(0x1a1a2e);
    g.moveTo(-14, 12)
      .bezierCurveTo(-8, 6, -2, 8, 0, 10)
      .bezierCurveTo(2, 8, 8, 6, 14, 12)
      .bezierCurveTo(8, 16, -8, 16, -14, 12)
      .fill(0x1a1a2e);
  },
  cazumba(g) {
    for (let i = 0; i < 9; i++) g.rect(-36 + i * 8, 24, 6, 28).fill(SEQUINS[i % SEQUINS.length] ?? 0xffffff);
    g.moveTo(0, -50)
      .bezierCurveTo(40, -48, 40, 30, 0, 30)
      .bezierCurveTo(-40, 30, -40, -48, 0, -50)
      .fill(0x7b1fa2)
      .stroke({ color: 0xffd600, width: 3 });
    g.ellipse(-13, -14, 10, 13).fill(0xffffff);
    g.ellipse(13, -14, 10, 13).fill(0xffffff);
    g.circle(-13, -12, 5).fill(0x1a1a2e);
    g.circle(13, -12, 5).fill(0x1a1a2e);
    g.roundRect(-14, 8, 28, 10, 5).fill(0xff1744);
    for (let i = 0; i < 3; i++) g.rect(-9 + i * 7, 9, 3, 8).fill(0xffffff);
    g.moveTo(-24, -40).lineTo(-34, -58).lineTo(-16, -46).fill(0xff4081);
    g.moveTo(24, -40).lineTo(34, -58).lineTo(16, -46).fill(0x00e676);
  },
  'caboclo-de-pena'(g, node) {
    const feathers = [0xff1744, 0xffd600, 0x00e676, 0x40c4ff, 0xff4081, 0xffd600, 0xff1744];
    feathers.forEach((color, i) => {
      const angle = Math.PI + ((i + 0.5) / feathers.length) * Math.PI;
      const x = Math.cos(angle) * 30;
      const y = Math.sin(angle) * 30 - 4;
      const feather = new Graphics();
      feather.ellipse(0, -14, 8, 22).fill(color).stroke({ color: 0x1a1a2e, width: 1.5 });
      feather.moveTo(0, -34).lineTo(0, 6).stroke({ color: 0x1a1a2e, width: 1.5 });
      node.addChildAt(feather, 0);
      feather.position.set(x, y);
      feather.rotation = angle + Math.PI / 2;
    });
    g.rect(-26, -12, 52, 10).fill(0xffd600);
    g.circle(0, 12, 21).fill(0xa0522d);
    g.rect(-21, 4, 42, 5).fill(0xff1744);
    g.circle(-8, 10, 3).fill(0x1a1a2e);
    g.circle(8, 10, 3).fill(0x1a1a2e);
    g.arc(0, 18, 7, 0.3, Math.PI - 0.3).stroke({ color: 0x3e1a0e, width: 2.5 });
    g.roundRect(-22, 34, 44, 16, 8).fill(0x00e676);
  },
  burrinha(g) {
    g.roundRect(-32, 20, 64, 30, 12).fill(0xff4081).stroke({ color: 0xffd600, width: 2 });
    for (let i = 0; i < 5; i++) g.circle(-22 + i * 11, 34, 3).fill(0xffd600);
    g.moveTo(-6, -22).lineTo(-14, -56).lineTo(2, -28).fill(0x9e9e9e);
    g.moveTo(8, -22).lineTo(14, -56).lineTo(18, -24).fill(0x9e9e9e);
    g.moveTo(-4, -24).lineTo(-10, -48).lineTo(0, -28).fill(0xf8bbd0);
    g.roundRect(-14, -30, 32, 40, 14).fill(0x9e9e9e);
    g.roundRect(-26, -2, 30, 22, 11).fill(0xbdbdbd);
    g.circle(-20, 8, 2.4).fill(0x424242);
    g.circle(6, -14, 3.5).fill(0x1a1a2e);
    for (let i = 0; i < 5; i++) g.circle(18, -26 + i * 8, 5).fill(0x424242);
    g.moveTo(-14, -8).lineTo(16, -8).stroke({ color: 0xffd600, width: 3 });
    g.circle(16, -8, 4).fill(0x40c4ff);
  },
};

function unknown(g: Graphics): void {
  g.circle(0, 0, 30).fill(0x9e9e9e);
}
