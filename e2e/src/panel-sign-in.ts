import type { Page } from 'playwright-core';
import { type Catalogue, en } from '../../apps/panel/src/i18n/en.ts';

const WAIT = { timeout: 30_000 };

/**
 * Waits until the captcha widget on show (ALTCHA's, bundled in the panel) has solved the service's
 * challenge, in the browser: it starts once the form has focus (here its checkbox, found by its label). The test
 * servers' challenges are easy (apps/server/test/captcha-solver.ts EASY_CAPTCHA), not skipped.
 */
export async function solveCaptcha(page: Page, t: Catalogue = en): Promise<void> {
  const widget = page.locator('altcha-widget');
  const state = widget.locator('[data-state]');
  await state.waitFor(WAIT);
  if ((await state.getAttribute('data-state')) === 'unverified') {
    // As a keyboard user reaches it: the form has focus, so the widget starts.
    await widget.getByRole('checkbox', { name: t.auth.captchaWidget.label }).focus();
  }
  await widget.locator('[data-state="verified"]').waitFor(WAIT);
}

/** Fills the sign-in form on show, lets the captcha solve itself, and submits. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: en.auth.signInTitle }).waitFor(WAIT);
  await page.getByLabel(en.auth.email).fill(email);
  await page.getByLabel(en.auth.password, { exact: true }).fill(password);
  await solveCaptcha(page);
  await page.getByRole('button', { name: en.auth.signIn, exact: true }).click();
}
