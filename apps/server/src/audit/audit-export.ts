/**
 * The file `pnpm audit-export` writes and `pnpm verify-audit --file` reads: every client's
 * anchors, each with the leaves (canonical JSON) the records give now in its ranges. An auditor
 * verifies it with nothing but the public keys; the file carries no key of its own to trust.
 */
import type { Anchor, AnchorToCheck, AuditLeaf } from '@raspa/core/audit';
import { z } from 'zod';
import type { AuditAnchorsRepo } from '../store/repos/audit-anchors-repo.ts';
import { anchorsToCheck } from './verify-records.ts';

export const AUDIT_EXPORT_FORMAT = 'raspa-audit-export/1';

const anchorShape = z.object({
  clientId: z.string(),
  seq: z.number().int(),
  count: z.number().int(),
  root: z.string(),
  previous: z.string(),
  at: z.string(),
  keyId: z.string(),
  signature: z.string(),
});
const exportShape = z.object({
  format: z.literal(AUDIT_EXPORT_FORMAT),
  clients: z.array(
    z.object({
      clientId: z.string(),
      anchors: z.array(
        z.object({ anchor: anchorShape, leaves: z.array(z.object({ label: z.string(), leaf: z.string() })) }),
      ),
    }),
  ),
});
export type AuditExport = z.infer<typeof exportShape>;

export const proofShape = z.object({
  leaf: z.string(),
  leafIndex: z.number().int(),
  path: z.array(z.string()),
  anchor: anchorShape,
});

/** Every client's anchors and leaves, as the database holds them now. */
export async function exportAudit(repo: AuditAnchorsRepo): Promise<AuditExport> {
  const clients: AuditExport['clients'] = [];
  for (const clientId of await repo.clientIds()) {
    const anchors: { anchor: Anchor; leaves: AuditLeaf[] }[] = [];
    for await (const { anchor, leaves } of anchorsToCheck(repo, clientId))
      anchors.push({ anchor, leaves: [...leaves] });
    if (anchors.length > 0) clients.push({ clientId, anchors });
  }
  return { format: AUDIT_EXPORT_FORMAT, clients };
}

/** An export file's chains, or why it is not one. */
export function readAuditExport(text: string): { clientId: string; anchors: AnchorToCheck[] }[] | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
  const parsed = exportShape.safeParse(json);
  if (!parsed.success)
    return `not an audit export (${AUDIT_EXPORT_FORMAT}): ${parsed.error.issues[0]?.message ?? ''}`;
  return parsed.data.clients;
}
