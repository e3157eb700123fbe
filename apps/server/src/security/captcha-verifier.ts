import { z } from 'zod';

/**
 * The captcha of panel-login and forgot-password (docs/contract.md §2), injected as `deps.captcha`.
 * The default is ALTCHA (altcha-captcha.ts): self-hosted proof of work, no third party. A hosted
 * verifier (Cloudflare Turnstile, hCaptcha) is another implementation of this interface; docs/contract.md
 * ("Plugging another captcha") says what it takes.
 */
export interface CaptchaVerifier {
  /** What GET /v1/auth/captcha answers: a challenge for the panel's widget to solve. */
  issue(): Promise<CaptchaChallenge>;
  /**
   * Whether `token` (the `captcha` field the page sent) is good. A good token is used up, so the same
   * token is refused the next time; a refused one changes nothing.
   */
  verify(token: string, ip: string): Promise<boolean>;
}

const hex = z.string().regex(/^[0-9a-f]+$/);

/** An ALTCHA challenge (PoW v2) as GET /v1/auth/captcha answers it and the widget sends it back. */
export const captchaChallengeSchema = z
  .object({
    parameters: z.looseObject({
      algorithm: z.string(),
      nonce: hex,
      salt: hex,
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: z.string(),
      keySignature: z.string().exactOptional(),
    }),
    signature: z.string().meta({ description: 'HMAC of the parameters, under a key only the service holds' }),
  })
  .meta({
    id: 'CaptchaChallenge',
    description:
      'An ALTCHA proof-of-work challenge (https://altcha.org, PoW v2): the `altcha` widget solves it and its payload is the `captcha` of panel-login and forgot-password.',
  });

export type CaptchaChallenge = z.output<typeof captchaChallengeSchema>;
