import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { solveCaptcha } from '../../test/captcha-solver.ts';
import { openDatabase } from '../store/sqlite/database.ts';
import { createSqliteStore } from '../store/sqlite/sqlite-store.ts';
import { ALTCHA_DEFAULTS, createAltchaCaptcha, randomIntBetween } from './altcha-captcha.ts';
import { createSecretBox } from './secrets.ts';

function setUp(overrides = {}) {
  let now = Date.parse('2026-03-01T12:00:00.000Z');
  const clock = () => new Date(now);
  const store = createSqliteStore(openDatabase(':memory:'));
  const secrets = createSecretBox(randomBytes(32));
  const captcha = createAltchaCaptcha({ store, clock, random: randomBytes, secrets }, overrides);
  return { captcha, store, secrets, advance: (ms: number) => (now += ms) };
}

const EASY = { cost: 1, counterMin: 1, counterMax: 4 };

describe('the ALTCHA captcha', () => {
  it('issues production challenges by default: PBKDF2/SHA-256, 5,000 iterations a try, signed', async () => {
    const challenge = await setUp().captcha.issue();
    expect(ALTCHA_DEFAULTS).toEqual({ cost: 5_000, counterMin: 500, counterMax: 1_500, ttlSeconds: 600 });
    expect(challenge.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', cost: 5_000, keyLength: 32 });
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts a solved challenge once, until it expires', async () => {
    const { captcha, advance } = setUp(EASY);
    const token = await solveCaptcha(await captcha.issue());
    expect(await captcha.verify(token, '127.0.0.1')).toBe(true);
    expect(await captcha.verify(token, '127.0.0.1')).toBe(false);
    const late = await solveCaptcha(await captcha.issue());
    advance(ALTCHA_DEFAULTS.ttlSeconds * 1000);
    expect(await captcha.verify(late, '127.0.0.1')).toBe(false);
  });

  it('keeps a row per challenge, deleted once expired, and refuses what another server key signed', async () => {
    const { captcha, store, advance } = setUp(EASY);
    const first = await captcha.issue();
    advance(ALTCHA_DEFAULTS.ttlSeconds * 1000);
    await captcha.issue(); // issuing clears the expired rows
    expect(await store.resets.useCaptcha(first.parameters.nonce, new Date(0).toISOString())).toBeUndefined();
    const other = setUp(EASY);
    expect(await other.captcha.verify(await solveCaptcha(await captcha.issue()), '127.0.0.1')).toBe(false);
  });

  it('derives its HMAC keys from the server key, apart from every other secret', () => {
    const { secrets } = setUp();
    const keys = ['altcha challenge', 'altcha key'].map((purpose) => secrets.derivedSecret(purpose));
    expect(new Set([...keys, secrets.signatureTokenFor('altcha challenge')]).size).toBe(3);
    expect(secrets.derivedSecret('altcha key')).toBe(keys[1]);
  });

  it('draws counters in [min, max] from the injected random source', () => {
    fc.assert(
      fc.property(
        fc.nat(10_000),
        fc.nat(10_000),
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        (a, b, seed) => {
          const [min, max] = a <= b ? [a, b] : [b, a];
          let at = 0;
          const random = (bytes: number) => {
            const out = Buffer.alloc(bytes);
            for (let index = 0; index < bytes; index++) out[index] = seed[at++ % seed.length] as number;
            return out;
          };
          const value = randomIntBetween(random, min, max);
          return Number.isInteger(value) && value >= min && value <= max;
        },
      ),
    );
  });
});
