import express, { type ErrorRequestHandler, type Express, Router } from 'express';
import type { Deps } from './deps.ts';
import { createAuditStep } from './http/audit-step.ts';
import { docsRouter } from './http/docs-routes.ts';
import { rejectNonFiniteNumbers } from './http/finite-body.ts';
import { createGuards } from './http/guards.ts';
import { createIdempotencyStep } from './http/idempotency.ts';
import { rejectNonJsonBody } from './http/json-only-body.ts';
import { opsRouter } from './http/ops-routes.ts';
import { createPanelRouter } from './http/panel-page.ts';
import { createPlayPageRouter } from './http/play-page.ts';
import { createRateLimits } from './http/rate-limits.ts';
import { createReplayPageRouter } from './http/replay-page.ts';
import { requestLogging } from './http/request-log.ts';
import { mountRoutes, type RouteDefinition } from './http/route.ts';
import type { RouteKit } from './http/route-kit.ts';
import { auditAnchorRoutes } from './http/routes/audit-anchor-routes.ts';
import { auditRoutes } from './http/routes/audit-routes.ts';
import { authRoutes } from './http/routes/auth-routes.ts';
import { certificationRoutes } from './http/routes/certification-routes.ts';
import { gameRoutes } from './http/routes/game-routes.ts';
import { listRoutes } from './http/routes/list-routes.ts';
import { panelAuthRoutes } from './http/routes/panel-auth-routes.ts';
import { parSheetRoutes } from './http/routes/par-sheet-routes.ts';
import { poolRoutes } from './http/routes/pool-routes.ts';
import { profileRoutes } from './http/routes/profile-routes.ts';
import { promotionRoutes } from './http/routes/promotion-routes.ts';
import { protectionRoutes } from './http/routes/protection-routes.ts';
import { roundRoutes } from './http/routes/round-routes.ts';
import { sessionRoutes } from './http/routes/session-routes.ts';
import { testCardRoutes } from './http/routes/test-card-routes.ts';
import { userRoutes } from './http/routes/user-routes.ts';
import { webhookRoutes } from './http/routes/webhook-routes.ts';
import { securityHeaders } from './http/security-headers.ts';
import { createMediaRouter } from './media/media-router.ts';
import { createReadiness, type Readiness } from './ops/readiness.ts';
import { ApiError, errorBody } from './services/api-error.ts';
import { createServices, type ServiceOptions, type Services } from './services/services.ts';
import { WriteRefusedError } from './store/write-guard.ts';

/** Every operation of the API, in the order the docs list them. */
export function allRoutes(kit: RouteKit): RouteDefinition[] {
  return [
    ...authRoutes(kit),
    ...panelAuthRoutes(kit),
    ...profileRoutes(kit),
    ...gameRoutes(kit),
    ...poolRoutes(kit),
    ...parSheetRoutes(kit),
    ...certificationRoutes(kit),
    ...testCardRoutes(kit),
    ...userRoutes(kit),
    ...protectionRoutes(kit),
    ...sessionRoutes(kit),
    ...listRoutes(kit),
    ...roundRoutes(kit),
    ...webhookRoutes(kit),
    ...auditRoutes(kit),
    ...auditAnchorRoutes(kit),
    ...promotionRoutes(kit),
  ];
}

export interface App {
  express: Express;
  services: Services;
  routes: RouteDefinition[];
  /** What /ready answers; stopping() on SIGTERM. */
  readiness: Readiness;
}

/** Builds the HTTP app from its dependencies; main.ts (or a test) listens on it. */
export function createApp(
  deps: Deps,
  options: { startingUntilToldReady?: boolean } & ServiceOptions = {},
): App {
  const services = createServices(deps, options);
  const kit: RouteKit = { services, limits: createRateLimits(deps), settings: deps.settings };
  const routes = allRoutes(kit);
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  if (deps.settings.trustProxy !== undefined) app.set('trust proxy', deps.settings.trustProxy);
  const readiness = createReadiness(() => deps.store.ops.health(), {
    starting: options.startingUntilToldReady ?? false,
  });
  deps.metrics.readFrom(deps.store.ops);

  app.use(requestLogging(deps));
  app.use(securityHeaders({ publicUrl: () => deps.settings.publicUrl }));
  app.use(opsRouter({ readiness, metrics: deps.metrics, metricsToken: () => deps.settings.metricsToken }));

  app.use(docsRouter(routes, () => deps.settings.publicUrl));

  const v1 = Router();
  // A route with a larger limit reads its body first; the 100 KiB parser then finds it read and passes.
  for (const route of routes) {
    if (route.bodyLimit) v1[route.method](route.path, express.json({ limit: route.bodyLimit, strict: true }));
  }
  v1.use(express.json({ limit: '100kb', strict: true }));
  v1.use(rejectNonJsonBody);
  v1.use(rejectNonFiniteNumbers);
  mountRoutes(v1, routes, createGuards(services.auth), {
    idempotency: createIdempotencyStep(services.idempotency),
    audit: createAuditStep(services.audit, services.auditScope, deps.logger),
  });
  app.use('/v1', v1);
  app.use('/media', createMediaRouter());
  app.use(createPlayPageRouter({ sessions: services.sessions }));
  app.use(createReplayPageRouter({ rounds: services.rounds }));
  app.use(createPanelRouter());

  app.use((request, _response, next) => {
    next(new ApiError('NOT_FOUND', `no operation ${request.method} ${request.path}`));
  });
  app.use(errorHandler(deps));
  return { express: app, services, routes, readiness };
}

/** The one place an error becomes an answer: the envelope of docs/contract.md §1, never a stack or SQL. */
function errorHandler(deps: Deps): ErrorRequestHandler {
  return (error, request, response, _next) => {
    const apiError = toApiError(error);
    if (apiError.code === 'INTERNAL_ERROR') {
      deps.logger.error('request failed', {
        method: request.method,
        path: request.path,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
    if (response.headersSent) return;
    response.status(apiError.status).set(apiError.headers).json(errorBody(apiError));
  };
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  // An instance whose code is older than the database's (store/write-generation.ts): said by /ready.
  if (error instanceof WriteRefusedError) return new ApiError('SERVICE_UNAVAILABLE', error.message);
  const type = (error as { type?: unknown })?.type;
  if (type === 'entity.parse.failed') return new ApiError('VALIDATION_ERROR', 'body: is not valid JSON');
  if (type === 'entity.too.large') return new ApiError('PAYLOAD_TOO_LARGE', 'body: is larger than 100 KiB');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'body: must be UTF-8 JSON');
  }
  const status = (error as { status?: unknown })?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError('VALIDATION_ERROR', 'the request could not be read');
  }
  return new ApiError('INTERNAL_ERROR', 'something went wrong on our side; it has been logged');
}
