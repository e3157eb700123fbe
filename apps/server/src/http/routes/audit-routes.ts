import { z } from 'zod';
import { isoTime } from '../../schemas/common.ts';
import { pageOf, pageQuery } from '../../schemas/paging.ts';
import type { AuditRecord } from '../../store/records.ts';
import { okPage } from '../envelope.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';

export const auditEntrySchema = z
  .object({
    id: z.string(),
    actor: z.enum(['apiKey', 'panel']).meta({
      description: 'Whose token set made it: one from the API key (login) or the panel user’s (panel-login)',
    }),
    operation: z.string().meta({ example: 'POST /v1/webhook/:webhookId/redeliver' }),
    targetId: z
      .string()
      .nullable()
      .meta({ description: 'The record it changed: the id in its path, or the id it created' }),
    ip: z
      .string()
      .meta({ description: 'The caller’s address (behind a proxy: as TRUST_PROXY lets it be read)' }),
    at: isoTime,
  })
  .meta({ id: 'AuditEntry' });

export function auditEntryView(entry: AuditRecord): z.infer<typeof auditEntrySchema> {
  return {
    id: entry.id,
    actor: entry.actor === 'panel' ? 'panel' : 'apiKey',
    operation: entry.operation,
    targetId: entry.targetId,
    ip: entry.ip,
    at: entry.at,
  };
}

export function auditRoutes({ services }: RouteKit): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/audit',
      tag: 'Back office',
      summary: 'List the audit log of the API client',
      description:
        'Every write through the API (POST, PUT, DELETE with a token) that succeeded, newest first: who, ' +
        'what, on which record, when and from where. Reads, refused requests and replayed ' +
        'Idempotency-Key answers are not entries (they changed nothing).',
      auth: 'bearer',
      query: pageQuery,
      success: { status: 200, schema: pageOf(auditEntrySchema) },
      errors: [400, 401, 500],
      handle: async ({ auth, query }) => {
        const page = await services.audit.list(auth, query);
        return okPage(page.items.map(auditEntryView), { ...query, totalCount: page.totalCount });
      },
    }),
  ];
}
