import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createIdGenerator } from '../ids.ts';
import { openDatabase } from '../store/sqlite/database.ts';
import { createSqliteStore } from '../store/sqlite/sqlite-store.ts';
import {
  CAPTCHA_ALPHABET,
  CAPTCHA_LENGTH,
  captchaAnswerHash,
  createOfflineCaptcha,
  renderCaptchaSvg,
} from './captcha.ts';

function setUp() {
  let now = Date.parse('2026-03-01T12:00:00.000Z');
  const clock = () => new Date(now);
  const store = createSqliteStore(openDatabase(':memory:'));
  const captcha = createOfflineCaptcha({
    store,
    clock,
    random: randomBytes,
    newId: createIdGenerator(clock),
  });
  return { captcha, store, advance: (ms: number) => (now += ms) };
}

/** A repeatable byte source, so an image can be drawn twice. */
function seededRandom(seed: string) {
  let counter = 0;
  return (bytes: number) => {
    const chunks: Buffer[] = [];
    while (Buffer.concat(chunks).length < bytes) {
      chunks.push(createHash('sha256').update(`${seed}:${counter++}`).digest());
    }
    return Buffer.concat(chunks).subarray(0, bytes);
  };
}

const svgOf = (image: string) => Buffer.from(image.split(',')[1] ?? '', 'base64').toString('utf8');
const NOISE_PATHS = 35;

describe('the offline captcha', () => {
  it('issues a code of 5 unambiguous characters and accepts `captchaId:answer` in any case, once', async () => {
    const { captcha } = setUp();
    const issued = await captcha.issue();
    expect(issued.answer).toMatch(new RegExp(`^[${CAPTCHA_ALPHABET}]{${CAPTCHA_LENGTH}}$`));
    expect(issued.image).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(await captcha.verify(`${issued.captchaId}: ${issued.answer.toLowerCase()} `, '127.0.0.1')).toBe(
      true,
    );
    expect(await captcha.verify(`${issued.captchaId}:${issued.answer}`, '127.0.0.1')).toBe(false);
  });

  it('takes one guess per captcha', async () => {
    const { captcha } = setUp();
    const issued = await captcha.issue();
    expect(await captcha.verify(`${issued.captchaId}:ZZZZZ`, '127.0.0.1')).toBe(false);
    expect(await captcha.verify(`${issued.captchaId}:${issued.answer}`, '127.0.0.1')).toBe(false);
  });

  it('expires after 10 minutes, and sweeps expired ones when issuing', async () => {
    const { captcha, store, advance } = setUp();
    const issued = await captcha.issue();
    advance(10 * 60 * 1000 - 1);
    const fresh = await captcha.issue();
    advance(1);
    expect(await captcha.verify(`${issued.captchaId}:${issued.answer}`, '127.0.0.1')).toBe(false);
    expect(await captcha.verify(`${fresh.captchaId}:${fresh.answer}`, '127.0.0.1')).toBe(true);
    advance(10 * 60 * 1000);
    await captcha.issue();
    expect(await store.resets.deleteExpiredCaptchas(new Date(Date.parse('2030-01-01')).toISOString())).toBe(
      1,
    );
  });

  it.each(['', 'no-colon', ':ACDEF', 'unknown:ACDEF'])('refuses the token %j', async (token) => {
    const { captcha } = setUp();
    await captcha.issue();
    expect(await captcha.verify(token, '127.0.0.1')).toBe(false);
  });

  it('keeps only a digest of the answer, salted with the captcha id', () => {
    expect(captchaAnswerHash('a', 'k7mwa')).toBe(captchaAnswerHash('a', 'K7MWA'));
    expect(captchaAnswerHash('a', 'K7MWA')).not.toBe(captchaAnswerHash('b', 'K7MWA'));
    expect(captchaAnswerHash('a', 'K7MWA')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('renderCaptchaSvg', () => {
  it('draws every character of the alphabet as strokes, with no text in the SVG', () => {
    for (const char of CAPTCHA_ALPHABET) {
      const svg = renderCaptchaSvg(char, randomBytes);
      expect(svg.match(/<path /g)?.length, char).toBeGreaterThan(NOISE_PATHS);
      expect(svg).not.toMatch(/<text|<tspan|font-family/);
    }
  });

  it('is repeatable for the same random bytes and different for others', () => {
    const code = 'K7MWA';
    expect(renderCaptchaSvg(code, seededRandom('one'))).toBe(renderCaptchaSvg(code, seededRandom('one')));
    expect(renderCaptchaSvg(code, seededRandom('one'))).not.toBe(renderCaptchaSvg(code, seededRandom('two')));
  });

  it('issues images that decode to a complete SVG', async () => {
    const { captcha } = setUp();
    const svg = svgOf((await captcha.issue()).image);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" [^>]+>/);
    expect(svg.endsWith('</svg>')).toBe(true);
  });
});
