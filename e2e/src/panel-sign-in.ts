import type { BrowserContext, Page } from 'playwright-core';
import { en } from '../../apps/panel/src/i18n/en.ts';
import type { TestServer } from '../../apps/server/test/harness.ts';

const WAIT = { timeout: 30_000 };

/** Signing in to the panel in a browser test, through its real captcha. */
export interface PanelSignIn {
  /** The answers of the captchas the browser was given, newest last. */
  answers: string[];
  /** Fills the captcha with the answer of the image on show (the newest one the browser was given). */
  solveCaptcha(page: Page): Promise<void>;
  /** Fills the sign-in form on show and submits it. */
  signIn(page: Page, email: string, password: string): Promise<void>;
}

/**
 * The browser asks GET /v1/auth/captcha as usual, and the test answers that request with a captcha
 * the same service issued in-process (services.panel.issueCaptcha, as the panel-auth tests solve
 * theirs), so it knows the answer. Nothing in the service or the panel has a way around it.
 */
export async function panelSignIn(context: BrowserContext, server: TestServer): Promise<PanelSignIn> {
  const answers: string[] = [];
  await context.route(`${server.url}/v1/auth/captcha`, async (route) => {
    const { captchaId, image, answer } = await server.running.app.services.panel.issueCaptcha();
    answers.push(answer);
    await route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ status: 'success', data: { captchaId, image } }),
    });
  });

  async function solveCaptcha(page: Page): Promise<void> {
    await page.locator('img.captcha[src^="data:image/svg+xml"]').waitFor(WAIT);
    await page.getByLabel(en.auth.captcha).fill(answers.at(-1) ?? '');
  }

  return {
    answers,
    solveCaptcha,
    async signIn(page, email, password) {
      await page.getByRole('heading', { level: 1, name: en.auth.signInTitle }).waitFor(WAIT);
      await page.getByLabel(en.auth.email).fill(email);
      await page.getByLabel(en.auth.password, { exact: true }).fill(password);
      await solveCaptcha(page);
      await page.getByRole('button', { name: en.auth.signIn, exact: true }).click();
    },
  };
}
