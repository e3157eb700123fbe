import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Response, Router } from 'express';
import { readBuiltPage } from './built-page.ts';
import { notBuiltHtml } from './not-built-page.ts';

/** Where `pnpm --filter @raspa/panel build` puts the back office. */
export const PANEL_DIST_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'panel',
  'dist',
);

/**
 * The back office (apps/panel) at `/panel`: its hashed files at `/panel/assets/*`, and its one HTML
 * page for `/panel` and every path under it, so the panel's own addresses (`/panel/rounds`…) survive a
 * reload. The app-wide security headers apply unchanged: the page is not framable and runs only its
 * own script file; the HTML is never cached, so a new build is picked up at once.
 */
export function createPanelRouter(options: { distDir?: string } = {}): Router {
  const distDir = options.distDir ?? PANEL_DIST_DIR;
  const router = Router();
  router.use(
    '/panel/assets',
    express.static(join(distDir, 'assets'), {
      index: false,
      immutable: true,
      maxAge: '365d',
      fallthrough: true,
    }),
  );
  router.get(['/panel', '/panel/{*rest}'], async (request, response, next) => {
    if (request.path.startsWith('/panel/assets/')) {
      next();
      return;
    }
    const html = await readBuiltPage(distDir, 'index.html');
    if (html === undefined) {
      notBuilt(response);
      return;
    }
    response.set('Cache-Control', 'no-store').status(200).type('html').send(html);
  });
  return router;
}

function notBuilt(response: Response): void {
  response
    .status(503)
    .set('Cache-Control', 'no-store')
    .type('html')
    .send(
      notBuiltHtml({
        title: 'Raspa: panel not built',
        heading: 'The back office is not built',
        what: 'the panel',
        build: 'pnpm --filter @raspa/panel build',
      }),
    );
}
