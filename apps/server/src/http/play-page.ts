import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGE_SESSION_STATE } from '@raspa/core';
import express, { type Response, Router } from 'express';
import type { SessionService } from '../services/session-service.ts';
import { PAGE_LANGS, readBuiltPage, withRoot } from './built-page.ts';
import { notBuiltHtml } from './not-built-page.ts';

/** Where `pnpm --filter @raspa/game build` puts the player's page. */
export const GAME_DIST_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'game', 'dist');

/** Hashed file names change with their content, so the browser may keep them for a year. */
const ASSET_MAX_AGE = '365d';

/**
 * The player's page behind each gameUrl (docs/contract.md §8): `GET /play/{sessionId}?token=…` answers the
 * built HTML with `frame-ancestors` from the session profile's allowedOrigins, and `/play/assets/*`
 * its hashed files. The token is read to find the profile and never logged. An ended session's page
 * is framed and worded as its live one was and says it ended (`data-session` ended or excluded, with
 * its `data-return-url`); an unknown or expired token gets `frame-ancestors 'none'` and a page that
 * says the session has expired.
 */
export function createPlayPageRouter(options: {
  sessions: Pick<SessionService, 'resolveSessionToken'>;
  distDir?: string;
}): Router {
  const distDir = options.distDir ?? GAME_DIST_DIR;
  const router = Router();

  router.use(
    '/play/assets',
    express.static(join(distDir, 'assets'), {
      index: false,
      immutable: true,
      maxAge: ASSET_MAX_AGE,
      setHeaders: (response) => {
        response.setHeader('X-Content-Type-Options', 'nosniff');
        response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
      },
    }),
  );

  router.get('/play/:sessionId', async (request, response) => {
    const token = typeof request.query.token === 'string' ? request.query.token : '';
    const live = token ? await options.sessions.resolveSessionToken(token) : undefined;
    const session = live && live.session.id === request.params.sessionId ? live : undefined;
    const html = await readBuiltPage(distDir, 'index.html');
    if (html === undefined) {
      notBuilt(response);
      return;
    }
    const ancestors = session ? frameAncestors(session.profile.allowedOrigins) : "'none'";
    const lang = session && PAGE_LANGS.includes(session.session.lang) ? session.session.lang : 'en';
    const root = session
      ? {
          lang,
          'data-session': PAGE_SESSION_STATE[session.session.endCode ?? 'live'],
          'data-model': session.game.gameModel,
          // A live page learns its way back from `state`; an ended one never asks, so it is written here.
          'data-return-url': session.session.endCode ? (session.session.returnUrl ?? undefined) : undefined,
        }
      : { lang: 'en', 'data-session': 'expired' };
    pageHeaders(response, ancestors);
    response.status(200).type('html').send(withRoot(html, root));
  });

  return router;
}

/** The operator pages allowed to frame the page, plus the service itself; each checked to be an origin. */
export function frameAncestors(allowedOrigins: readonly string[]): string {
  const origins = allowedOrigins.filter((origin) => {
    try {
      const url = new URL(origin);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === origin;
    } catch {
      return false;
    }
  });
  return ["'self'", ...origins].join(' ');
}

/** The headers of the service's pages built from apps/game: no referrer, no caching, a strict CSP. */
export function pageHeaders(response: Response, ancestors: string): void {
  // frame-ancestors decides who may frame this page; the app-wide X-Frame-Options: DENY would
  // keep older browsers from showing it in the operators' frames.
  response.removeHeader('X-Frame-Options');
  response.set({
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self'",
      // Pixi sets inline styles on its canvas; no script can come in this way.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "connect-src 'self'",
      "worker-src 'self' blob:",
      "font-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      `frame-ancestors ${ancestors}`,
    ].join('; '),
  });
}

/** The page of a build that is missing (`pnpm --filter @raspa/game build` makes it). */
export function notBuilt(
  response: Response,
  page = { heading: "The player's page is not built", what: 'the page behind this gameUrl' },
): void {
  pageHeaders(response, "'none'");
  response
    .status(503)
    .type('html')
    .send(
      notBuiltHtml({
        title: 'Raspa: page not built',
        ...page,
        build: 'pnpm --filter @raspa/game build',
      }),
    );
}
