import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from 'zod-openapi';
import { ERROR_STATUS } from '../services/api-error.ts';
import { idempotencyHeaderSchema, isIdempotent, replayedHeaderSchema } from './idempotency.ts';
import type { RouteDefinition } from './route.ts';

const errorSchema = z
  .object({
    status: z.literal('error'),
    code: z.enum(
      Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS, ...Array<keyof typeof ERROR_STATUS>],
    ),
    messages: z
      .array(z.string())
      .meta({ description: 'One readable sentence per problem, naming the field' }),
  })
  .meta({ id: 'Error', description: 'Every error answer (docs/contract.md §1)' });

const STATUS_TEXT: Record<number, string> = {
  400: 'Validation error: one message per bad field',
  401: 'UNAUTHORIZED (missing, unknown or expired token; bad credentials) or INVALID_SIGNATURE',
  403: 'PLAYER_EXCLUDED: the player is excluded from play',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE: the body is over 100 KiB',
  429: 'RATE_LIMITED: see the Retry-After and RateLimit headers',
  500: 'INTERNAL_ERROR: logged on our side; no details are sent',
  502: 'WALLET_ERROR: the operator wallet did not answer as expected',
};

const signatureHeader = z.object({
  'x-signed-request': z.string().meta({
    description:
      'Lowercase hex HMAC-SHA512 of the canonical JSON of the body (keys sorted by UTF-16 code unit, no whitespace; no body signs {}), keyed with the signatureToken of the same token set.',
    example: '9f2c…(128 hex characters)',
  }),
});

const DESCRIPTION = `The Raspa integrator API. Every path is under \`/v1\`; bodies are JSON.

**Log in** with \`POST /v1/auth/login\` and your apiKey: you get an \`accessToken\` (send it as
\`Authorization: Bearer …\`) and a \`signatureToken\`. Cache both until \`expireAt\`.

**Sign** every POST and PUT outside \`/v1/auth\` with the header \`x-signed-request\`: the lowercase hex
HMAC-SHA512 of the body's canonical JSON (object keys sorted recursively by UTF-16 code unit, arrays in order,
no whitespace, strings and numbers as JSON.stringify writes them; a request with no body signs \`{}\`), keyed
with the signatureToken as UTF-8. Test vectors: \`docs/signature-vectors.json\` in the repository. On this page,
paste your signatureToken in the box at the top and "Try it out" signs for you.

**Retry** a write safely with an \`Idempotency-Key\` header (any 1–255 printable ASCII characters, e.g. a UUID,
new for each new request): for 24 h the same key with the same request answers the first answer again, with
\`Idempotent-Replayed: true\`, and changes nothing more. A signature alone does not stop a replay.

**Money** travels as JSON numbers in major units (12.5 = twelve and a half BRL) and may not have more decimals
than the currency allows. **Errors** are \`{"status":"error","code":"UPPER_SNAKE","messages":[…]}\`.`;

const toOpenApiPath = (path: string) => `/v1${path.replace(/:(\w+)/g, '{$1}')}`;

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate the requests. */
export function createOpenApiDocument(routes: readonly RouteDefinition[], serverUrl: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const idempotent = isIdempotent(route);
    const responses: Record<string, ZodOpenApiResponseObject> = {
      [String(route.success.status)]: {
        description: route.success.description ?? (route.success.status === 201 ? 'Created' : 'OK'),
        content: {
          [route.success.contentType ?? 'application/json']: { schema: route.success.schema },
          ...(route.success.csv && {
            'text/csv': { schema: z.string().meta({ description: route.success.csv }) },
          }),
        },
        ...(idempotent && { headers: replayedHeaderSchema }),
      },
    };
    // A key reused for another request, or while its first request runs, is a 409 on every keyed write.
    const errors = idempotent ? [...new Set([...route.errors, 409])].sort((a, b) => a - b) : route.errors;
    for (const status of errors) {
      const text = STATUS_TEXT[status] ?? 'Error';
      responses[String(status)] = {
        description:
          status === 409 && idempotent ? `${text}; also an Idempotency-Key reused or in use` : text,
        content: { 'application/json': { schema: errorSchema } },
      };
    }
    const headers =
      route.auth === 'signed'
        ? signatureHeader.extend(idempotencyHeaderSchema.shape)
        : idempotent
          ? idempotencyHeaderSchema
          : undefined;
    const operation: ZodOpenApiOperationObject = {
      tags: [route.tag],
      summary: route.summary,
      ...(route.description && { description: route.description }),
      operationId: `${route.method}${route.path.replace(/[/:{}-](\w)/g, (_, c: string) => c.toUpperCase())}`,
      ...(route.auth !== 'none' && { security: [{ bearer: [] }] }),
      requestParams: {
        ...(route.params && { path: route.params as z.ZodObject }),
        ...(route.query && { query: route.query as z.ZodObject }),
        ...(headers && { header: headers }),
      },
      ...(route.body && {
        requestBody: { required: true, content: { 'application/json': { schema: route.body } } },
      }),
      responses,
    };
    const path = toOpenApiPath(route.path);
    paths[path] = { ...paths[path], [route.method]: operation };
  }
  return createDocument({
    openapi: '3.1.0',
    info: { title: 'Raspa integrator API', version: '1.0.0', description: DESCRIPTION },
    servers: [{ url: serverUrl }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  });
}
