import { parSheetCsv } from '@raspa/core';
import { z } from 'zod';
import { buildIdentity } from '../../ops/build-identity.ts';
import { id } from '../../schemas/common.ts';
import { certificationPack, PACK_MEMBERS } from '../certification-pack.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';
import { gameView } from './game-routes.ts';
import { parSheetView } from './par-sheet-routes.ts';
import { poolView } from './pool-routes.ts';

const gameParams = z.object({ id });

export function certificationRoutes({ services, settings }: RouteKit): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/game/:id/certification',
      tag: 'Games',
      summary: 'The certification pack of a game version: a zip to file with a test lab',
      description:
        `A zip (application/zip) of ${PACK_MEMBERS.join(', ')}: the PAR sheet as JSON and CSV (as GET ` +
        '/v1/game/{id}/par-sheet), the version’s configuration (as GET /v1/game lists it), its pools (as GET ' +
        '/v1/game/{id}/pools: each commitment, and the seed once the pool ended), how to verify a pool and a ' +
        'card, and the build that served it (version, SHA-256 of its code, Node.js version) ' +
        '(docs/certification.md). An unknown id or another API client’s game is the same 404.',
      auth: 'bearer',
      params: gameParams,
      success: {
        status: 200,
        schema: z.string().meta({ format: 'binary', description: 'The zip' }),
        contentType: 'application/zip',
      },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, params, response }) => {
        const game = await services.games.findVersion(auth, params.id);
        const pools = await services.fairness.listPools(auth, params.id);
        const sheet = parSheetView(game);
        const zip = certificationPack({
          gameId: game.id,
          version: game.version,
          parSheet: sheet,
          parSheetCsv: parSheetCsv(sheet),
          game: {
            ...gameView(game, settings.publicUrl),
            profileId: game.profileId,
            createdAt: game.createdAt,
          },
          pools: pools.map(poolView),
          build: buildIdentity(),
          createdAt: game.createdAt,
        });
        response
          .status(200)
          .type('application/zip')
          .set('Content-Disposition', `attachment; filename="certification-${game.id}-v${game.version}.zip"`)
          .send(Buffer.from(zip));
        return undefined as never;
      },
    }),
  ];
}
