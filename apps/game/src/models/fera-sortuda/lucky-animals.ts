import { Container, Graphics } from 'pixi.js';

/**
 * The lucky animals of Fera Sortuda (in the jogo do bicho's spirit), cheapest first: butterfly,
 * monkey, snake, caiman, peacock, eagle, tiger, lion; and the bonus box's jaguar, paw print and
 * tuft of grass. Each is drawn centred at 0,0 on a 100-unit box and scaled to `size`.
 */
export function luckyAnimal(id: string, size: number): Container {
  const node = new Container();
  const g = new Graphics();
  node.addChild(g);
  (ANIMALS[id] ?? unknown)(g);
  node.scale.set(size / 100);
  return node;
}

function catFace(g: Graphics, fur: number): void {
  g.circle(-26, -26, 12).fill(fur).stroke({ color: 0x3b1f00, width: 2 });
  g.circle(26, -26, 12).fill(fur).stroke({ color: 0x3b1f00, width: 2 });
  g.circle(-26, -26, 6).fill(0xffccbc);
  g.circle(26, -26, 6).fill(0xffccbc);
  g.circle(0, 0, 36).fill(fur).stroke({ color: 0x3b1f00, width: 2.5 });
}

function catFeatures(g: Graphics, muzzle: number): void {
  g.ellipse(-10, 16, 12, 10).fill(muzzle);
  g.ellipse(10, 16, 12, 10).fill(muzzle);
  g.poly([-6, 8, 6, 8, 0, 15]).fill(0x3b1f00);
  g.ellipse(-13, -6, 6, 7).fill(0xfff59d);
  g.ellipse(13, -6, 6, 7).fill(0xfff59d);
  g.ellipse(-13, -6, 2, 6).fill(0x1a1a1a);
  g.ellipse(13, -6, 2, 6).fill(0x1a1a1a);
  for (const side of [-1, 1]) {
    for (const dy of [14, 20])
      g.moveTo(side * 18, dy)
        .lineTo(side * 36, dy + (dy - 17) * 1.5)
        .stroke({ color: 0x3b1f00, width: 1.5 });
  }
}

const ANIMALS: Record<string, (g: Graphics) => void> = {
  borboleta(g) {
    g.ellipse(-22, -16, 22, 26).fill(0x29b6f6).stroke({ color: 0x01579b, width: 3 });
    g.ellipse(22, -16, 22, 26).fill(0x29b6f6).stroke({ color: 0x01579b, width: 3 });
    g.ellipse(-18, 20, 16, 18).fill(0xff7043).stroke({ color: 0xbf360c, width: 3 });
    g.ellipse(18, 20, 16, 18).fill(0xff7043).stroke({ color: 0xbf360c, width: 3 });
    g.circle(-24, -18, 7).fill(0xffffff);
    g.circle(24, -18, 7).fill(0xffffff);
    g.roundRect(-4, -30, 8, 64, 4).fill(0x3e2723);
    g.moveTo(-2, -30).quadraticCurveTo(-10, -46, -16, -46).stroke({ color: 0x3e2723, width: 2 });
    g.moveTo(2, -30).quadraticCurveTo(10, -46, 16, -46).stroke({ color: 0x3e2723, width: 2 });
  },
  macaco(g) {
    g.circle(-34, 0, 13).fill(0x795548);
    g.circle(34, 0, 13).fill(0x795548);
    g.circle(-34, 0, 7).fill(0xd7ccc8);
    g.circle(34, 0, 7).fill(0xd7ccc8);
    g.circle(0, 0, 34).fill(0x795548);
    g.ellipse(-10, -6, 13, 15).fill(0xd7ccc8);
    g.ellipse(10, -6, 13, 15).fill(0xd7ccc8);
    g.ellipse(0, 14, 22, 16).fill(0xd7ccc8);
    g.circle(-10, -6, 4).fill(0x1a1a1a);
    g.circle(10, -6, 4).fill(0x1a1a1a);
    g.circle(-4, 8, 2).fill(0x3e2723);
    g.circle(4, 8, 2).fill(0x3e2723);
    g.arc(0, 14, 10, 0.3, Math.PI - 0.3).stroke({ color: 0x3e2723, width: 2.5 });
  },
  cobra(g) {
    g.moveTo(-40, 34)
      .bezierCurveTo(-10, 40, 30, 30, 20, 10)
      .bezierCurveTo(10, -8, -30, 6, -20, -16)
      .bezierCurveTo(-12, -34, 16, -34, 24, -28)
      .stroke({ color: 0x2e7d32, width: 18, cap: 'round' });
    g.moveTo(-40, 34)
      .bezierCurveTo(-10, 40, 30, 30, 20, 10)
      .bezierCurveTo(10, -8, -30, 6, -20, -16)
      .bezierCurveTo(-12, -34, 16, -34, 24, -28)
      .stroke({ color: 0xc0ca33, width: 4, cap: 'round' });
    g.ellipse(30, -30, 14, 10).fill(0x2e7d32);
    g.circle(34, -34, 3).fill(0xfff59d);
    g.circle(34, -34, 1.5).fill(0x1a1a1a);
    g.moveTo(43, -28)
      .lineTo(52, -26)
      .lineTo(56, -30)
      .moveTo(52, -26)
      .lineTo(56, -22)
      .stroke({ color: 0xd50000, width: 2 });
  },
  jacare(g) {
    g.roundRect(-46, -4, 92, 26, 12).fill(0x558b2f).stroke({ color: 0x33691e, width: 3 });
    g.roundRect(-46, 16, 92, 16, 8).fill(0x689f38).stroke({ color: 0x33691e, width: 3 });
    for (let x = -40; x < 40; x += 10) {
      g.poly([x, 20, x + 5, 13, x + 10, 20]).fill(0xffffff);
    }
    g.circle(22, -8, 11).fill(0x558b2f).stroke({ color: 0x33691e, width: 3 });
    g.circle(24, -10, 5).fill(0xfff59d);
    g.ellipse(24, -10, 1.5, 4).fill(0x1a1a1a);
    g.circle(-40, 2, 2.4).fill(0x33691e);
    for (let x = -26; x < 14; x += 12) g.circle(x, 4, 3).fill({ color: 0x33691e, alpha: 0.7 });
  },
  pavao(g) {
    for (let i = 0; i < 9; i++) {
      const angle = Math.PI + (i / 8) * Math.PI;
      const x = Math.cos(angle) * 34;
      const y = Math.sin(angle) * 34 + 14;
      g.moveTo(0, 20).lineTo(x, y).stroke({ color: 0x2e7d32, width: 3 });
      g.ellipse(x, y, 10, 12).fill(0x00897b);
      g.circle(x, y, 6).fill(0x1e88e5);
      g.circle(x, y, 3).fill(0x0d1b4c);
    }
    g.ellipse(0, 22, 12, 22).fill(0x1565c0);
    g.circle(0, -2, 9).fill(0x1565c0);
    g.poly([8, -2, 16, 0, 8, 3]).fill(0xffb300);
    g.circle(3, -4, 2).fill(0xffffff);
    for (const dx of [-5, 0, 5]) g.moveTo(0, -10).lineTo(dx, -20).stroke({ color: 0x1565c0, width: 1.5 });
  },
  aguia(g) {
    g.moveTo(-30, 44)
      .bezierCurveTo(-36, 10, -26, -20, 0, -30)
      .bezierCurveTo(24, -36, 36, -20, 38, -6)
      .lineTo(10, 6)
      .bezierCurveTo(6, 24, 10, 36, 14, 44)
      .fill(0x6d4c41);
    g.moveTo(-16, -10)
      .bezierCurveTo(-14, -34, 20, -40, 34, -18)
      .bezierCurveTo(20, -16, 10, -4, -16, -10)
      .fill(0xfafafa);
    g.moveTo(30, -20)
      .bezierCurveTo(46, -20, 52, -8, 46, 4)
      .bezierCurveTo(44, -4, 38, -8, 30, -8)
      .fill(0xffb300)
      .stroke({ color: 0xe65100, width: 2 });
    g.circle(16, -20, 4).fill(0x3e2723);
    g.circle(17, -21, 1.5).fill(0xffffff);
  },
  tigre(g) {
    catFace(g, 0xff9800);
    for (const [x, y, w] of [
      [-6, -34, 12],
      [-22, -20, 10],
      [22, -20, 10],
      [-32, 2, 10],
      [32, 2, 10],
    ] as const) {
      g.poly([x - w / 2, y, x + w / 2, y, x, y + 14]).fill(0x1a1a1a);
    }
    catFeatures(g, 0xffffff);
  },
  leao(g) {
    for (let i = 0; i < 14; i++) {
      const angle = (i / 14) * Math.PI * 2;
      g.circle(Math.cos(angle) * 34, Math.sin(angle) * 34, 14).fill(0xb26a00);
    }
    g.circle(0, 0, 36).fill(0xb26a00);
    g.circle(0, 2, 28).fill(0xffc107).stroke({ color: 0x8a5a00, width: 2 });
    g.circle(-20, -22, 8).fill(0xffc107);
    g.circle(20, -22, 8).fill(0xffc107);
    catFeatures(g, 0xfff8e1);
  },
  onca(g) {
    // The jaguar: golden fur covered in rosettes (rings of spots around a darker centre), no stripes.
    catFace(g, 0xf9a825);
    const rosettes: Array<[number, number, number]> = [
      [-14, -22, 7],
      [10, -26, 6],
      [27, -6, 6],
      [-28, -4, 6],
      [-22, 16, 5],
      [24, 16, 5],
      [0, -36, 4],
    ];
    for (const [x, y, r] of rosettes) {
      g.circle(x, y, r * 0.55).fill(0xc17900);
      for (let i = 0; i < 5; i++) {
        const angle = (i / 5) * Math.PI * 2;
        g.circle(x + Math.cos(angle) * r, y + Math.sin(angle) * r, r * 0.32).fill(0x1a1a1a);
      }
    }
    catFeatures(g, 0xfff8e1);
  },
  pegada(g) {
    g.ellipse(0, 14, 20, 17).fill(0x5d4037);
    g.ellipse(-24, -8, 8, 11).fill(0x5d4037);
    g.ellipse(-9, -22, 8, 11).fill(0x5d4037);
    g.ellipse(9, -22, 8, 11).fill(0x5d4037);
    g.ellipse(24, -8, 8, 11).fill(0x5d4037);
  },
  capim(g) {
    const blades: Array<[number, number, number]> = [
      [-30, -24, 0x7cb342],
      [-16, -40, 0x558b2f],
      [0, -46, 0x7cb342],
      [14, -38, 0x33691e],
      [30, -26, 0x558b2f],
    ];
    for (const [x, top, color] of blades) {
      g.moveTo(x - 7, 40)
        .quadraticCurveTo(x - 4, 0, x * 1.3, top)
        .quadraticCurveTo(x + 4, 0, x + 7, 40)
        .fill(color);
    }
  },
};

function unknown(g: Graphics): void {
  g.circle(0, 0, 30).fill(0x9e9e9e);
}
