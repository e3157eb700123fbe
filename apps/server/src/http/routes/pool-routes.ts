import { z } from 'zod';
import { hex64, id, isoTime, successStatus } from '../../schemas/common.ts';
import type { PoolRecord } from '../../store/records.ts';
import { ok } from '../envelope.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';

export const poolSchema = z
  .object({
    poolId: z.string(),
    number: z.number().int().min(1).meta({ description: 'The pools of a game version count from 1' }),
    sampling: z.number().int().meta({ description: 'Tickets in the pool' }),
    commitment: hex64.meta({
      description: 'Lowercase hex SHA-256 of the 32 seed bytes, published when the pool starts',
    }),
    draws: z.number().int().min(0).meta({ description: 'Tickets drawn so far (sampling once it has ended)' }),
    startedAt: isoTime,
    endedAt: isoTime.nullable().meta({ description: 'null while the pool runs' }),
    seed: hex64.nullable().meta({
      description:
        'The 32-byte seed as lowercase hex, published once the pool has ended (null before): with it anyone ' +
        'can re-derive every ticket of the pool and check the round log (`pnpm verify-pool`)',
    }),
  })
  .meta({ id: 'Pool', description: 'One ticket pool of a game version (docs/contract.md §5)' });

const poolListSchema = z
  .object({ status: successStatus, data: z.array(poolSchema) })
  .meta({ id: 'PoolList' });

const gameParams = z.object({ id });

export function poolView(pool: PoolRecord): z.input<typeof poolSchema> {
  const ended = pool.endedAt !== null;
  return {
    poolId: pool.id,
    number: pool.number,
    sampling: pool.sampling,
    commitment: pool.commitment,
    draws: pool.draws,
    startedAt: pool.startedAt,
    endedAt: pool.endedAt,
    seed: ended ? pool.seedHex : null,
  };
}

export function poolRoutes({ services }: RouteKit): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/game/:id/pools',
      tag: 'Games',
      summary:
        'List the ticket pools of a game version, oldest first, with their commitments and published seeds',
      description:
        'A game version draws its tickets without replacement from pools of `sampling` tickets holding exactly ' +
        "the ladder's winners of each level, in an order fixed by a secret seed. When a pool starts, the SHA-256 " +
        'of its seed (`commitment`) is published here; when it is used up, the seed itself, so the whole pool ' +
        'and every round drawn from it can be checked. The next pool starts with a new seed.',
      auth: 'bearer',
      params: gameParams,
      success: { status: 200, schema: poolListSchema },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, params }) =>
        ok((await services.fairness.listPools(auth, params.id)).map(poolView)),
    }),
  ];
}
