import { timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import type { Metrics } from '../ops/metrics.ts';
import type { Readiness } from '../ops/readiness.ts';
import { ApiError, errorBody } from '../services/api-error.ts';

/**
 * `/health` (the process runs), `/ready` (it can serve: docs/contract.md §12) and `/metrics` (Prometheus
 * text), for load balancers, orchestrators and scrapers.
 */
export function opsRouter(options: {
  readiness: Readiness;
  metrics: Metrics;
  /** When set, /metrics wants `Authorization: Bearer <token>`. */
  metricsToken: () => string | undefined;
}): Router {
  const router = Router();

  router.get('/health', (_request, response) => {
    response.json({ status: 'ok' });
  });

  router.get('/ready', async (_request, response) => {
    const verdict = await options.readiness.check();
    response.set('Cache-Control', 'no-store');
    if (verdict.ok) {
      response.json({ status: 'ok' });
      return;
    }
    const error = new ApiError('SERVICE_UNAVAILABLE', `not ready: ${verdict.reason}`);
    response.status(error.status).json(errorBody(error));
  });

  router.get('/metrics', async (request, response, next) => {
    const token = options.metricsToken();
    if (token && !bearerMatches(request.get('authorization'), token)) {
      next(new ApiError('UNAUTHORIZED', 'GET /metrics wants Authorization: Bearer <METRICS_TOKEN>'));
      return;
    }
    const { registry } = options.metrics;
    response
      .set('Cache-Control', 'no-store')
      .type(registry.contentType)
      .send(await registry.metrics());
  });

  return router;
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
