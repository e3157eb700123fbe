import { toMajor } from '@raspa/core';
import { z } from 'zod';
import { id, isoTime, successStatus } from '../../schemas/common.ts';
import { pageQuery, paginationSchema } from '../../schemas/paging.ts';
import { CREDENTIAL_TYPES, type PlayerRecord } from '../../store/records.ts';
import { ok, okPage } from '../envelope.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';

const CREDENTIAL_MAX = 200;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** E.164: a plus, then up to 15 digits, the first not 0 (8 at least, the shortest numbers in use). */
const PHONE = /^\+[1-9]\d{7,14}$/;

const credentialType = z
  .enum(CREDENTIAL_TYPES, `must be ${CREDENTIAL_TYPES.slice(0, -1).join(', ')} or external`)
  .meta({ id: 'CredentialType' });

const authBody = z
  .object({
    profileId: id,
    credential: z
      .string('must be a string')
      .min(1, `must be 1 to ${CREDENTIAL_MAX} characters`)
      .max(CREDENTIAL_MAX, `must be 1 to ${CREDENTIAL_MAX} characters`)
      .refine((value) => value.trim().length > 0, 'must not be blank')
      .meta({
        description:
          'How the integrator knows the player, kept exactly as sent (the wallet calls carry it back). ' +
          'An e-mail address for email, E.164 (+5511987654321) for phone.',
      }),
    credentialType,
  })
  .superRefine((body, context) => {
    if (body.credentialType === 'email' && !EMAIL.test(body.credential)) {
      context.addIssue({
        code: 'custom',
        path: ['credential'],
        message: 'must be an e-mail address when credentialType is email',
      });
    }
    if (body.credentialType === 'phone' && !PHONE.test(body.credential)) {
      context.addIssue({
        code: 'custom',
        path: ['credential'],
        message: 'must be a phone number in E.164 form (+ and 8 to 15 digits, e.g. +5511987654321)',
      });
    }
  })
  .meta({ id: 'PlayerAuth' });

const playerLoginSchema = z
  .object({
    userId: z.string(),
    userToken: z.string().meta({ description: 'Starts game sessions; send it to POST /v1/game/session' }),
    expireAt: isoTime.meta({ description: 'The userToken lives 2 hours' }),
  })
  .meta({ id: 'PlayerLogin' });

export const playerListQuery = pageQuery.extend({
  profileId: id,
  search: z
    .string('must be one string')
    .max(CREDENTIAL_MAX, `must be at most ${CREDENTIAL_MAX} characters`)
    .optional()
    .meta({ description: 'Keeps the players whose credential contains it, ignoring case' }),
});

export const playerSchema = z
  .object({
    _id: z.string(),
    credential: z.string(),
    credentialType,
    balance: z.number().meta({
      description:
        "The last balance the wallet reported in the profile's default currency (major units; 0 if none)",
    }),
    balances: z.record(z.string(), z.number()).meta({
      description:
        'The last balance the wallet reported in each currency the player played (major units), by ISO 4217 code',
      example: { BRL: 998, USD: 49.5 },
    }),
    betWins: z.number().int(),
    totalBets: z.number().int(),
    createdAt: isoTime,
  })
  .meta({ id: 'Player' });

export function playerView(
  player: PlayerRecord,
  currency: string,
  balances: Record<string, number> = {},
): z.input<typeof playerSchema> {
  return {
    _id: player.id,
    credential: player.credential,
    credentialType: player.credentialType,
    balance: toMajor(player.balanceMinor, currency),
    balances: Object.fromEntries(
      Object.entries(balances).map(([code, minor]) => [code, toMajor(minor, code)]),
    ),
    betWins: player.betWins,
    totalBets: player.totalBets,
    createdAt: player.createdAt,
  };
}

export function userRoutes({ services }: RouteKit): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/user/auth',
      tag: 'Players',
      summary: 'Log a player in, creating it on first sight, and get a userToken',
      description:
        'A player is one (profileId, credentialType, credential). The answer is 200 whether the player was ' +
        'created or already known; each call issues a fresh userToken that lives 2 hours. An unknown ' +
        'profileId, or another API client’s profile, is the same 400.',
      auth: 'signed',
      body: authBody,
      success: { status: 200, schema: z.object({ status: successStatus, data: playerLoginSchema }) },
      errors: [400, 401, 500],
      handle: async ({ auth, body }) => {
        const login = await services.players.logIn(auth, body);
        return ok({ userId: login.player.id, userToken: login.userToken, expireAt: login.expireAt });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/user',
      tag: 'Players',
      summary: 'List the players of a profile',
      auth: 'bearer',
      query: playerListQuery,
      success: {
        status: 200,
        schema: z.object({
          status: successStatus,
          data: z.array(playerSchema),
          pagination: paginationSchema,
        }),
      },
      errors: [400, 401, 500],
      handle: async ({ auth, query }) => {
        const { profileId, search, pageIndex, pageSize } = query;
        const { profile, page, balances } = await services.players.list(
          auth,
          profileId,
          { pageIndex, pageSize },
          search,
        );
        return okPage(
          page.items.map((player) => playerView(player, profile.currency, balances.get(player.id))),
          { pageIndex, pageSize, totalCount: page.totalCount },
        );
      },
    }),
  ];
}
