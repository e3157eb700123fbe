/**
 * The verification of a client's anchors against the leaves recomputed from the records (contract
 * §16), written for an auditor to read: it walks the anchors in order and stops at the FIRST
 * break, saying which anchor, which record and what differs. It only reads: a break is reported,
 * never repaired (a job that "fixes" a mismatched row before checking it launders a tampering).
 */
import { type Anchor, anchorHash, GENESIS_PREVIOUS, verifyAnchorSignature } from './anchor.ts';
import { type Digest, digestFromHex, leafHash, merkleRoot, toHex, verifyInclusion } from './merkle.ts';

/** One leaf as recomputed from a record: `label` names the record (e.g. `round r_1`). */
export interface AuditLeaf {
  label: string;
  /** The canonical JSON of the record (UTF-8 when hashed). */
  leaf: string;
}

/**
 * What the anchoring wrote down about a leaf when it signed it: only to name a changed record. It
 * is not signed; a difference while the leaves still give the signed root is a break of its own
 * (`recorded`: the kept list was changed).
 */
export interface RecordedLeaf {
  label: string;
  /** Hex leaf hash. */
  hash: string;
}

export interface AnchorToCheck {
  anchor: Anchor;
  /** The leaves in the anchor's range, in the fixed order, as the records give them now. */
  leaves: readonly AuditLeaf[];
  /** The leaves as they were when signed, if kept: lets a break name the record, not only the anchor. */
  recorded?: readonly RecordedLeaf[];
}

/** A public key that signs anchors. */
export interface AuditKey {
  keyId: string;
  /** Base64 of the raw 32-byte Ed25519 public key. */
  publicKey: string;
}

export type BreakReason =
  | 'seq'
  | 'client'
  | 'previous'
  | 'unknown-key'
  | 'signature'
  | 'leaf-changed'
  | 'leaf-removed'
  | 'leaf-inserted'
  | 'leaf-duplicated'
  | 'leaf-reordered'
  | 'count'
  | 'root'
  | 'recorded';

export interface AuditBreak {
  reason: BreakReason;
  /** The anchor at which it breaks. */
  anchorSeq: number;
  /** The record concerned, when one is. */
  record: string | null;
  /** What differs, in words. */
  detail: string;
}

export type AuditVerdict = { ok: true; anchors: number; leaves: number } | { ok: false; break: AuditBreak };

/**
 * Checks each anchor in turn: its seq follows the previous (from 1, no gap), it names the same
 * client, `previous` is the previous anchor's hash, its key is known and its signature holds, no
 * record is a leaf of two anchors, its count is its leaves' and its root is theirs.
 */
export function verifyAudit(anchors: Iterable<AnchorToCheck>, keys: readonly AuditKey[]): AuditVerdict {
  const keyById = new Map(keys.map((k) => [k.keyId, k.publicKey]));
  const seen = new Map<string, number>();
  let before: Anchor | null = null;
  let leafTotal = 0;
  let n = 0;
  for (const item of anchors) {
    const broken = checkAnchor(item, before, keyById, seen);
    if (broken) return { ok: false, break: broken };
    before = item.anchor;
    leafTotal += item.leaves.length;
    n++;
  }
  return { ok: true, anchors: n, leaves: leafTotal };
}

function checkAnchor(
  { anchor, leaves, recorded }: AnchorToCheck,
  before: Anchor | null,
  keyById: ReadonlyMap<string, string>,
  seen: Map<string, number>,
): AuditBreak | null {
  const at = (reason: BreakReason, detail: string, record: string | null = null): AuditBreak => ({
    reason,
    anchorSeq: anchor.seq,
    record,
    detail,
  });
  const expectedSeq = before ? before.seq + 1 : 1;
  if (anchor.seq !== expectedSeq) return at('seq', `anchor seq ${anchor.seq} where ${expectedSeq} is due`);
  if (before && anchor.clientId !== before.clientId) {
    return at('client', `anchor names client ${anchor.clientId}, the chain is ${before.clientId}'s`);
  }
  const previous = before ? anchorHash(before) : GENESIS_PREVIOUS;
  if (anchor.previous !== previous)
    return at('previous', `previous is ${anchor.previous}, the chain gives ${previous}`);
  const publicKey = keyById.get(anchor.keyId);
  if (publicKey === undefined) return at('unknown-key', `key ${anchor.keyId} is not among the public keys`);
  if (!verifyAnchorSignature(anchor, publicKey))
    return at('signature', `signature does not verify with key ${anchor.keyId}`);
  const hashes: Digest[] = [];
  for (const { label, leaf } of leaves) {
    const earlier = seen.get(label);
    if (earlier !== undefined) {
      return at('leaf-duplicated', `${label} is a leaf of anchor ${earlier} already`, label);
    }
    seen.set(label, anchor.seq);
    hashes.push(leafHash(leaf));
  }
  const root = toHex(merkleRoot(hashes));
  const asSigned = anchor.count === leaves.length && root === anchor.root;
  if (recorded) {
    const named = compareWithRecorded(leaves, hashes, recorded);
    // The leaves give the signed root, so they are the ones signed: what changed is the list kept
    // beside the anchor (its stored row), not the record it would name.
    if (named && asSigned) {
      return at(
        'recorded',
        `the leaf hashes kept with the anchor differ at ${named.record} from the leaves, which give the signed root: the anchor's stored row was changed`,
      );
    }
    if (named) return at(named.reason, named.detail, named.record);
  }
  if (anchor.count !== leaves.length) {
    return at('count', `the records give ${leaves.length} leaves, the anchor signed ${anchor.count}`);
  }
  if (root !== anchor.root)
    return at('root', `the leaves' root is ${root}, the anchor signed ${anchor.root}`);
  return null;
}

/** The first leaf that differs from what was recorded at signing, named. */
function compareWithRecorded(
  leaves: readonly AuditLeaf[],
  hashes: readonly Digest[],
  recorded: readonly RecordedLeaf[],
): { reason: BreakReason; detail: string; record: string } | null {
  const nowLabels = new Set(leaves.map((l) => l.label));
  const thenLabels = new Set(recorded.map((l) => l.label));
  for (let i = 0; i < Math.max(leaves.length, recorded.length); i++) {
    const now = leaves[i];
    const then = recorded[i];
    if (now && then && now.label === then.label) {
      const hash = toHex(hashes[i] as Digest);
      if (hash !== then.hash) {
        return {
          reason: 'leaf-changed',
          record: now.label,
          detail: `${now.label} (leaf ${i}) hashes to ${hash}, it was ${then.hash} when signed`,
        };
      }
      continue;
    }
    if (then && !nowLabels.has(then.label)) {
      return {
        reason: 'leaf-removed',
        record: then.label,
        detail: `${then.label} (leaf ${i}) was signed and is missing now`,
      };
    }
    if (now && !thenLabels.has(now.label)) {
      return {
        reason: 'leaf-inserted',
        record: now.label,
        detail: `${now.label} (leaf ${i}) was not among the leaves signed`,
      };
    }
    const label = (now ?? then)?.label ?? '';
    return {
      reason: 'leaf-reordered',
      record: label,
      detail: `${label} is out of the order signed (leaf ${i})`,
    };
  }
  return null;
}

/** A proof that one record is a leaf of an anchor (GET /v1/round/{roundId}/proof). */
export interface InclusionProof {
  /** The record's canonical JSON. */
  leaf: string;
  leafIndex: number;
  /** Hex sibling hashes, from the leaf up. */
  path: readonly string[];
  anchor: Anchor;
}

export type ProofVerdict =
  | { ok: true }
  | { ok: false; reason: 'unknown-key' | 'signature' | 'path'; detail: string };

/** Whether a proof holds with nothing but itself and the public keys. */
export function verifyProof(proof: InclusionProof, keys: readonly AuditKey[]): ProofVerdict {
  const { anchor } = proof;
  const publicKey = keys.find((k) => k.keyId === anchor.keyId)?.publicKey;
  if (publicKey === undefined)
    return { ok: false, reason: 'unknown-key', detail: `key ${anchor.keyId} is not among the public keys` };
  if (!verifyAnchorSignature(anchor, publicKey)) {
    return {
      ok: false,
      reason: 'signature',
      detail: `anchor ${anchor.seq}'s signature does not verify with key ${anchor.keyId}`,
    };
  }
  const path = proof.path.map(digestFromHex);
  const root = digestFromHex(anchor.root);
  if (root === null || path.some((p) => p === null))
    return { ok: false, reason: 'path', detail: 'a hash is not 64 hex digits' };
  if (!verifyInclusion(proof.leafIndex, anchor.count, leafHash(proof.leaf), path as Digest[], root)) {
    return {
      ok: false,
      reason: 'path',
      detail: `leaf ${proof.leafIndex} with this path does not give anchor ${anchor.seq}'s root`,
    };
  }
  return { ok: true };
}
