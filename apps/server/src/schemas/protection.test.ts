import { describe, expect, it } from 'vitest';
import { exclusionBody, limitsBody, moneyLimitSchema, profileProtectionFields } from './protection.ts';

const messagesOf = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];

describe('limitsBody', () => {
  it('takes limits, session minutes and a reality-check interval', () => {
    const body = {
      limits: [
        { type: 'loss', period: 'day', currency: 'BRL', amount: 50.5 },
        { type: 'wager', period: 'week', currency: 'JPY', amount: 10000 },
      ],
      sessionMinutes: 120,
      realityCheckMinutes: 30,
    };
    expect(limitsBody.parse(body)).toEqual(body);
  });

  it('reads empty, null and missing fields as no limits', () => {
    expect(limitsBody.parse({})).toEqual({ limits: [] });
    expect(limitsBody.parse({ limits: null, sessionMinutes: null, realityCheckMinutes: null })).toEqual({
      limits: [],
      sessionMinutes: null,
      realityCheckMinutes: null,
    });
  });

  it('names each bad field', () => {
    const result = limitsBody.safeParse({
      limits: [
        { type: 'win', period: 'year', currency: 'XXY', amount: -1 },
        { type: 'loss', period: 'day', currency: 'JPY', amount: 10.5 },
      ],
      sessionMinutes: 0,
      realityCheckMinutes: 1.5,
    });
    expect(messagesOf(result)).toEqual([
      'limits.0.type: must be loss or wager',
      'limits.0.period: must be day, week or month',
      'limits.0.currency: is not an ISO 4217 currency code',
      'limits.0.amount: must be a positive number',
      'limits.1.amount: 10.5 has too many decimals: JPY allows no decimals',
      'sessionMinutes: must be at least 1 minute',
      'realityCheckMinutes: must be a whole number of minutes',
    ]);
  });

  it('refuses the same limit twice', () => {
    const limit = { type: 'loss', period: 'day', currency: 'BRL', amount: 50 };
    expect(messagesOf(limitsBody.safeParse({ limits: [limit, { ...limit, amount: 20 }] }))).toEqual([
      'limits.1: repeats the day loss limit in BRL',
    ]);
  });

  it('allows the same type and period in two currencies', () => {
    const limit = { type: 'loss', period: 'day', currency: 'BRL', amount: 50 };
    expect(limitsBody.safeParse({ limits: [limit, { ...limit, currency: 'USD' }] }).success).toBe(true);
  });
});

describe('moneyLimitSchema', () => {
  it('allows as many decimals as the currency has', () => {
    expect(
      moneyLimitSchema.safeParse({ type: 'loss', period: 'month', currency: 'KWD', amount: 1.125 }).success,
    ).toBe(true);
    expect(
      moneyLimitSchema.safeParse({ type: 'loss', period: 'month', currency: 'BRL', amount: 1.125 }).success,
    ).toBe(false);
  });
});

describe('exclusionBody', () => {
  it('takes a time or null, and a reason', () => {
    expect(exclusionBody.parse({ until: '2026-12-31T00:00:00.000Z', reason: 'self' }).reason).toBe('self');
    expect(exclusionBody.parse({ until: null, reason: 'operator' }).until).toBeNull();
    expect(messagesOf(exclusionBody.safeParse({ until: 'tomorrow', reason: 'player' }))).toEqual([
      'until: must be an ISO 8601 time, e.g. 2026-12-31T00:00:00.000Z',
      'reason: must be self or operator',
    ]);
  });
});

describe('profileProtectionFields', () => {
  it('checks the time zone against Intl', () => {
    expect(profileProtectionFields.timezone.parse('America/Sao_Paulo')).toBe('America/Sao_Paulo');
    expect(profileProtectionFields.timezone.parse('america/sao_paulo')).toBe('America/Sao_Paulo');
    expect(messagesOf(profileProtectionFields.timezone.safeParse('Brasil/Recife'))).toEqual([
      ': must be an IANA time zone, e.g. America/Sao_Paulo',
    ]);
    expect(profileProtectionFields.jurisdiction.safeParse('US').success).toBe(false);
    expect(profileProtectionFields.responsibleGamingUrl.safeParse('ftp://x.example').success).toBe(false);
  });
});
