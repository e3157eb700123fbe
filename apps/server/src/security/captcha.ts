import { type Deps, isoIn, isoNow } from '../deps.ts';
import { digest, sameSecret } from './secrets.ts';

/**
 * Checks the `captcha` field of panel-login and forgot-password (docs/contract.md §2). The offline captcha
 * below is the default; a hosted one (e.g. Cloudflare Turnstile, which posts the token and the
 * client's IP to its siteverify endpoint) would be another implementation chosen by configuration.
 * None is wired up yet: this service makes no network call to check a captcha.
 */
export interface CaptchaVerifier {
  verify(token: string, ip: string): Promise<boolean>;
}

export interface IssuedCaptcha {
  captchaId: string;
  /** `data:image/svg+xml;base64,…` */
  image: string;
  /** For the issuer's tests only: never sent to the client. */
  answer: string;
}

export interface OfflineCaptcha extends CaptchaVerifier {
  issue(): Promise<IssuedCaptcha>;
}

export const CAPTCHA_TTL_SECONDS = 10 * 60;
export const CAPTCHA_LENGTH = 5;

/** No look-alikes: none of B/8, O/0/Q, I/1, S/5, Z/2, G. */
export const CAPTCHA_ALPHABET = 'ACDEFHJKLMNPRTUVWXY34679';

type Point = readonly [number, number];
type Stroke = readonly Point[];

/**
 * Each character as strokes on a 10 × 14 grid ("x y" points, "," between points, "|" between
 * strokes), drawn as paths so the image holds no text a scraper could read.
 */
const GLYPH_STROKES: Record<string, string> = {
  A: '0 14,5 0,10 14|2.5 8,7.5 8',
  C: '10 2,7 0,3 0,0 3,0 11,3 14,7 14,10 12',
  D: '0 0,0 14,6 14,10 10,10 4,6 0,0 0',
  E: '10 0,0 0,0 14,10 14|0 7,7 7',
  F: '10 0,0 0,0 14|0 7,7 7',
  H: '0 0,0 14|10 0,10 14|0 7,10 7',
  J: '10 0,10 11,7 14,3 14,0 11',
  K: '0 0,0 14|10 0,0 8|3 5.5,10 14',
  L: '0 0,0 14,10 14',
  M: '0 14,0 0,5 8,10 0,10 14',
  N: '0 14,0 0,10 14,10 0',
  P: '0 14,0 0,7 0,10 2,10 5,7 7,0 7',
  R: '0 14,0 0,7 0,10 2,10 5,7 7,0 7|5 7,10 14',
  T: '0 0,10 0|5 0,5 14',
  U: '0 0,0 11,3 14,7 14,10 11,10 0',
  V: '0 0,5 14,10 0',
  W: '0 0,2.5 14,5 5,7.5 14,10 0',
  X: '0 0,10 14|10 0,0 14',
  Y: '0 0,5 7,10 0|5 7,5 14',
  '3': '0 1,3 0,8 0,10 2,10 5,7 7,3 7|7 7,10 9,10 12,8 14,3 14,0 13',
  '4': '7 14,7 0,0 10,10 10',
  '6': '9 1,6 0,3 0,0 4,0 11,3 14,7 14,10 11,10 9,7 7,3 7,0 9',
  '7': '0 0,10 0,4 14',
  '9': '10 5,7 7,3 7,0 5,0 3,3 0,7 0,10 3,10 10,7 14,3 14,1 13',
};

const GLYPHS: Record<string, readonly Stroke[]> = Object.fromEntries(
  Object.entries(GLYPH_STROKES).map(([char, text]) => [
    char,
    text
      .split('|')
      .map((stroke) => stroke.split(',').map((point) => point.split(' ').map(Number) as [number, number])),
  ]),
);

const WIDTH = 200;
const HEIGHT = 70;

/** Uniform numbers from the injected random source (so tests can replay an image). */
function randomStream(random: (bytes: number) => Buffer) {
  let pool: Buffer = Buffer.alloc(0);
  let at = 0;
  const byte = () => {
    if (at >= pool.length) {
      pool = random(256);
      at = 0;
    }
    return pool[at++] as number;
  };
  const fraction = () => ((byte() << 16) | (byte() << 8) | byte()) / 2 ** 24;
  return {
    /** An integer in [0, n), n ≤ 256, without modulo bias. */
    below(n: number): number {
      const limit = 256 - (256 % n);
      for (;;) {
        const value = byte();
        if (value < limit) return value % n;
      }
    },
    between: (low: number, high: number) => low + (high - low) * fraction(),
  };
}

type Rng = ReturnType<typeof randomStream>;

const fmt = (value: number) => (Math.round(value * 10) / 10).toString();

/** A glyph's strokes moved, scaled, turned and shaken, each segment split so no two images share a path. */
function glyphPaths(char: string, centerX: number, rng: Rng): string[] {
  const strokes = GLYPHS[char] ?? [];
  const scale = rng.between(2.3, 2.8);
  const angle = rng.between(-0.35, 0.35);
  const skew = rng.between(-0.25, 0.25);
  const centerY = HEIGHT / 2 + rng.between(-6, 6);
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const place = ([x, y]: Point): Point => {
    const gx = (x - 5 + skew * (y - 7)) * scale;
    const gy = (y - 7) * scale;
    return [
      centerX + gx * cos - gy * sin + rng.between(-1, 1),
      centerY + gx * sin + gy * cos + rng.between(-1, 1),
    ];
  };
  return strokes.map((stroke) => {
    const points: Point[] = [];
    stroke.forEach((point, index) => {
      const previous = stroke[index - 1];
      if (previous) {
        points.push(
          place([
            (previous[0] + point[0]) / 2 + rng.between(-0.3, 0.3),
            (previous[1] + point[1]) / 2 + rng.between(-0.3, 0.3),
          ]),
        );
      }
      points.push(place(point));
    });
    return points.map(([x, y], index) => `${index === 0 ? 'M' : 'L'}${fmt(x)} ${fmt(y)}`).join('');
  });
}

function noisePaths(rng: Rng): string[] {
  const curves = Array.from({ length: 5 }, () => {
    const [x0, y0] = [rng.between(0, 30), rng.between(5, HEIGHT - 5)];
    const [x3, y3] = [rng.between(WIDTH - 30, WIDTH), rng.between(5, HEIGHT - 5)];
    const c = [rng.between(40, 90), rng.between(0, HEIGHT), rng.between(110, 160), rng.between(0, HEIGHT)];
    return `M${fmt(x0)} ${fmt(y0)}C${c.map(fmt).join(' ')} ${fmt(x3)} ${fmt(y3)}`;
  });
  const specks = Array.from({ length: 30 }, () => {
    const [x, y] = [rng.between(0, WIDTH), rng.between(0, HEIGHT)];
    return `M${fmt(x)} ${fmt(y)}l${fmt(rng.between(-3, 3))} ${fmt(rng.between(-3, 3))}`;
  });
  return [...curves, ...specks];
}

function shuffle<T>(items: T[], rng: Rng): T[] {
  for (let index = items.length - 1; index > 0; index--) {
    const other = rng.below(index + 1);
    [items[index], items[other]] = [items[other] as T, items[index] as T];
  }
  return items;
}

/** The SVG of a code: its strokes and the noise mixed in random order, all in the same few inks. */
export function renderCaptchaSvg(code: string, random: (bytes: number) => Buffer): string {
  const rng = randomStream(random);
  const inks = ['#1f2a44', '#3b2f63', '#2e4a3a', '#5a2a2a'];
  const ink = () => inks[rng.below(inks.length)] as string;
  const cell = (WIDTH - 20) / code.length;
  const glyphs = [...code].flatMap((char, index) => {
    const [color, width] = [ink(), fmt(rng.between(2.6, 3.4))];
    return glyphPaths(char, 10 + cell * (index + 0.5), rng).map(
      (d) => `<path d="${d}" stroke="${color}" stroke-width="${width}"/>`,
    );
  });
  const noise = noisePaths(rng).map(
    (d) => `<path d="${d}" stroke="${ink()}" stroke-width="${fmt(rng.between(1, 2.2))}"/>`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="captcha">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#f4f1ea"/>`,
    '<g fill="none" stroke-linecap="round" stroke-linejoin="round">',
    ...shuffle([...glyphs, ...noise], rng),
    '</g></svg>',
  ].join('');
}

export const captchaAnswerHash = (captchaId: string, answer: string) =>
  digest(`${captchaId}:${answer.trim().toUpperCase()}`);

/**
 * The default captcha: the service draws it itself (no third party, works offline). The answer is
 * kept only as a digest, expires after 10 minutes, and each captcha takes exactly one guess.
 */
export function createOfflineCaptcha(
  deps: Pick<Deps, 'store' | 'clock' | 'newId' | 'random'>,
): OfflineCaptcha {
  const { store } = deps;
  return {
    async issue() {
      const rng = randomStream(deps.random);
      const answer = Array.from(
        { length: CAPTCHA_LENGTH },
        () => CAPTCHA_ALPHABET[rng.below(CAPTCHA_ALPHABET.length)],
      ).join('');
      const captchaId = deps.newId();
      await store.transaction(async (tx) => {
        await tx.resets.deleteExpiredCaptchas(isoNow(deps));
        await tx.resets.insertCaptcha({
          id: captchaId,
          answerHash: captchaAnswerHash(captchaId, answer),
          expireAt: isoIn(deps, CAPTCHA_TTL_SECONDS),
          usedAt: null,
        });
      });
      const svg = renderCaptchaSvg(answer, deps.random);
      return { captchaId, image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`, answer };
    },

    async verify(token) {
      const split = token.indexOf(':');
      if (split <= 0) return false;
      const captchaId = token.slice(0, split);
      const captcha = await store.resets.useCaptcha(captchaId, isoNow(deps));
      if (!captcha) return false;
      return sameSecret(captcha.answerHash, captchaAnswerHash(captchaId, token.slice(split + 1)));
    },
  };
}
