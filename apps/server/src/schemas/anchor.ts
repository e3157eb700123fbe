import { z } from 'zod';
import { hex64, isoTime } from './common.ts';

/**
 * A signed audit anchor (docs/audit.md, contract §16), defined once: the anchor list, a round's
 * proof and the `anchor` webhook event (and its delivery log) all show this shape.
 */

export const anchorSchema = z
  .object({
    clientId: z.string(),
    seq: z.number().int().min(1).meta({ description: 'The client’s anchors counted from 1, no gap' }),
    count: z.number().int().min(1).meta({ description: 'Leaves in the anchor’s Merkle tree' }),
    root: hex64.meta({ description: 'RFC 6962 Merkle tree hash of the leaves, hex' }),
    previous: hex64.meta({
      description:
        'SHA-256 of the previous anchor’s canonical JSON (signature included); 64 zeros for the first',
    }),
    at: isoTime,
    keyId: z.string().meta({ description: 'The key that signed it (GET /v1/audit/key)' }),
    signature: z
      .string()
      .meta({ description: 'Base64 Ed25519 signature of the canonical JSON without signature' }),
  })
  .meta({ id: 'AuditAnchor' });
