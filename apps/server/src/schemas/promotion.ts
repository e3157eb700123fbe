// The wire shapes of docs/contract.md §14. The promotion routes (http/routes/promotion-routes.ts)
// use them; walletPrizePromotionField is the `/prize` body's field (http-wallet.ts walletBody);
// roundPromotionField is the rounds' field in lists, round details and webhooks (schemas/round.ts).
import { PROMOTION_LIMITS, PROMOTION_STATUSES } from '@raspa/core';
import { z } from 'zod';
import { id, isoTime } from './common.ts';
import { pageQuery } from './paging.ts';

const { cardsPerPlayer, playersPerCall, nameLength } = PROMOTION_LIMITS;

/** A time the caller sends: ISO 8601 in UTC (`Z`), milliseconds optional. */
const isoTimeInput = z.iso
  .datetime({ error: 'must be an ISO 8601 UTC time such as 2026-03-01T12:00:00.000Z' })
  .meta({ example: '2026-03-01T12:00:00.000Z' });

const money = (description: string) => z.number().meta({ description: `${description}, in major units` });

export const promotionStatusSchema = z
  .enum(PROMOTION_STATUSES, 'must be scheduled, active, ended or cancelled')
  .meta({
    id: 'PromotionStatus',
    description:
      '`scheduled` before startAt, `active` from startAt until expireAt, then `ended`; `cancelled` once ' +
      'cancelled (its unused cards ended then; a card already in play finished)',
  });

export const promotionPlayers = z
  .array(id, 'must be a list of userIds')
  .min(playersPerCall.min, 'must list at least one player')
  .max(playersPerCall.max, `may list at most ${playersPerCall.max.toLocaleString('en')} players per call`)
  // A player listed twice gets the cards once: kept once, in first-seen order.
  .transform((players) => [...new Set(players)])
  .meta({
    description: `The players' userIds (1–${playersPerCall.max.toLocaleString('en')} per call; add more with /players)`,
  });

export const promotionCreateBody = z
  .object({
    profileId: id,
    gameId: id.meta({
      description:
        'The game version its cards are for; a card is worth its betPrice. Later versions of its model at the same betPrice and currency take them too',
    }),
    name: z
      .string('must be a string')
      .trim()
      .min(nameLength.min, 'must not be empty')
      .max(nameLength.max, `must be at most ${nameLength.max} characters`),
    cardsPerPlayer: z
      .number('must be a number')
      .int('must be a whole number')
      .min(cardsPerPlayer.min, `must be between ${cardsPerPlayer.min} and ${cardsPerPlayer.max}`)
      .max(cardsPerPlayer.max, `must be between ${cardsPerPlayer.min} and ${cardsPerPlayer.max}`),
    players: promotionPlayers,
    startAt: isoTimeInput.optional().meta({ description: 'When its cards become usable (default: now)' }),
    expireAt: isoTimeInput.meta({
      description: 'When its unused cards end: in the future, after startAt, at most 366 days after it',
    }),
  })
  // Order only: "in the future" needs the clock, so the service checks it (promotionTimeProblems).
  .superRefine((value, context) => {
    if (value.startAt !== undefined && Date.parse(value.expireAt) <= Date.parse(value.startAt)) {
      context.addIssue({ code: 'custom', path: ['expireAt'], message: 'must be after startAt' });
    }
  })
  .meta({ id: 'PromotionCreate' });

export const promotionCreated = z.object({ promotionId: z.string() }).meta({ id: 'PromotionCreated' });

export const promotionPlayersBody = z.object({ players: promotionPlayers }).meta({ id: 'PromotionPlayers' });

export const promotionPlayersAdded = z
  .object({
    promotionId: z.string(),
    added: z.number().int().meta({ description: 'Players who got cardsPerPlayer cards now' }),
    alreadyGranted: z
      .number()
      .int()
      .meta({ description: 'Players listed who were already in the promotion: their cards are unchanged' }),
  })
  .meta({ id: 'PromotionPlayersAdded' });

export const promotionSchema = z
  .object({
    promotionId: z.string(),
    profileId: z.string(),
    gameId: z.string(),
    name: z.string(),
    cardsPerPlayer: z.number().int(),
    cardValue: money('What one card is worth: the game’s betPrice'),
    currency: z.string().meta({ description: 'The game’s currency (ISO 4217)' }),
    status: promotionStatusSchema,
    startAt: isoTime,
    expireAt: isoTime,
    cancelledAt: isoTime.nullable(),
    createdAt: isoTime,
    players: z.number().int().meta({ description: 'Players granted cards' }),
    granted: z.number().int().meta({ description: 'Cards granted, players × cardsPerPlayer' }),
    used: z.number().int().meta({ description: 'Cards played (a round opened with each)' }),
    prizes: money('Prizes of its cards paid by the wallet (completed)'),
  })
  .meta({ id: 'Promotion' });

export const promotionListQuery = pageQuery
  .extend({
    profileId: id.optional().meta({ description: 'Only this profile (yours: another client’s is a 404)' }),
    gameId: id.optional().meta({ description: 'Only promotions of this game' }),
    status: promotionStatusSchema.optional().meta({ description: 'Only promotions of this status' }),
  })
  .meta({ id: 'PromotionListQuery' });

export const freeCardsLineSchema = z
  .object({
    promotionId: z.string(),
    gameId: z.string(),
    name: z.string(),
    left: z.number().int().meta({ description: 'Cards the player has still to play' }),
    status: promotionStatusSchema.extract(['scheduled', 'active']),
    startAt: isoTime,
    expireAt: isoTime,
  })
  .meta({ id: 'FreeCardsLine' });

export const playerFreeCards = z
  .object({
    userId: z.string(),
    freeCards: z
      .array(freeCardsLineSchema)
      .meta({ description: 'One line per promotion with cards left, the first to expire first' }),
  })
  .meta({ id: 'PlayerFreeCards' });

/**
 * The round's `promotionId`: spread into roundSchema (schemas/round.ts), so the round lists, CSV
 * and webhook payloads carry it, once the store records it.
 */
export const roundPromotionField = {
  promotionId: z
    .string()
    .nullable()
    .meta({ description: 'The promotion whose free card played the round; null for a bought card' }),
};

/**
 * The `promotionId` of a free card's prize in the wallet's `/prize` body (docs/wallet.md), beside
 * the usual fields. Left out for a bought card, so wallets that know nothing of promotions see no
 * change; a free card's round sends no `/bet`, so its prize comes with no bet before it.
 */
export const walletPrizePromotionField = {
  promotionId: z
    .string()
    .optional()
    .meta({ description: 'Present on a free card’s prize only: the promotion that gave the card' }),
};

export type PromotionCreateBody = z.infer<typeof promotionCreateBody>;
export type PromotionView = z.infer<typeof promotionSchema>;
export type PlayerFreeCardsView = z.infer<typeof playerFreeCards>;
