import type { RequestHandler } from 'express';
import { ApiError } from '../services/api-error.ts';

/**
 * Runs right after the JSON parser: a request that carries a body the parser did not read (another
 * Content-Type) is a 400 (docs/contract.md §1), never treated as no body. Otherwise a signed
 * operation whose body may be empty (rotate-key) would act on a body it never looked at.
 */
export const rejectNonJsonBody: RequestHandler = (request, _response, next) => {
  const length = request.headers['content-length'];
  const carriesBody =
    request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (request.body === undefined && carriesBody) {
    next(new ApiError('VALIDATION_ERROR', 'body: must be JSON, sent with Content-Type: application/json'));
    return;
  }
  next();
};
