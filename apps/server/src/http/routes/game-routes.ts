import { GAME_MODELS, gameCreateData, gameFigures, LADDER_LIMITS, toMajor } from '@raspa/core';
import { z } from 'zod';
import { coverUrl } from '../../media/cover-url.ts';
import { currencyCode, id, lang, statusBody, successStatus } from '../../schemas/common.ts';
import type { GameRecord } from '../../store/records.ts';
import { ok, okStatus } from '../envelope.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';

export const gameModel = z
  .enum(GAME_MODELS, `must be one of ${GAME_MODELS.join(', ')}`)
  .meta({ id: 'GameModel' });

const { rtp, sampling, prizedPercent, betPrice } = LADDER_LIMITS;
const ratioRange = (limits: { min: number; max: number }) =>
  `must be a number between ${limits.min.toFixed(2)} and ${limits.max.toFixed(2)}`;
const samplingRange = `must be a whole number above 100000 and at most ${sampling.max.toLocaleString('en')}`;
const flag = z.boolean('must be true or false');

export const gameCreateBody = z
  .object({
    profileId: id,
    gameModel,
    lang: lang.meta({ description: 'ISO 639-1; the service plays in pt, en and es' }),
    currency: currencyCode.meta({
      description: "ISO 4217; one of the profile's currencies when it lists them",
    }),
    rtp: z
      .number('must be a number')
      .min(rtp.min, ratioRange(rtp))
      .max(rtp.max, ratioRange(rtp))
      .meta({ description: 'Return to player, up to 6 decimals', example: 0.9 }),
    sampling: z
      .number('must be a number')
      .int(samplingRange)
      .min(sampling.min, samplingRange)
      .max(sampling.max, samplingRange)
      .meta({ description: 'Tickets in one pool', example: 1_000_000 }),
    prizedPercent: z
      .number('must be a number')
      .min(prizedPercent.min, ratioRange(prizedPercent))
      .max(prizedPercent.max, ratioRange(prizedPercent))
      .meta({ description: 'Share of the tickets that win, up to 6 decimals', example: 0.3 }),
    betPrice: z
      .number('must be a number')
      .positive('must be a positive number')
      .max(betPrice.maxMajor, `must be at most ${betPrice.maxMajor}`)
      .meta({ description: 'Ticket price in major units of the currency', example: 2 }),
    simulation: flag.meta({ description: 'true: nothing is stored, only the game info is returned' }),
    replacePreviousVersion: flag.meta({
      description:
        'true: the new version replaces the active one (kept, inactive); false: 409 if one is active',
    }),
  })
  .meta({ id: 'GameCreate' });

export const levelSchema = z
  .object({
    level: z.number().int().meta({ description: '1 is the smallest prize, 8 the jackpot' }),
    winners: z.number().int(),
    totalPrize: z.number().meta({ description: 'prize × winners, major units' }),
    prize: z.number().meta({ description: 'Major units' }),
    percentage: z.number().meta({ description: 'totalPrize / totalDistribuitionAmount' }),
  })
  .meta({ id: 'Level' });

export const gameCreatedSchema = z
  .object({
    id: z.string().nullable().meta({ description: 'null for a simulation' }),
    version: z.number().int().nullable().meta({ description: 'null for a simulation' }),
    gameModel,
    active: z.boolean(),
    totalAmount: z.number().meta({ description: 'sampling × betPrice' }),
    totalDistribuitionAmount: z
      .number()
      .meta({ description: 'totalAmount × rtp, floored to the minor unit (spelled as the spec spells it)' }),
    totalPrized: z.number().int().meta({ description: 'Winning tickets in a pool' }),
    totalLevels: z.number().int(),
    levels: z.array(levelSchema),
  })
  .meta({ id: 'GameCreated' });

export const gameSchema = z
  .object({
    id: z.string(),
    gameModel,
    lang: z.string(),
    currency: z.string(),
    rtp: z.number(),
    maxBetPrize: z.number().meta({ description: 'The top prize (level 8), major units' }),
    sampling: z.number().int(),
    prizedPercent: z.number(),
    betPrice: z.number(),
    version: z.number().int(),
    active: z.boolean(),
    mediaUrl: z.string().meta({ description: 'Cover image of the game model (SVG)' }),
    levels: z.array(levelSchema),
  })
  .meta({ id: 'Game' });

const listQuery = z.object({ profileId: id });
const gameParams = z.object({ id });
export const activationBody = z
  .object({ active: flag, profileId: id.meta({ description: 'The profile the game belongs to' }) })
  .meta({ id: 'GameActivation' });

/** A ratio kept in millionths, as the JSON number it was sent as (900000 → 0.9). */
const fromPpm = (ppm: number) => ppm / 1_000_000;

export function gameView(game: GameRecord, publicUrl: string): z.input<typeof gameSchema> {
  const figures = gameFigures(game.ladder);
  return {
    id: game.id,
    gameModel: game.gameModel,
    lang: game.lang,
    currency: game.currency,
    rtp: fromPpm(game.rtpPpm),
    maxBetPrize: figures.maxBetPrize,
    sampling: game.sampling,
    prizedPercent: fromPpm(game.prizedPpm),
    betPrice: toMajor(game.betMinor, game.currency),
    version: game.version,
    active: game.active,
    mediaUrl: coverUrl(publicUrl, game.gameModel),
    levels: figures.levels,
  };
}

export function gameRoutes({ services, settings }: RouteKit): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/game',
      tag: 'Games',
      summary: 'Create a game configuration (a new version) for a profile, or simulate one',
      description:
        'The prize ladder is computed from rtp, sampling, prizedPercent and betPrice. With simulation true ' +
        'nothing is stored (id and version are null). Otherwise the first version of a (profile, gameModel) ' +
        'is version 1 and active; when a version is active, replacePreviousVersion true makes the next ' +
        'version the active one (the old one is kept, inactive) and false answers 409 without changing ' +
        'anything. An unknown profileId, or another API client’s profile, is the same 400.',
      auth: 'signed',
      body: gameCreateBody,
      success: { status: 201, schema: z.object({ status: successStatus, data: gameCreatedSchema }) },
      errors: [400, 401, 409, 500],
      handle: async ({ auth, body }) => {
        const { ladder, game } = await services.games.create(auth, body);
        // gameCreateData types gameModel as a plain string; the ladder's is the model itself.
        return ok({ ...gameCreateData(ladder, game), gameModel: ladder.gameModel });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/game',
      tag: 'Games',
      summary: 'List the games of a profile, every version',
      auth: 'bearer',
      query: listQuery,
      success: { status: 200, schema: z.object({ status: successStatus, data: z.array(gameSchema) }) },
      errors: [400, 401, 500],
      handle: async ({ auth, query }) =>
        ok(
          (await services.games.list(auth, query.profileId)).map((game) =>
            gameView(game, settings.publicUrl),
          ),
        ),
    }),
    defineRoute({
      method: 'put',
      path: '/game/:id',
      tag: 'Games',
      summary: 'Activate or deactivate a game version',
      description:
        'Activating a version deactivates the other active version of the same profile and model, so at ' +
        'most one is active.',
      auth: 'signed',
      params: gameParams,
      body: activationBody,
      success: { status: 200, schema: statusBody },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, params, body }) => {
        await services.games.setActive(auth, params.id, body);
        return okStatus();
      },
    }),
  ];
}
