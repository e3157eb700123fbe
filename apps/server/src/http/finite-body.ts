import type { RequestHandler } from 'express';
import { ApiError } from '../services/api-error.ts';
import { pathsWhere } from './value-paths.ts';

/**
 * The paths (`body.levels.0.prize`) of every number in a parsed JSON body that is not finite.
 * JSON.parse turns a literal beyond the double range (`1e309`, `-1e309`) into ±Infinity, which
 * has no canonical JSON form: without this check such a body failed as INVALID_SIGNATURE, which
 * sent the integrator looking at its signing code instead of at the number.
 */
export function nonFinitePaths(value: unknown, root = 'body'): string[] {
  return pathsWhere(value, (leaf) => typeof leaf === 'number' && !Number.isFinite(leaf)).map((path) =>
    [root, ...path].join('.'),
  );
}

/**
 * Runs right after the JSON parser, before authentication and the signature check: a body with a
 * number out of the double range is a 400 naming each such field (docs/contract.md §1), on every route.
 */
export const rejectNonFiniteNumbers: RequestHandler = (request, _response, next) => {
  const paths = nonFinitePaths(request.body);
  if (paths.length === 0) {
    next();
    return;
  }
  next(
    new ApiError(
      'VALIDATION_ERROR',
      paths.map(
        (path) =>
          `${path}: is not a finite number (JSON numbers must lie within ±1.7976931348623157e308, e.g. 1e309 does not)`,
      ),
    ),
  );
};
