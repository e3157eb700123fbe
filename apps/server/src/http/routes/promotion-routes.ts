import { toMajor } from '@raspa/core';
import { z } from 'zod';
import { id, successStatus } from '../../schemas/common.ts';
import { pageOf } from '../../schemas/paging.ts';
import {
  playerFreeCards,
  promotionCreateBody,
  promotionCreated,
  promotionListQuery,
  promotionPlayersAdded,
  promotionPlayersBody,
  promotionSchema,
} from '../../schemas/promotion.ts';
import type { PromotionSummary } from '../../services/promotion-service.ts';
import { ok, okPage } from '../envelope.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';

const promotionParams = z.object({ promotionId: id });
const userParams = z.object({ userId: id });
const promotionAnswer = z.object({ status: successStatus, data: promotionSchema });

export function promotionView({
  promotion,
  status,
  figures,
}: PromotionSummary): z.input<typeof promotionSchema> {
  return {
    promotionId: promotion.id,
    profileId: promotion.profileId,
    gameId: promotion.gameId,
    name: promotion.name,
    cardsPerPlayer: promotion.cardsPerPlayer,
    cardValue: toMajor(promotion.cardMinor, promotion.currency),
    currency: promotion.currency,
    status,
    startAt: promotion.startAt,
    expireAt: promotion.expireAt,
    cancelledAt: promotion.cancelledAt,
    createdAt: promotion.createdAt,
    players: figures.players,
    granted: figures.granted,
    used: figures.used,
    prizes: toMajor(figures.prizesMinor, promotion.currency),
  };
}

const OWNERSHIP =
  'An unknown profileId or gameId, or another API client’s, is the same 400; a userId listed that is not a ' +
  'player of the profile is a 404 naming it, and nothing is stored.';

export function promotionRoutes({ services }: RouteKit): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/promotion',
      tag: 'Promotions',
      summary: 'Create a free-card promotion for a game and a list of players',
      description:
        'Each listed player gets cardsPerPlayer free cards of the game, usable from startAt (default: now) ' +
        'until expireAt; a card is worth the game’s betPrice. Up to 10,000 players per call (a repeat is kept ' +
        `once; this body may be up to 1 MiB, not 100 KiB); add more with POST /v1/promotion/{promotionId}/players. ${OWNERSHIP} ` +
        'A buy in a session of the game uses a card (no /bet). When the game is replaced by a new version ' +
        '(replacePreviousVersion), the cards are played in sessions of the new version if its betPrice and ' +
        'currency are the same (drawing from its pool); a version at another price does not take them. ' +
        'A profile under a jurisdiction that forbids free cards (BR) is a 409, and nothing is stored.',
      auth: 'signed',
      bodyLimit: '1mb',
      body: promotionCreateBody,
      success: { status: 201, schema: z.object({ status: successStatus, data: promotionCreated }) },
      errors: [400, 401, 404, 409, 500],
      handle: async ({ auth, body }) => {
        const { id: promotionId } = await services.promotions.create(auth, body);
        return ok({ promotionId });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/promotion/:promotionId/players',
      tag: 'Promotions',
      summary: 'Add players to a scheduled or active promotion',
      description:
        'Each listed player not yet in the promotion gets cardsPerPlayer cards; one already in it keeps the ' +
        'cards they have (counted in alreadyGranted). An ended or cancelled promotion is a 409, as is one of a ' +
        'profile under a jurisdiction that forbids free cards (BR). ' +
        'A userId listed that is not a player of the promotion’s profile is a 404 naming it, and nothing is stored.',
      auth: 'signed',
      bodyLimit: '1mb',
      params: promotionParams,
      body: promotionPlayersBody,
      success: { status: 200, schema: z.object({ status: successStatus, data: promotionPlayersAdded }) },
      errors: [400, 401, 404, 409, 500],
      handle: async ({ auth, params, body }) =>
        ok(await services.promotions.addPlayers(auth, params.promotionId, body.players)),
    }),
    defineRoute({
      method: 'get',
      path: '/promotion',
      tag: 'Promotions',
      summary: 'List the promotions of the API client, newest first',
      description: 'A profileId that is unknown, or another API client’s, is the same 404.',
      auth: 'bearer',
      query: promotionListQuery,
      success: { status: 200, schema: pageOf(promotionSchema) },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, query }) => {
        const page = await services.promotions.list(auth, query);
        return okPage(page.items.map(promotionView), {
          pageIndex: query.pageIndex,
          pageSize: query.pageSize,
          totalCount: page.totalCount,
        });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/promotion/:promotionId',
      tag: 'Promotions',
      summary: 'Read a promotion: its status, players, cards granted and used, and prizes',
      description:
        'prizes: the completed prizes of its cards (free rounds), in the game’s currency; a prize still ' +
        'being paid counts once the wallet confirms it.',
      auth: 'bearer',
      params: promotionParams,
      success: { status: 200, schema: promotionAnswer },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, params }) =>
        ok(promotionView(await services.promotions.get(auth, params.promotionId))),
    }),
    defineRoute({
      method: 'delete',
      path: '/promotion/:promotionId',
      tag: 'Promotions',
      summary: 'Cancel a promotion: its unused cards end',
      description:
        'A card already in play finishes. Cancelling a cancelled promotion changes nothing and answers it ' +
        'again; an ended one is a 409 (its cards ended anyway).',
      auth: 'bearer',
      params: promotionParams,
      success: { status: 200, schema: promotionAnswer },
      errors: [400, 401, 404, 409, 500],
      handle: async ({ auth, params }) =>
        ok(promotionView(await services.promotions.cancel(auth, params.promotionId))),
    }),
    defineRoute({
      method: 'get',
      path: '/user/:userId/free-cards',
      tag: 'Promotions',
      summary: 'List the free cards a player has left, per promotion',
      description:
        'Scheduled and active promotions in which the player still has cards, the first to expire first. ' +
        'An unknown userId, or another API client’s player, is the same 404.',
      auth: 'bearer',
      params: userParams,
      success: { status: 200, schema: z.object({ status: successStatus, data: playerFreeCards }) },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, params }) =>
        ok({ userId: params.userId, freeCards: await services.promotions.freeCards(auth, params.userId) }),
    }),
  ];
}
