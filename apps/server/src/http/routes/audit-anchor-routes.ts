import { z } from 'zod';
import { anchorSchema } from '../../schemas/anchor.ts';
import { hex64, id, isoTime, successStatus } from '../../schemas/common.ts';
import { ok } from '../envelope.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';

const anchorsQuery = z.object({
  fromSeq: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

const keySchema = z
  .object({
    keyId: z.string(),
    publicKey: z.string().meta({ description: 'Base64 of the raw 32-byte Ed25519 public key' }),
    since: isoTime,
  })
  .meta({ id: 'AuditKey' });

export const proofSchema = z
  .object({
    leaf: z
      .string()
      .meta({ description: 'The round’s canonical JSON: its leaf hash is SHA-256(0x00 ‖ leaf)' }),
    leafIndex: z.number().int().min(0),
    path: z.array(hex64).meta({ description: 'RFC 6962 §2.1.1 audit path, from the leaf up' }),
    anchor: anchorSchema,
  })
  .meta({ id: 'RoundProof' });

/** The tamper-evident record (docs/audit.md): anchors, public keys, a round's inclusion proof. */
export function auditAnchorRoutes({ services }: RouteKit): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/audit/anchors',
      tag: 'Back office',
      summary: 'List the API client’s signed audit anchors',
      description:
        'In seq order from `fromSeq`. Each anchor signs the Merkle root of the client’s rounds and audit ' +
        'entries ended since the previous one, and chains to it (docs/audit.md).',
      auth: 'bearer',
      query: anchorsQuery,
      success: { status: 200, schema: z.object({ status: successStatus, data: z.array(anchorSchema) }) },
      errors: [400, 401, 500],
      handle: async ({ auth, query }) =>
        ok(await services.auditAnchors.list(auth, query.fromSeq, query.pageSize)),
    }),
    defineRoute({
      method: 'get',
      path: '/audit/key',
      tag: 'Back office',
      summary: 'The public keys that sign audit anchors, current and past',
      auth: 'bearer',
      success: {
        status: 200,
        schema: z.object({ status: successStatus, data: z.object({ keys: z.array(keySchema) }) }),
      },
      errors: [401, 500],
      handle: async () => ok({ keys: await services.auditAnchors.keys() }),
    }),
    defineRoute({
      method: 'get',
      path: '/round/:roundId/proof',
      tag: 'Back office',
      summary: 'The proof that a round is in a signed audit anchor',
      description:
        'Verifiable offline with the anchor’s public key alone (`pnpm verify-audit --proof FILE`). ' +
        '404 NOT_ANCHORED until an anchor covers the round; an unknown round, or another API client’s, is 404 NOT_FOUND.',
      auth: 'bearer',
      params: z.object({ roundId: id }),
      success: { status: 200, schema: z.object({ status: successStatus, data: proofSchema }) },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, params }) => {
        const proof = await services.auditAnchors.proof(auth, params.roundId);
        return ok({ ...proof, path: [...proof.path] });
      },
    }),
  ];
}
