import { ApiError } from './api-error.ts';

/**
 * A record of another API client is a 403, an unknown one a 404 (docs/contract.md §1): checked in one
 * place so every resource answers the same way.
 */
export function owned<T extends { clientId: string }>(
  record: T | undefined,
  clientId: string,
  what: string,
): T {
  if (!record) throw new ApiError('NOT_FOUND', `${what} was not found`);
  if (record.clientId !== clientId) throw new ApiError('FORBIDDEN', `${what} belongs to another API client`);
  return record;
}
