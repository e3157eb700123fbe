import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler } from 'express';
import { type Logger, withLogContext } from '../logger.ts';
import type { Metrics } from '../ops/metrics.ts';

/** An incoming x-request-id is kept only if it is short and plain (it is echoed and logged). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives each request a `reqId` (the caller's `x-request-id` when sane, else a new one; echoed in
 * the answer) that every line logged while serving it carries, then logs exactly one access line
 * and counts it in the metrics once the answer is finished. The line names the route pattern, never
 * the raw URL: ids and the gameUrl token (in the query string) stay out of the logs and out of the
 * metrics' labels. Our own middleware rather than pino-http: it needs the route pattern for both
 * the line and the metrics, and this is shorter than configuring pino-http to find it.
 */
export function requestLogging(deps: {
  logger: Logger;
  metrics: Metrics;
  newId: () => string;
}): RequestHandler {
  return (request, response, next) => {
    const incoming = request.get('x-request-id');
    const reqId = incoming && SANE_REQUEST_ID.test(incoming) ? incoming : deps.newId();
    response.set('X-Request-Id', reqId);
    const started = performance.now();
    const matched = watchRoute(request);
    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
      const route = matched() ?? (request.baseUrl ? `${request.baseUrl}/*` : '(unmatched)');
      const status = response.writableFinished ? response.statusCode : 499; // 499: the client left first
      const seconds = (performance.now() - started) / 1000;
      deps.metrics.httpRequest(request.method, route, status, seconds);
      deps.logger[status >= 500 ? 'warn' : 'info']('request', {
        reqId,
        method: request.method,
        route,
        status,
        ms: Math.round(seconds * 10_000) / 10,
      });
    };
    response.once('finish', done);
    response.once('close', done);
    withLogContext({ reqId }, next);
  };
}

/**
 * The full pattern of the route that took the request (`/v1/game/:id`), read when Express sets
 * `request.route`: by the time the answer is finished, an error passed on out of a router has
 * already reset `baseUrl` (the `/v1`). Files under a mount are `/docs/assets/*`, anything else
 * `(unmatched)`: a bounded set of values, whatever the URL.
 */
function watchRoute(request: Request): () => string | undefined {
  let route: unknown;
  let pattern: string | undefined;
  Object.defineProperty(request, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: { path?: unknown } | undefined) => {
      route = value;
      if (typeof value?.path === 'string') pattern = `${request.baseUrl}${value.path}`;
    },
  });
  return () => pattern;
}
