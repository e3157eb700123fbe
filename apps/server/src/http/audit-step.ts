import type { Request } from 'express';
import type { Logger } from '../logger.ts';
import type { AuditService } from '../services/audit-service.ts';
import type { AuthContext } from '../services/auth-context.ts';

/** What the audit step reads of a route (route.ts's RouteDefinition has it). */
export interface AuditedRoute {
  method: string;
  path: string;
  auth: string;
}

/** Records one write that succeeded; never fails the request it records. */
export type AuditStep = (
  route: AuditedRoute,
  request: Request,
  auth: AuthContext,
  result: unknown,
) => Promise<void>;

/** A GET reads; every other method of an authenticated operation is a write. */
export const isAuditedWrite = (route: AuditedRoute): boolean =>
  route.method !== 'get' && route.auth !== 'none';

const firstString = (values: Iterable<unknown>): string | null => {
  for (const value of values) if (typeof value === 'string' && value !== '') return value;
  return null;
};

/**
 * The record a write changed: the id in its path (`/webhook/:webhookId`), else the id it created
 * (`data.profileId`, `data.webhookId`, `data.id` …), else none.
 */
export function auditTarget(params: Record<string, unknown>, result: unknown): string | null {
  const fromPath = firstString(Object.values(params));
  if (fromPath !== null) return fromPath;
  const data = (result as { data?: unknown } | null)?.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const entries = Object.entries(data as Record<string, unknown>);
  return firstString(
    entries.filter(([key]) => key === 'id' || /[a-z]Id$/.test(key)).map(([, value]) => value),
  );
}

/**
 * The one hook that writes the audit log for every route (http/route.ts calls it after a write
 * answered 2xx). Written after the change committed: a failure to log is logged, and the answer
 * (already decided) still goes out.
 */
export function createAuditStep(audit: AuditService, logger: Logger): AuditStep {
  return async (route, request, auth, result) => {
    const operation = `${route.method.toUpperCase()} /v1${route.path}`;
    try {
      await audit.record({
        auth,
        operation,
        targetId: auditTarget(request.params as Record<string, unknown>, result),
        ip: request.ip ?? '',
      });
    } catch (error) {
      logger.error('audit log write failed', {
        operation,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };
}
