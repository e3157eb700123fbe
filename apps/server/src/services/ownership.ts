import { ApiError } from './api-error.ts';

/**
 * The record, if it is the caller's: another API client's record is as unknown as one that does not
 * exist, so no answer tells a caller that an id exists somewhere (OWASP: do not reveal the existence
 * of objects a caller may not see).
 */
export const visible = <T extends { clientId: string }>(record: T | undefined, clientId: string) =>
  record?.clientId === clientId ? record : undefined;

/**
 * A record named in the path: unknown, or another API client's, is the same 404 (docs/api.md), checked
 * in one place so every resource answers the same way.
 */
export function owned<T extends { clientId: string }>(
  record: T | undefined,
  clientId: string,
  what: string,
): T {
  const mine = visible(record, clientId);
  if (!mine) throw new ApiError('NOT_FOUND', `${what} was not found`);
  return mine;
}
