import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GAME_MODELS } from '@raspa/core';
import { Router } from 'express';

const COVERS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'covers');

/** Covers change only with a release; a month of caching spares the integrators' lobbies the round trips. */
const CACHE_CONTROL = 'public, max-age=2592000';

/**
 * The cover images, read once: only the seven known names are served, so no request path ever
 * reaches the file system. Mounted at /media.
 */
export function createMediaRouter(): Router {
  const covers = new Map(
    GAME_MODELS.map((model) => [`${model}.svg`, readFileSync(join(COVERS_DIR, `${model}.svg`))]),
  );
  const router = Router();
  router.get('/covers/:file', (request, response, next) => {
    const cover = covers.get(request.params.file);
    if (!cover) {
      next();
      return;
    }
    response
      .type('image/svg+xml')
      .set({
        'Cache-Control': CACHE_CONTROL,
        'X-Content-Type-Options': 'nosniff',
        // An SVG opened on its own must not run anything: it is a picture.
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        'Cross-Origin-Resource-Policy': 'cross-origin',
      })
      .send(cover);
  });
  return router;
}
