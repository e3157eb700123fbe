import {
  PAR_SHEET_CARDS,
  type ParSheetDocument,
  parSheetCsv,
  parSheetDocument,
  RANGE_METHODS,
} from '@raspa/core';
import { z } from 'zod';
import { id, successStatus } from '../../schemas/common.ts';
import type { GameRecord } from '../../store/records.ts';
import { sendCsv } from '../csv-response.ts';
import { ok } from '../envelope.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';
import { gameModel } from './game-routes.ts';

const EXACT =
  'the exact fraction of the pool’s integer counts and minor units, rounded once to the nearest double';

export const parSheetLevelSchema = z
  .object({
    level: z.number().int().meta({ description: '1 is the smallest prize, 8 the jackpot' }),
    prize: z
      .number()
      .meta({ description: 'The prize of one winning ticket (totalPrize / winners), major units' }),
    multiple: z.number().meta({ description: `prize / betPrice: ${EXACT}` }),
    winners: z.number().int().meta({ description: 'Tickets of this level in one pool' }),
    probability: z.number().meta({ description: `winners / sampling: ${EXACT}` }),
    oneIn: z.number().meta({ description: `sampling / winners ("1 in N"): ${EXACT}` }),
    rtpShare: z.number().meta({
      description: `The level’s part of the RTP, winners × prize / (sampling × betPrice) (the levels’ sum to rtp): ${EXACT}`,
    }),
  })
  .meta({ id: 'ParSheetLevel' });

const bounds = z.tuple([z.number(), z.number()]).meta({ description: '[low, high]' });

export const returnRangeSchema = z
  .object({
    cards: z.number().int().meta({ description: 'Cards bought in a row' }),
    p90: bounds.meta({ description: 'The central 90% of the player’s return (prizes ÷ bets): [low, high]' }),
    p99: bounds.meta({ description: 'The central 99%: [low, high]' }),
    method: z.enum(RANGE_METHODS).meta({
      description:
        'How the range was found. normal-fpc: computed, rtp ± z × σ/√cards × √((sampling − cards)/(sampling − 1)), ' +
        'the normal approximation of the mean of that many tickets drawn without replacement from one pool ' +
        '(z = 1.6449 for 90%, 2.5758 for 99%); the mean and spread are exact, the normal shape is not. simulated: ' +
        'where that normal 99% range would reach past what that many tickets can return (a rare, large top ' +
        'prize skews the return: most players end below the RTP), 10,000 seeded players each take that many ' +
        'tickets without replacement from one pool, and the range is their 5th–95th (p90) and 0.5th–99.5th ' +
        '(p99) percentiles',
    }),
  })
  .meta({ id: 'ReturnRange' });

export const parSheetSchema = z
  .object({
    gameId: z.string(),
    version: z.number().int(),
    gameModel,
    betPrice: z.number().meta({ description: 'Major units' }),
    sampling: z.number().int().meta({ description: 'Tickets in one pool' }),
    rtp: z.number().meta({ description: `Σ totalPrize / (sampling × betPrice): ${EXACT}` }),
    hitFrequency: z.number().meta({ description: `Σ winners / sampling: ${EXACT}` }),
    stdDev: z.number().meta({
      description:
        'The standard deviation of one card’s return (prize ÷ betPrice) over the pool’s tickets: the square ' +
        'root of the exact variance rounded to the nearest double',
    }),
    maxWinMultiple: z.number().meta({ description: `The top prize / betPrice: ${EXACT}` }),
    levels: z.array(parSheetLevelSchema),
    ranges: z.array(returnRangeSchema).meta({
      description: `The player’s return after ${PAR_SHEET_CARDS.map((n) => n.toLocaleString('en')).join(', ')} cards`,
    }),
  })
  .meta({ id: 'ParSheet', description: 'A game version’s maths on one sheet (docs/games.md, PAR sheet)' });

const gameParams = z.object({ id });
const parSheetQuery = z.object({
  version: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .optional()
    .meta({ description: 'Another version of the same profile and model (default: the version `id` names)' }),
});

/** Sheets kept by game version id: a version's ladder never changes, and simulated ranges take tens of ms. */
const SHEETS_KEPT = 64;
const sheets = new Map<string, ParSheetDocument<string, number>>();

/** The version's sheet, computed by the core as the sandbox's export is (`parSheetDocument`). */
export function parSheetView(game: GameRecord): ParSheetDocument<string, number> {
  let sheet = sheets.get(game.id);
  if (!sheet) {
    sheet = parSheetDocument(game.ladder, { gameId: game.id, version: game.version });
    // The oldest kept goes first (a Map keeps insertion order).
    if (sheets.size >= SHEETS_KEPT) sheets.delete(sheets.keys().next().value as string);
    sheets.set(game.id, sheet);
  }
  return sheet;
}

export function parSheetRoutes({ services }: RouteKit): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/game/:id/par-sheet',
      tag: 'Games',
      summary: 'The PAR sheet of a game version: its prize levels, RTP, hit frequency, volatility and ranges',
      description:
        'Computed exactly from the version’s ladder and pool (docs/games.md, PAR sheet). `Accept: text/csv` ' +
        'answers it as CSV. An unknown id, another API client’s game, or a version the game does not have is ' +
        'the same 404.',
      auth: 'bearer',
      params: gameParams,
      query: parSheetQuery,
      success: {
        status: 200,
        schema: z.object({ status: successStatus, data: parSheetSchema }),
        csv:
          'Three tables, a blank line between them, each with its header line: figure,value (gameId, version, ' +
          'gameModel, betPrice, sampling, rtp, hitFrequency, stdDev, maxWinMultiple); the levels; the ranges ' +
          '(cards, p90Low, p90High, p99Low, p99High, method). Text cells that start like a formula are neutralised.',
      },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, params, query, request, response }) => {
        const sheet = parSheetView(await services.games.findVersion(auth, params.id, query.version));
        if (request.accepts(['application/json', 'text/csv']) === 'text/csv') {
          return sendCsv(response, `par-sheet-${sheet.gameId}-v${sheet.version}`, parSheetCsv(sheet));
        }
        return ok(sheet);
      },
    }),
  ];
}
