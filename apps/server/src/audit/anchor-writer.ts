/**
 * Writes a client's next anchor (contract §16): the leaves ended since its last anchor, their
 * Merkle root, signed and chained. The leaves are read and the anchor signed outside any unit;
 * the unit only inserts the anchor row, which holds the marks of the leaves it covers, so a crash
 * at any point leaves either the whole anchor or nothing (the next run takes the same leaves), and
 * the (client, seq) key refuses a second writer's anchor of the same seq.
 */
import {
  type AnchorSigningKey,
  anchorHash,
  GENESIS_PREVIOUS,
  leafHash,
  merkleRoot,
  signAnchor,
  toHex,
} from '@raspa/core/audit';
import type { Clock } from '../clock.ts';
import type { AuditAnchorRecord } from '../store/repos/audit-anchors-repo.ts';
import { START_MARK } from '../store/repos/audit-anchors-repo.ts';
import type { Store, Transaction } from '../store/store.ts';
import { newLeaves } from './anchor-ranges.ts';

/** Default settle time: a unit commits within seconds of its clock reading, even across instances. */
export const ANCHOR_SETTLE_MS = 10_000;
/** Leaves in one anchor at the most: about 3 MB of leaf hashes kept with it. */
export const MAX_ANCHOR_LEAVES = 50_000;

export interface AnchorWriterDeps {
  store: Store;
  clock: Clock;
  key: AnchorSigningKey;
  /**
   * Records ended less than this long ago wait for the next anchor: a unit that began before a
   * scan may still commit a round created just before it (PostgreSQL, several instances).
   */
  settleMs: number;
  /** Leaves in one anchor at the most; more wait for the next. */
  maxLeaves: number;
  /** Runs inside the anchor's unit after its insert (the `anchor` webhook event: anchor-event.ts). */
  inUnit?: (tx: Transaction, record: AuditAnchorRecord) => Promise<void>;
}

/** The anchor written, or null when there was nothing new or another writer wrote this seq first. */
export async function writeNextAnchor(
  deps: AnchorWriterDeps,
  clientId: string,
): Promise<AuditAnchorRecord | null> {
  const repo = deps.store.auditAnchors;
  const last = await repo.last(clientId);
  const now = deps.clock();
  const cutoff = new Date(now.getTime() - deps.settleMs).toISOString();
  const from = last ?? { roundMark: START_MARK, entryMark: START_MARK };
  const found = await newLeaves(repo, clientId, from, cutoff, deps.maxLeaves);
  if (found.leaves.length === 0) return null;
  const hashes = found.leaves.map((leaf) => leafHash(leaf.leaf));
  const anchor = signAnchor(
    {
      clientId,
      seq: (last?.anchor.seq ?? 0) + 1,
      count: hashes.length,
      root: toHex(merkleRoot(hashes)),
      previous: last ? anchorHash(last.anchor) : GENESIS_PREVIOUS,
      at: now.toISOString(),
      keyId: deps.key.keyId,
    },
    deps.key,
  );
  const record: AuditAnchorRecord = {
    anchor,
    roundMark: found.roundMark,
    entryMark: found.entryMark,
    leaves: found.leaves.map((leaf, i) => [leaf.label, toHex(hashes[i] as Uint8Array)]),
  };
  const written = await deps.store.transaction(async (tx) => {
    if (!(await tx.auditAnchors.insert(record))) return false;
    await deps.inUnit?.(tx, record);
    return true;
  });
  return written ? record : null;
}
