import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import { createOpenApiDocument } from '../openapi/openapi-document.ts';
import type { RouteDefinition } from './route.ts';

const here = dirname(fileURLToPath(import.meta.url));
const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const pages = join(here, '..', 'docs');

/**
 * The CSP sources (`'sha256-…'`) of the inline scripts of these pages, so the one CSP of
 * http/security-headers.ts allows exactly them and no other inline script.
 */
export function docsInlineScripts(): string[] {
  const html = readFileSync(join(pages, 'reset-password.html'), 'utf8');
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, code]) =>
      `'sha256-${createHash('sha256')
        .update(code ?? '')
        .digest('base64')}'`,
  );
}

/** `GET /v1/openapi.json`, the readable page at `/docs` and the password-reset page, all from local files (no CDN). */
export function docsRouter(routes: readonly RouteDefinition[], publicUrl: () => string): Router {
  const router = express.Router();
  let document: unknown;
  router.get('/v1/openapi.json', (_request, response) => {
    document ??= createOpenApiDocument(routes, publicUrl());
    response.json(document);
  });
  router.get('/docs', (_request, response) => response.sendFile(join(pages, 'index.html')));
  router.get('/docs/signing.js', (_request, response) => response.sendFile(join(pages, 'signing.js')));
  // The default target of password-reset links (PANEL_URL overrides it).
  router.get('/reset-password', (_request, response) => {
    response.set('Referrer-Policy', 'no-referrer').sendFile(join(pages, 'reset-password.html'));
  });
  router.use('/docs/assets', express.static(swaggerUiDir, { maxAge: '1d', index: false }));
  return router;
}
