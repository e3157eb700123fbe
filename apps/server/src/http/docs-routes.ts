import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import { PANEL_RESET_PATH } from '../config.ts';
import { createOpenApiDocument } from './openapi-document.ts';
import type { RouteDefinition } from './route.ts';

const here = dirname(fileURLToPath(import.meta.url));
const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const pages = join(here, '..', 'docs');

/** `GET /v1/openapi.json` and the readable page at `/docs`, from local files (no CDN). */
export function docsRouter(routes: readonly RouteDefinition[], publicUrl: () => string): Router {
  const router = express.Router();
  let document: unknown;
  router.get('/v1/openapi.json', (_request, response) => {
    document ??= createOpenApiDocument(routes, publicUrl());
    response.json(document);
  });
  router.get('/docs', (_request, response) => response.sendFile(join(pages, 'index.html')));
  router.get('/docs/signing.js', (_request, response) => response.sendFile(join(pages, 'signing.js')));
  // Reset links e-mailed before the panel existed pointed here: they open the panel's reset page.
  router.get('/reset-password', (request, response) => {
    const query = request.originalUrl.indexOf('?');
    response.redirect(302, `${PANEL_RESET_PATH}${query === -1 ? '' : request.originalUrl.slice(query)}`);
  });
  router.use('/docs/assets', express.static(swaggerUiDir, { maxAge: '1d', index: false }));
  return router;
}
