import { FORCED_CARDS_PER_CALL } from '@raspa/core';
import { z } from 'zod';
import { id, successStatus } from '../../schemas/common.ts';
import { ok } from '../envelope.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';

export const nextCardsBody = z
  .object({
    sessionId: id,
    levels: z
      .array(
        z
          .number('must be a number')
          .int('must be a whole number')
          .min(0, 'must be 0 (a losing card) or a level'),
        'must be a list of levels',
      )
      .min(1, 'must list at least one level')
      .max(FORCED_CARDS_PER_CALL, `may list at most ${FORCED_CARDS_PER_CALL} levels`)
      .meta({ description: 'The levels of the next cards, in order; 0 is a losing card' }),
  })
  .meta({ id: 'NextCards' });

const nextCardsAnswer = z
  .object({
    queued: z
      .number()
      .int()
      .meta({ description: 'How many forced cards of the session wait now, these included' }),
  })
  .meta({ id: 'NextCardsQueued' });

export function testCardRoutes({ services }: RouteKit): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/test/next-cards',
      tag: 'Sessions',
      summary: 'Force the next cards of a test profile’s session (certification)',
      description:
        'Queues the levels of the session’s next cards after any already queued: each buy takes the next, ' +
        'laid out as any card of that level but drawn from no pool (docs/certification.md). Only a session of ' +
        'a profile of type test: another is a 409 CONFLICT and nothing changes; so is an ended or expired ' +
        'session. A level the game version does not have (or has no winning ticket of) is a 400; so is an ' +
        'unknown sessionId or another API client’s.',
      auth: 'signed',
      body: nextCardsBody,
      success: { status: 201, schema: z.object({ status: successStatus, data: nextCardsAnswer }) },
      errors: [400, 401, 409, 500],
      handle: async ({ auth, body }) => ok(await services.testCards.queue(auth, body)),
    }),
  ];
}
