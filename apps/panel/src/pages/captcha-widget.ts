// The captcha of the sign-in and forgot-password forms: ALTCHA's widget, bundled here (no script,
// style or request goes to a third party). "external" is the build without inline workers or styles,
// so the page's CSP (script-src 'self', no blob:) holds: the PBKDF2 worker is a file of our own bundle.
import 'altcha/external';
import 'altcha/altcha.css';
import { el } from '@raspa/browser-kit';
import type { Lang } from '@raspa/server/wire';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import type { ApiClient } from '../api/api-client.ts';
import type { Catalogue } from '../i18n/en.ts';
import { errorMessages } from '../ui/feedback.ts';

// The service issues PBKDF2/SHA-256 challenges (apps/server/src/security/altcha-captcha.ts).
globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());

/**
 * The widget in the page's language: a checkbox "I am not a robot" that solves a proof-of-work
 * challenge from GET /v1/auth/captcha (it starts by itself once the form has focus). Nothing to read
 * or type, and its status is read out. Its payload is the `captcha` the form sends.
 */
export function captchaWidget(api: ApiClient, t: Catalogue, lang: Lang) {
  // The widget's words from the panel's tables, over its English for the ones a form never shows.
  globalThis.$altcha.i18n.set(lang, { ...globalThis.$altcha.i18n.get('en'), ...t.auth.captchaWidget });
  // What an attribute cannot carry goes in the widget's defaults, which are global: the panel shows one
  // widget at a time. The challenge comes through the API client (its error envelope), unwrapped.
  globalThis.$altcha.defaults.set({
    hideFooter: true,
    fetch: async () => {
      try {
        return Response.json(await api.captcha());
      } catch (error) {
        return new Response(errorMessages(error, t).join(' '), { status: 503 });
      }
    },
  });
  const widget = el('altcha-widget', {
    challenge: '/v1/auth/captcha',
    language: lang,
    auto: 'onfocus',
    workers: 2,
  });
  let payload: string | null = null;
  widget.addEventListener('statechange', (event) => {
    const detail = (event as CustomEvent<{ state: string; payload: string | null }>).detail;
    payload = detail.state === 'verified' ? detail.payload : null;
  });
  return {
    node: widget,
    /** The payload to send as `captcha`: the one solved already, else solved now (null if it failed). */
    async token(): Promise<string | null> {
      return payload ?? (await widget.verify())?.payload ?? null;
    },
    /** A payload is good once: after any answer the form needs a new one, solved at once. */
    renew(): void {
      widget.reset();
      void widget.verify();
    },
  };
}
