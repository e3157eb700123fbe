import { createHash } from 'node:crypto';
import { canonicalJson } from '@raspa/core/signer';
import type { Request } from 'express';
import { z } from 'zod';
import { ApiError } from '../services/api-error.ts';
import type { IdempotencyService } from '../services/idempotency-service.ts';

/** What the idempotency step reads of a route (route.ts defines routes and calls this step). */
interface RouteShape {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  auth: string;
}

import { parseOrThrow } from './validation.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** The request header: validates it, types it and documents it in the OpenAPI document. */
export const idempotencyHeaderSchema = z.object({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .regex(/^[\x20-\x7e]{1,255}$/, 'must be 1 to 255 printable ASCII characters')
    .optional()
    .meta({
      description:
        'Optional. A key of your choice (e.g. a UUID) that makes this write safe to retry for 24 h: the same ' +
        'key with the same method, path and body answers the first answer again (with the header ' +
        '`Idempotent-Replayed: true`) and changes nothing more; with another method, path or body, or while ' +
        'the first request is still running, it is a 409 CONFLICT. Keys belong to your API client.',
      example: '6f1c8a52-3c1e-4b8e-9d55-0b7f2f0d9a11',
    }),
});

/** The response header of a replayed answer, for the OpenAPI document. */
export const replayedHeaderSchema = z.object({
  [REPLAYED_HEADER]: z
    .literal('true')
    .optional()
    .meta({ description: 'Present on an answer replayed for an Idempotency-Key, not executed again' }),
});

/**
 * Which operations honour the key: every POST and PUT that authenticates an API client (all the
 * signed writes and change-password). The public /auth routes have no API client to scope a key to
 * before they run, and are harmless to repeat (login issues another token set) or single-use
 * (reset-password), so they ignore the header.
 */
export const isIdempotent = (route: Pick<RouteShape, 'method' | 'auth'>): boolean =>
  (route.method === 'post' || route.method === 'put') && route.auth !== 'none';

/** Reads the header; a malformed one is a 400 naming it. Undefined when the request has none. */
export function readIdempotencyKey(request: Request): string | undefined {
  const header = { [IDEMPOTENCY_HEADER]: request.get(IDEMPOTENCY_HEADER) };
  return parseOrThrow(idempotencyHeaderSchema, header, 'headers')[IDEMPOTENCY_HEADER];
}

/**
 * What makes two requests "the same": method, route, path params, query and body, as canonical JSON
 * (so key order and whitespace do not matter, as for the signature), hashed.
 */
export function requestFingerprint(route: Pick<RouteShape, 'method' | 'path'>, request: Request): string {
  const canonical = canonicalJson({
    method: route.method.toUpperCase(),
    path: `/v1${route.path}`,
    params: { ...request.params },
    query: { ...(request.query as Record<string, unknown>) },
    body: request.body ?? {},
  });
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

export type IdempotencyClaim =
  | { kind: 'none' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'claimed'; complete(status: number, body: string): Promise<void>; release(): Promise<void> };

/** The step of mountRoutes between the guards and the handler. */
export interface IdempotencyStep {
  claim(route: RouteShape, request: Request, clientId: string): Promise<IdempotencyClaim>;
}

export function createIdempotencyStep(service: IdempotencyService): IdempotencyStep {
  return {
    async claim(route, request, clientId) {
      const key = readIdempotencyKey(request);
      if (key === undefined) return { kind: 'none' };
      const begun = await service.begin(clientId, key, requestFingerprint(route, request));
      switch (begun.kind) {
        case 'replay':
          return begun;
        case 'mismatch':
          throw new ApiError(
            'CONFLICT',
            `${IDEMPOTENCY_HEADER}: this key was already used for another request (another method, path or body); use a new key for a new request`,
          );
        case 'in-progress':
          throw new ApiError(
            'CONFLICT',
            `${IDEMPOTENCY_HEADER}: a request with this key is still in progress; retry it after it has answered. If it was cut off (the service restarted), check whether it took effect before retrying with a new key`,
          );
        case 'execute':
          return {
            kind: 'claimed',
            complete: (status, body) => service.complete(clientId, key, status, body),
            release: () => service.release(clientId, key),
          };
      }
    },
  };
}
