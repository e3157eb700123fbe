import { SIGNATURE_HEADER, verifySignature } from '@raspa/core/signer';
import type { Request } from 'express';
import { ApiError } from '../services/api-error.ts';
import type { AuthService } from '../services/auth-service.ts';
import type { RouteGuards } from './route.ts';

/** Bearer tokens and request signatures (docs/contract.md §2). */
export function createGuards(auth: AuthService): RouteGuards {
  return {
    async authenticate(request: Request) {
      const header = request.headers.authorization;
      const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
      if (!match?.[1]) throw new ApiError('UNAUTHORIZED', 'Authorization: Bearer <accessToken> is required');
      const context = await auth.authenticate(match[1]);
      if (!context)
        throw new ApiError('UNAUTHORIZED', 'the access token is unknown or has expired; log in again');
      return context;
    },
    verifySignature(request, context) {
      const header = request.headers[SIGNATURE_HEADER];
      if (header === undefined)
        throw new ApiError('INVALID_SIGNATURE', `${SIGNATURE_HEADER} is required on this request`);
      if (!verifySignature(request.body, context.signatureToken, header)) {
        throw new ApiError(
          'INVALID_SIGNATURE',
          `${SIGNATURE_HEADER} does not match the body: HMAC-SHA512 of its canonical JSON, keyed with the signatureToken, as hex`,
        );
      }
    },
  };
}
