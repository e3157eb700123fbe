/**
 * verify-audit against a live database (read-only): each client's anchors in seq order, with the
 * leaves the records give now in each anchor's ranges, through core's verifyAudit (the rules an
 * auditor reads). Also names what lies past the last anchor: records ended since are not yet
 * covered, which is not a break.
 */
import { type AnchorToCheck, type AuditVerdict, verifyAudit } from '@raspa/core/audit';
import type { AuditAnchorRecord, AuditAnchorsRepo } from '../store/repos/audit-anchors-repo.ts';
import { START_MARK } from '../store/repos/audit-anchors-repo.ts';
import { leavesInRanges } from './anchor-ranges.ts';

const ANCHOR_PAGE = 100;

/** The client's anchors with their leaves as the records give them now, one anchor at a time. */
export async function* anchorsToCheck(
  repo: AuditAnchorsRepo,
  clientId: string,
): AsyncGenerator<AnchorToCheck> {
  let before: AuditAnchorRecord | null = null;
  for (let fromSeq = 1; ; fromSeq += ANCHOR_PAGE) {
    const page = await repo.page(clientId, fromSeq, ANCHOR_PAGE);
    for (const record of page) {
      const after = before ?? { roundMark: START_MARK, entryMark: START_MARK };
      const leaves = await leavesInRanges(repo, clientId, after, record);
      yield {
        anchor: record.anchor,
        leaves,
        recorded: record.leaves.map(([label, hash]) => ({ label, hash })),
      };
      before = record;
    }
    if (page.length < ANCHOR_PAGE) return;
  }
}

/** Every client's chain; the first break of the first client that has one. */
export async function verifyStoredAudit(
  repo: AuditAnchorsRepo,
): Promise<{ clientId: string | null; verdict: AuditVerdict; anchors: number; leaves: number }> {
  const keys = await repo.keys();
  let anchors = 0;
  let leaves = 0;
  for (const clientId of await repo.clientIds()) {
    const items: AnchorToCheck[] = [];
    for await (const item of anchorsToCheck(repo, clientId)) items.push(item);
    const verdict = verifyAudit(items, keys);
    if (!verdict.ok) return { clientId, verdict, anchors, leaves };
    anchors += verdict.anchors;
    leaves += verdict.leaves;
  }
  return { clientId: null, verdict: { ok: true, anchors, leaves }, anchors, leaves };
}
