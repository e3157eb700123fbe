/**
 * The tamper-evident record's reads (docs/audit.md): a client's anchors, the public keys, and the
 * inclusion proof of one of its rounds. Tenant-scoped: a client sees only its own anchors, and a
 * round of another client is the unknown id's 404.
 */
import {
  type Anchor,
  auditPath,
  digestFromHex,
  type InclusionProof,
  leafHash,
  toHex,
} from '@raspa/core/audit';
import { roundLabel, roundLeaf } from '../audit/audit-leaves.ts';
import type { Deps } from '../deps.ts';
import type { AuditKeyRecord } from '../store/repos/audit-anchors-repo.ts';
import { ApiError } from './api-error.ts';
import type { AuthContext } from './auth-context.ts';
import { owned } from './ownership.ts';

export function createAuditAnchorsService(deps: Pick<Deps, 'store'>) {
  const { store } = deps;
  return {
    /** The client's anchors from `fromSeq` on, in seq order. */
    async list(auth: AuthContext, fromSeq: number, pageSize: number): Promise<Anchor[]> {
      return (await store.auditAnchors.page(auth.clientId, fromSeq, pageSize)).map((record) => record.anchor);
    },

    keys: (): Promise<AuditKeyRecord[]> => store.auditAnchors.keys(),

    /**
     * The round's leaf (as the records give it now), its index and audit path in the tree of the
     * anchor that covers it. The path comes from the leaf hashes kept with the anchor; a round
     * changed since it was signed gets a proof that does not verify, which is the point.
     */
    async proof(auth: AuthContext, roundId: string): Promise<InclusionProof> {
      const round = owned(await store.rounds.findRound(roundId), auth.clientId, `round ${roundId}`);
      const record = await store.auditAnchors.holdingRound(auth.clientId, {
        at: round.createdAt,
        id: round.id,
      });
      const label = roundLabel(round.id);
      const leafIndex = record ? record.leaves.findIndex(([name]) => name === label) : -1;
      if (!record || leafIndex < 0) {
        throw new ApiError('NOT_ANCHORED', `round ${roundId} is in no anchor yet`);
      }
      const calls = await store.rounds.transactionsOfRound(round.id);
      const hashes = record.leaves.map(([, hex]) => digestFromHex(hex) ?? leafHash(''));
      return {
        leaf: roundLeaf(round, calls).leaf,
        leafIndex,
        path: auditPath(hashes, leafIndex).map(toHex),
        anchor: record.anchor,
      };
    },
  };
}

export type AuditAnchorsService = ReturnType<typeof createAuditAnchorsService>;
