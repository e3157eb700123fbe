import { z } from 'zod';
import { isoTime, messagesBody, successStatus } from '../../schemas/common.ts';
import { clientIp } from '../client-ip.ts';
import { ok, okMessages } from '../envelope.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';

export const tokenSetSchema = z
  .object({
    accessToken: z.string(),
    signatureToken: z.string().meta({ description: 'Key of the x-signed-request HMAC-SHA512 (UTF-8)' }),
    expireAt: isoTime,
  })
  .meta({ id: 'TokenSet' });

export const newApiKeySchema = z
  .object({ apiKey: z.string().meta({ description: 'The new key, shown once' }) })
  .meta({ id: 'NewApiKey' });

const loginBody = z.object({ apiKey: z.string('must be a string').min(1, 'must not be empty').max(200) });

export function authRoutes({ services, limits }: RouteKit): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/login',
      tag: 'Authentication',
      summary: 'Exchange an API key for a token set',
      auth: 'none',
      body: loginBody,
      before: limits.login,
      success: { status: 200, schema: z.object({ status: successStatus, data: tokenSetSchema }) },
      errors: [400, 401, 429, 500],
      handle: async ({ body, request }) => ok(await services.auth.login(body.apiKey, clientIp(request))),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/logout',
      tag: 'Authentication',
      summary: 'Sign out: end this token set',
      description:
        'Revokes the token set of the bearer token at once (its accessToken and signatureToken then answer ' +
        '401); the client’s other token sets stay. Like the other /v1/auth operations it needs no ' +
        'signature; the body may be empty. The web panel’s sign-out calls it.',
      auth: 'bearer',
      body: z.object({}).meta({ id: 'Logout' }),
      success: { status: 200, schema: messagesBody },
      errors: [401, 500],
      handle: async ({ auth }) => {
        await services.auth.logout(auth);
        return okMessages('Signed out: this token set no longer works.');
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/rotate-key',
      tag: 'Authentication',
      summary: 'Replace the API key',
      description:
        'Answers a new apiKey, shown this once (only its digest is kept). The old key stops working at ' +
        'once: logging in with it is a 401, and the token sets it gave are revoked (panel sign-ins stay). ' +
        'Signed like every POST; the body may be empty (`{}`).',
      auth: 'signed',
      body: z.object({}).meta({ id: 'RotateKey' }),
      success: {
        status: 200,
        schema: z.object({
          status: successStatus,
          data: newApiKeySchema,
        }),
      },
      errors: [401, 500],
      handle: async ({ auth }) => ok(await services.auth.rotateKey(auth)),
    }),
  ];
}
