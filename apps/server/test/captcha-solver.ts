import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { CaptchaSettings } from '../src/security/altcha-captcha.ts';
import type { CaptchaChallenge } from '../src/security/captcha-verifier.ts';

/** What every test server uses (harness.ts): one PBKDF2 iteration a try, at most 8 tries, so a solve is quick. */
export const EASY_CAPTCHA: Partial<CaptchaSettings> = { cost: 1, counterMin: 1, counterMax: 8 };

/** The widget's payload for a challenge, solved with altcha-lib's own solver (what a real page sends). */
export async function solveCaptcha(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('altcha-lib found no solution');
  const { counter, derivedKey } = solution;
  return Buffer.from(JSON.stringify({ challenge, solution: { counter, derivedKey } })).toString('base64');
}

/** A solved captcha from a service's panel, issued in-process (GET /v1/auth/captcha counts per IP). */
export async function solvedCaptcha(panel: { issueCaptcha(): Promise<CaptchaChallenge> }): Promise<string> {
  return solveCaptcha(await panel.issueCaptcha());
}
