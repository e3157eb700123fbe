import {
  canonicalTimeZone,
  isCurrencyCode,
  isTimeZone,
  JURISDICTIONS,
  LIMIT_PERIODS,
  LIMIT_TYPES,
  limitKeyOf,
  toMinor,
} from '@raspa/core';
import { z } from 'zod';
import { currencyCode, httpUrl, isoTime } from './common.ts';

/**
 * The API shapes of player protection (CONTRACT §13): the limits a PUT sets and a GET answers with their
 * usage, the exclusion, and the profile's protection fields, one schema each for validation, types and
 * the OpenAPI document. Amounts are major units, as everywhere in the API; the rules that use them work
 * in minor units (@raspa/core protection). Not wired to any route yet (issue 25, docs/player-protection.md).
 */

/** Minutes of a session: whole, from 1 to a day (a longer session is not a limit anyone needs). */
const minutes = (what: string) =>
  z
    .number('must be a number')
    .int('must be a whole number of minutes')
    .min(1, 'must be at least 1 minute')
    .max(1440, 'must be at most 1440 minutes (a day)')
    .meta({ description: what });

export const limitType = z.enum(LIMIT_TYPES, 'must be loss or wager').meta({ id: 'LimitType' });
export const limitPeriod = z.enum(LIMIT_PERIODS, 'must be day, week or month').meta({
  id: 'LimitPeriod',
  description: "A calendar period in the profile's time zone; a week starts on Monday (ISO 8601)",
});

export const moneyLimitSchema = z
  .object({
    type: limitType,
    period: limitPeriod,
    currency: currencyCode,
    amount: z
      .number('must be a number')
      .positive('must be a positive number')
      .meta({ description: 'Major units of the currency; no more decimals than it has' }),
  })
  .superRefine((limit, ctx) => {
    if (!isCurrencyCode(limit.currency)) return;
    const minor = toMinor(limit.amount, limit.currency);
    if (!minor.ok) ctx.addIssue({ code: 'custom', path: ['amount'], message: minor.message });
  })
  .meta({ id: 'MoneyLimit' });

export const limitsBody = z
  .object({
    limits: z
      .array(moneyLimitSchema, 'must be a list of limits')
      .max(60, 'may list at most 60 limits')
      .nullish()
      .transform((limits) => limits ?? [])
      .superRefine((limits, ctx) => {
        const seen = new Set<string>();
        limits.forEach((limit, index) => {
          const key = limitKeyOf(limit);
          if (seen.has(key)) {
            ctx.addIssue({
              code: 'custom',
              path: [index],
              message: `repeats the ${limit.period} ${limit.type} limit in ${limit.currency}`,
            });
          }
          seen.add(key);
        });
      })
      .meta({ description: 'Empty or null: no loss or wager limit' }),
    sessionMinutes: minutes('Minutes of play a session may last; null: no limit').nullish(),
    realityCheckMinutes: minutes(
      'Minutes between reality checks; null: the profile’s or jurisdiction’s',
    ).nullish(),
  })
  .meta({
    id: 'LimitsUpdate',
    description:
      'Replaces all of the player’s limits. A stricter value applies at once; a looser one, or a limit ' +
      'left out, applies 24 hours later (listed under pending until then).',
  });

export const limitUsageSchema = z
  .object({
    type: limitType,
    period: limitPeriod,
    currency: z.string(),
    used: z
      .number()
      .meta({ description: 'Lost or wagered in the current period, major units (a loss may be negative)' }),
    resetAt: isoTime.meta({ description: 'When the current period ends and usage starts again from zero' }),
  })
  .meta({ id: 'LimitUsage' });

export const pendingLimitSchema = z
  .object({
    type: limitType,
    period: limitPeriod,
    currency: z.string(),
    amount: z
      .number()
      .nullable()
      .meta({ description: 'The looser amount, major units; null: the limit is removed' }),
    appliesAt: isoTime,
  })
  .meta({ id: 'PendingLimit' });

export const limitsSchema = z
  .object({
    limits: z.array(moneyLimitSchema).meta({ description: 'The limits in force' }),
    sessionMinutes: z.number().int().nullable(),
    realityCheckMinutes: z.number().int().nullable(),
    usage: z.array(limitUsageSchema).meta({ description: 'One per limit in force' }),
    pending: z
      .object({
        limits: z.array(pendingLimitSchema),
        sessionMinutes: z.object({ value: z.number().int().nullable(), appliesAt: isoTime }).nullable(),
      })
      .meta({ description: 'Looser values waiting for their 24 hours' }),
  })
  .meta({ id: 'Limits' });

export const exclusionReason = z
  .enum(['self', 'operator'], 'must be self or operator')
  .meta({ id: 'ExclusionReason' });

// `until` in the future is checked by the service: a schema has no clock.
export const exclusionBody = z
  .object({
    until: z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 time, e.g. 2026-12-31T00:00:00.000Z' })
      .nullable()
      .meta({ description: 'When it ends; null: indefinite' }),
    reason: exclusionReason,
  })
  .meta({
    id: 'ExclusionCreate',
    description: 'Ends the player’s live sessions at once; a self exclusion cannot be lifted before until',
  });

export const exclusionSchema = z
  .object({ reason: exclusionReason, until: isoTime.nullable(), createdAt: isoTime })
  .meta({ id: 'Exclusion' });

export const jurisdiction = z.enum(JURISDICTIONS, 'must be BR or GB').meta({ id: 'Jurisdiction' });

/** The profile's protection fields (CONTRACT §13), to add to the profile's create and update bodies. */
export const profileProtectionFields = {
  jurisdiction: jurisdiction.nullable().meta({ description: 'A preset of page and play rules; null: none' }),
  timezone: z
    .string('must be a string')
    .refine(isTimeZone, 'must be an IANA time zone, e.g. America/Sao_Paulo')
    // Stored as Intl spells it, whatever the case it was sent in.
    .transform((name) => canonicalTimeZone(name) ?? name)
    .meta({ description: 'IANA time zone of the limits’ days, weeks and months (default UTC)' }),
  realityCheckMinutes: minutes('Minutes between reality checks for players without their own').nullable(),
  responsibleGamingUrl: httpUrl
    .nullable()
    .meta({ description: 'The operator’s responsible-gaming page, linked from the game' }),
};

export type LimitsBody = z.infer<typeof limitsBody>;
export type LimitsAnswer = z.infer<typeof limitsSchema>;
export type ExclusionBody = z.infer<typeof exclusionBody>;
