import type { Request } from 'express';
import type { Logger } from '../logger.ts';
import type { AuditScope } from '../services/audit-scope.ts';
import type { AuditService } from '../services/audit-service.ts';
import type { AuthContext } from '../services/auth-context.ts';
import { clientIp } from './client-ip.ts';

/** What the audit step reads of a route (route.ts's RouteDefinition has it). */
export interface AuditedRoute {
  method: string;
  path: string;
  auth: string;
}

/**
 * Runs an authenticated write's handler so that its audit entry is written in the same store
 * transaction as the write (services/audit-scope.ts), and resolves with the handler's result. A
 * write that failed leaves no entry. One that succeeded without any store unit carrying the entry
 * gets it as a row of its own, right after; if that row cannot be written the failure is logged
 * and the answer (already decided) still goes out.
 */
export type AuditStep = (
  route: AuditedRoute,
  request: Request,
  auth: AuthContext,
  handle: () => Promise<unknown>,
) => Promise<unknown>;

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

/** The one step that writes the audit log for every route (http/route.ts runs each write through it). */
export function createAuditStep(audit: AuditService, scope: AuditScope, logger: Logger): AuditStep {
  return async (route, request, auth, handle) => {
    const operation = `${route.method.toUpperCase()} /v1${route.path}`;
    const params = request.params as Record<string, unknown>;
    const ip = clientIp(request);
    const entry = {
      clientId: auth.clientId,
      actor: auth.via,
      operation,
      ip,
      targetId: auditTarget(params, null),
    };
    const { result, written } = await scope.run(entry, handle);
    if (written) return result;
    try {
      await audit.record({ auth, operation, targetId: auditTarget(params, result), ip });
    } catch (error) {
      logger.error('audit log write failed', {
        operation,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    return result;
  };
}
