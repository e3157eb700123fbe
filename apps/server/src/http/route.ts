import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import { ApiError, errorBody } from '../services/api-error.ts';
import type { AuthContext } from '../services/auth-context.ts';
import { type AuditStep, isAuditedWrite } from './audit-step.ts';
import { type IdempotencyStep, isIdempotent, REPLAYED_HEADER } from './idempotency.ts';
import { parseOrThrow } from './validation.ts';

/** none: public; bearer: `Authorization: Bearer`; signed: bearer plus `x-signed-request` (docs/contract.md §2). */
export type RouteAuth = 'none' | 'bearer' | 'signed';

type Method = 'get' | 'post' | 'put' | 'delete';
type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<B, Q, P, A extends RouteAuth> {
  body: B;
  query: Q;
  params: P;
  auth: A extends 'none' ? undefined : AuthContext;
  request: Request;
  response: Response;
}

/**
 * One operation: its schemas validate the request, type the handler and describe it in the
 * OpenAPI document, so validation, types and docs cannot drift apart.
 */
export interface RouteDefinition<
  B extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  P extends Schema | undefined = Schema | undefined,
  R extends Schema = Schema,
  A extends RouteAuth = RouteAuth,
> {
  method: Method;
  /** Express syntax, under /v1: '/profile/:profileId'. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  auth: A;
  body?: B;
  query?: Q;
  params?: P;
  success: {
    status: 200 | 201;
    schema: R;
    description?: string;
    /** The answer is also served as text/csv (on `Accept: text/csv`): what the file holds, for the docs. */
    csv?: string;
    /** A body that is not JSON (a file the handler sends itself): its media type, for the docs. */
    contentType?: 'application/zip';
  };
  /** Statuses documented beside the success (400, 401 … as in the spec's Errors table). */
  errors: number[];
  /**
   * A JSON body limit above the API's 100 KiB (docs/contract.md §1), for the few writes that need
   * one: a promotion's 10,000 players of up to 100 characters each are about 1 MB.
   */
  bodyLimit?: '1mb';
  /** Extra middleware run first (rate limits). */
  before?: RequestHandler[];
  handle: (input: RouteInput<Out<B>, Out<Q>, Out<P>, A>) => z.input<R> | Promise<z.input<R>>;
}

export function defineRoute<
  B extends Schema | undefined,
  Q extends Schema | undefined,
  P extends Schema | undefined,
  R extends Schema,
  A extends RouteAuth,
>(definition: RouteDefinition<B, Q, P, R, A>): RouteDefinition {
  return definition as unknown as RouteDefinition;
}

export interface RouteGuards {
  /** Resolves the bearer token, or throws UNAUTHORIZED. */
  authenticate: (request: Request) => Promise<AuthContext>;
  /** Checks `x-signed-request` against the parsed body, or throws INVALID_SIGNATURE. */
  verifySignature: (request: Request, auth: AuthContext) => void;
}

/**
 * Registers routes on a router: guards, then validation, then the Idempotency-Key step, then the
 * handler (a write's inside the audit step, which records it in the write's own transaction), then
 * the JSON answer. Failures before the
 * key step (auth, signature, a malformed key or body) are not stored against the key: the request
 * never ran. A replayed answer changed nothing, so it is not audited again.
 */
export function mountRoutes(
  router: Router,
  routes: readonly RouteDefinition[],
  guards: RouteGuards,
  steps: { idempotency?: IdempotencyStep; audit?: AuditStep } = {},
): void {
  for (const route of routes) {
    const idempotent = isIdempotent(route) ? steps.idempotency : undefined;
    const audit = isAuditedWrite(route) ? steps.audit : undefined;
    const handler: RequestHandler = async (request, response) => {
      const auth = route.auth === 'none' ? undefined : await guards.authenticate(request);
      if (route.auth === 'signed' && auth) guards.verifySignature(request, auth);
      const params = route.params ? parseOrThrow(route.params, request.params, 'path') : undefined;
      const query = route.query ? parseOrThrow(route.query, request.query, 'query') : undefined;
      const body = route.body ? parseOrThrow(route.body, request.body ?? {}, 'body') : undefined;
      const claim =
        idempotent && auth
          ? await idempotent.claim(route, request, auth.clientId)
          : { kind: 'none' as const };
      if (claim.kind === 'replay') {
        response.status(claim.status).set(REPLAYED_HEADER, 'true').type('application/json').send(claim.body);
        return;
      }
      let result: unknown;
      const handle = async () => route.handle({ body, query, params, auth, request, response } as never);
      try {
        result = audit && auth ? await audit(route, request, auth, handle) : await handle();
      } catch (error) {
        // An expected refusal (4xx) is the request's outcome and is kept, as Stripe does; anything
        // else (5xx) rolled its transaction back, so the key is freed for a retry.
        if (claim.kind === 'claimed') {
          if (error instanceof ApiError && error.status < 500) {
            await claim.complete(error.status, JSON.stringify(errorBody(error)));
          } else await claim.release();
        }
        throw error;
      }
      if (response.headersSent) {
        // A handler that wrote its own answer: nothing we could replay faithfully.
        if (claim.kind === 'claimed') await claim.release();
        return;
      }
      const text = JSON.stringify(result);
      // The answer is stored before it is sent, so a retry after it can only replay it.
      if (claim.kind === 'claimed') await claim.complete(route.success.status, text);
      response.status(route.success.status).type('application/json').send(text);
    };
    router[route.method](route.path, ...(route.before ?? []), handler);
  }
}
