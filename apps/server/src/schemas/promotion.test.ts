import { describe, expect, it } from 'vitest';
import { createDocument } from 'zod-openapi';
import {
  playerFreeCards,
  promotionCreateBody,
  promotionListQuery,
  promotionPlayersBody,
  promotionSchema,
} from './promotion.ts';

const valid = {
  profileId: 'profile-1',
  gameId: 'game-1',
  name: 'Welcome offer',
  cardsPerPlayer: 5,
  players: ['u1', 'u2'],
  expireAt: '2026-04-01T00:00:00.000Z',
};

/** The fields a body is refused for, each with its message. */
function problems(body: unknown): string[] {
  const result = promotionCreateBody.safeParse(body);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('promotionCreateBody', () => {
  it('accepts the limits’ edges: 1 and 1000 cards, 1 and 10,000 players', () => {
    const many = Array.from({ length: 10_000 }, (_, index) => `u${index}`);
    for (const body of [
      { ...valid, cardsPerPlayer: 1, players: ['u1'] },
      { ...valid, cardsPerPlayer: 1000, players: many },
    ]) {
      expect(problems(body)).toEqual([]);
    }
  });

  it('refuses 0 or 1001 cards, a fraction, no players or 10,001, naming the field', () => {
    const tooMany = Array.from({ length: 10_001 }, (_, index) => `u${index}`);
    expect(problems({ ...valid, cardsPerPlayer: 0 })).toEqual(['cardsPerPlayer: must be between 1 and 1000']);
    expect(problems({ ...valid, cardsPerPlayer: 1001 })).toEqual([
      'cardsPerPlayer: must be between 1 and 1000',
    ]);
    expect(problems({ ...valid, cardsPerPlayer: 1.5 })).toEqual(['cardsPerPlayer: must be a whole number']);
    expect(problems({ ...valid, players: [] })).toEqual(['players: must list at least one player']);
    expect(problems({ ...valid, players: tooMany })).toEqual([
      'players: may list at most 10,000 players per call',
    ]);
  });

  it('keeps a player listed twice once, in first-seen order', () => {
    expect(promotionCreateBody.parse({ ...valid, players: ['b', 'a', 'b', ' a '] }).players).toEqual([
      'b',
      'a',
    ]);
    expect(promotionPlayersBody.parse({ players: ['x', 'x'] }).players).toEqual(['x']);
  });

  it('refuses an expiry at or before the start and a time that is not ISO 8601 UTC', () => {
    expect(problems({ ...valid, startAt: valid.expireAt })).toEqual(['expireAt: must be after startAt']);
    expect(problems({ ...valid, startAt: '2026-05-01T00:00:00Z' })).toEqual([
      'expireAt: must be after startAt',
    ]);
    expect(problems({ ...valid, expireAt: '2026-04-01 00:00' })).toEqual([
      'expireAt: must be an ISO 8601 UTC time such as 2026-03-01T12:00:00.000Z',
    ]);
    expect(problems({ ...valid, startAt: '2026-03-01T00:00:00.000Z' })).toEqual([]);
  });

  it('refuses an empty name and a missing expiry', () => {
    const { expireAt: _left, ...noExpiry } = valid;
    expect(problems({ ...valid, name: '  ' })).toEqual(['name: must not be empty']);
    expect(problems(noExpiry)).toHaveLength(1);
  });
});

describe('promotion schemas in OpenAPI', () => {
  it('render as named components, ready for /docs', () => {
    const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
    const document = createDocument({
      openapi: '3.1.0',
      info: { title: 'promotions', version: '0' },
      paths: {
        '/v1/promotion': {
          post: {
            requestBody: json(promotionCreateBody) as never,
            responses: { 200: { description: 'ok', ...json(promotionSchema) } as never },
          },
          get: {
            requestParams: { query: promotionListQuery },
            responses: { 200: { description: 'ok', ...json(playerFreeCards) } as never },
          },
        },
      },
    });
    expect(Object.keys(document.components?.schemas ?? {})).toEqual(
      expect.arrayContaining([
        'PromotionCreate',
        'Promotion',
        'PromotionStatus',
        'PlayerFreeCards',
        'FreeCardsLine',
      ]),
    );
  });
});
