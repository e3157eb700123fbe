import { createChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { z } from 'zod';
import type { Store } from '../store/store.ts';
import { type CaptchaVerifier, captchaChallengeSchema } from './captcha-verifier.ts';
import { digest, type SecretBox, sameSecret } from './secrets.ts';

/**
 * How hard and how long-lived the ALTCHA challenges are (Settings.captcha). The page derives one
 * PBKDF2 key per try, `cost` iterations each, until it reaches the counter the service drew in
 * [counterMin, counterMax]: about (counterMin + counterMax) / 2 × cost iterations per sign-in, spread
 * over the widget's workers. Tests shrink it so a solve takes a millisecond.
 */
export interface CaptchaSettings {
  cost: number;
  counterMin: number;
  counterMax: number;
  ttlSeconds: number;
}

/**
 * Production: ALTCHA's documented PBKDF2 cost (5,000 iterations a try) and about 1,000 tries,
 * 0.5–2 s on a laptop's browser and a few seconds on a phone; each challenge lives 10 minutes.
 */
export const ALTCHA_DEFAULTS: CaptchaSettings = {
  cost: 5_000,
  counterMin: 500,
  counterMax: 1_500,
  ttlSeconds: 10 * 60,
};

const ALGORITHM = 'PBKDF2/SHA-256';

/** The widget's payload, base64 of this JSON. */
const altchaPayloadSchema = z.object({
  challenge: captchaChallengeSchema,
  solution: z.object({ counter: z.number(), derivedKey: z.string() }),
});

function parsePayload(token: string) {
  try {
    return altchaPayloadSchema.safeParse(JSON.parse(Buffer.from(token, 'base64').toString('utf8'))).data;
  } catch {
    return undefined;
  }
}

/** An integer in [min, max] from the injected random source, without modulo bias. */
export function randomIntBetween(random: (bytes: number) => Buffer, min: number, max: number): number {
  const span = max - min + 1;
  const limit = 2 ** 32 - (2 ** 32 % span);
  for (;;) {
    const value = random(4).readUInt32BE(0);
    if (value < limit) return min + (value % span);
  }
}

/**
 * The default captcha: ALTCHA, self-hosted proof of work (altcha-lib). The challenge is signed with
 * an HMAC key derived from the server key, so every instance of the installation checks what any
 * other issued. Expiry and single use live in the store, as the service's clock sees them: each
 * issued challenge is a `captchas` row (id = its nonce, the digest of its signature) that a good
 * payload marks used, atomically, and that is deleted once it has expired.
 */
export function createAltchaCaptcha(
  deps: { store: Store; clock: () => Date; random: (bytes: number) => Buffer; secrets: SecretBox },
  overrides: Partial<CaptchaSettings> = {},
): CaptchaVerifier {
  const { store, clock: now } = deps;
  const settings = { ...ALTCHA_DEFAULTS, ...overrides };
  const secrets = {
    hmacSignatureSecret: deps.secrets.derivedSecret('altcha challenge'),
    // Deterministic mode: the key the counter gives is signed too, so a check is two HMACs, not a derivation.
    hmacKeySignatureSecret: deps.secrets.derivedSecret('altcha key'),
  };
  return {
    async issue() {
      const challenge = await createChallenge({
        algorithm: ALGORITHM,
        cost: settings.cost,
        counter: randomIntBetween(deps.random, settings.counterMin, settings.counterMax),
        deriveKey,
        ...secrets,
      });
      const { parameters, signature } = challenge;
      if (!signature) throw new Error('altcha-lib returned an unsigned challenge');
      await store.transaction(async (tx) => {
        await tx.resets.deleteExpiredCaptchas(now().toISOString());
        await tx.resets.insertCaptcha({
          id: parameters.nonce,
          answerHash: digest(signature),
          expireAt: new Date(now().getTime() + settings.ttlSeconds * 1000).toISOString(),
          usedAt: null,
        });
      });
      return captchaChallengeSchema.parse({ parameters, signature });
    },

    async verify(token) {
      const payload = parsePayload(token);
      if (!payload) return false;
      // The raw challenge: the signature covers exactly the parameters the page sent back.
      const result = await verifySolution({ ...payload, deriveKey, ...secrets });
      if (!result.verified) return false;
      // Only a solved challenge is used up: a wrong or tampered payload changes nothing.
      const issued = await store.resets.useCaptcha(payload.challenge.parameters.nonce, now().toISOString());
      return issued !== undefined && sameSecret(issued.answerHash, digest(payload.challenge.signature));
    },
  };
}
