import { z } from 'zod';
import { currencyCode, httpUrl, id, isoTime, origin, successStatus } from '../../schemas/common.ts';
import { pageOf, pageQuery } from '../../schemas/paging.ts';
import { jurisdiction, profileProtectionFields } from '../../schemas/protection.ts';
import type { ProfileRecord } from '../../store/records.ts';
import { ok, okPage } from '../envelope.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';

const profileType = z
  .enum(['operator', 'integrator', 'demo', 'test'], 'must be operator, integrator, demo or test')
  .meta({
    description:
      'demo plays against the built-in demo wallet; test against its wallet like operator, with forced ' +
      'cards (POST /v1/test/next-cards), its rounds marked test and left out of the report ' +
      '(docs/certification.md). A profile never changes to or from test',
  });

const profileFields = {
  name: z
    .string('must be a string')
    .trim()
    .min(1, 'must not be empty')
    .max(120, 'must be at most 120 characters'),
  type: profileType,
  currency: currencyCode.meta({
    description:
      'The default currency (the player list’s balance is in it). Without currencies it restricts ' +
      'nothing; with them it must be one of them (default: the first)',
  }),
  currencies: z
    .array(currencyCode, 'must be a list of ISO 4217 codes')
    .min(1, 'must list at least one currency (leave it out for any)')
    .max(50, 'may list at most 50 currencies')
    // A repeated code means nothing more: kept once, in first-seen order.
    .transform((codes) => [...new Set(codes)])
    .meta({
      description:
        'The ISO 4217 currencies its wallet takes, so its games may be priced in; absent or null = any code',
    }),
  walletUrl: httpUrl.meta({
    description: 'Base URL of the wallet bridge: the service POSTs to {walletUrl}/bet etc.',
  }),
  walletSignatureToken: z
    .string('must be a string')
    .min(16, 'must be at least 16 characters')
    .max(512, 'must be at most 512 characters')
    .meta({ description: 'Key the service signs wallet calls with; write-only, never returned' }),
  allowedOrigins: z
    .array(origin, 'must be a list of origins')
    .max(20, 'may list at most 20 origins')
    .meta({ description: 'Integrator pages allowed to frame the gameUrl (CSP frame-ancestors)' }),
  ...profileProtectionFields,
};

export const profileCreateBody = z
  .object({
    ...profileFields,
    currency: profileFields.currency.optional(),
    currencies: profileFields.currencies.optional(),
    walletUrl: profileFields.walletUrl.optional(),
    walletSignatureToken: profileFields.walletSignatureToken.optional(),
    allowedOrigins: profileFields.allowedOrigins.default([]),
    jurisdiction: profileFields.jurisdiction.optional(),
    timezone: profileFields.timezone.optional(),
    realityCheckMinutes: profileFields.realityCheckMinutes.optional(),
    responsibleGamingUrl: profileFields.responsibleGamingUrl.optional(),
  })
  .meta({ id: 'ProfileCreate' });

export const profileUpdateBody = z
  .object({ ...profileFields, currencies: profileFields.currencies.nullable() })
  .partial()
  .meta({
    id: 'ProfileUpdate',
    description:
      'Only the fields given change; a wallet token left out is kept; currencies: null allows any.',
  });

export const profileSchema = z
  .object({
    profileId: z.string(),
    name: z.string(),
    type: profileType,
    currency: z.string().meta({ description: 'The default currency' }),
    currencies: z
      .array(z.string())
      .nullable()
      .meta({ description: 'The currencies its games may be priced in; null = any ISO 4217 code' }),
    walletUrl: z.string().nullable(),
    hasWalletSignatureToken: z.boolean(),
    allowedOrigins: z.array(z.string()),
    jurisdiction: jurisdiction.nullable(),
    timezone: z.string().meta({ description: 'IANA time zone of the players’ limit periods' }),
    realityCheckMinutes: z.number().int().nullable(),
    responsibleGamingUrl: z.string().nullable(),
    createdAt: isoTime,
    updatedAt: isoTime,
  })
  .meta({ id: 'Profile' });

const profileParams = z.object({ profileId: id });
const profileAnswer = z.object({ status: successStatus, data: profileSchema });

export function profileView(profile: ProfileRecord): z.infer<typeof profileSchema> {
  return {
    profileId: profile.id,
    name: profile.name,
    type: profile.type,
    currency: profile.currency,
    currencies: profile.currencies,
    walletUrl: profile.walletUrl,
    hasWalletSignatureToken: profile.walletTokenSealed !== null,
    allowedOrigins: profile.allowedOrigins,
    jurisdiction: profile.jurisdiction,
    timezone: profile.timezone,
    realityCheckMinutes: profile.realityCheckMinutes,
    responsibleGamingUrl: profile.responsibleGamingUrl,
    createdAt: profile.createdAt,
    updatedAt: profile.updatedAt,
  };
}

export function profileRoutes({ services }: RouteKit): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/profile',
      tag: 'Profiles',
      summary: 'Create an operator, integrator or demo profile',
      auth: 'signed',
      body: profileCreateBody,
      success: { status: 201, schema: profileAnswer },
      errors: [400, 401, 500],
      handle: async ({ auth, body }) => ok(profileView(await services.profiles.create(auth, body))),
    }),
    defineRoute({
      method: 'get',
      path: '/profile',
      tag: 'Profiles',
      summary: 'List the profiles of the API client',
      auth: 'bearer',
      query: pageQuery,
      success: { status: 200, schema: pageOf(profileSchema) },
      errors: [400, 401, 500],
      handle: async ({ auth, query }) => {
        const page = await services.profiles.list(auth, query);
        return okPage(page.items.map(profileView), { ...query, totalCount: page.totalCount });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/profile/:profileId',
      tag: 'Profiles',
      summary: 'Read one profile',
      auth: 'bearer',
      params: profileParams,
      success: { status: 200, schema: profileAnswer },
      errors: [401, 404, 500],
      handle: async ({ auth, params }) =>
        ok(profileView(await services.profiles.get(auth, params.profileId))),
    }),
    defineRoute({
      method: 'put',
      path: '/profile/:profileId',
      tag: 'Profiles',
      summary: 'Change a profile',
      description:
        'Changes the given fields. Moving to a jurisdiction that forbids free cards (BR) is a 409 while the ' +
        'profile has scheduled or active promotions: cancel them first.',
      auth: 'signed',
      params: profileParams,
      body: profileUpdateBody,
      success: { status: 200, schema: profileAnswer },
      errors: [400, 401, 404, 409, 500],
      handle: async ({ auth, params, body }) =>
        ok(profileView(await services.profiles.update(auth, params.profileId, body))),
    }),
  ];
}
