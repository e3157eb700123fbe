import { z } from 'zod';
import { httpUrl, id, isoTime, lang, statusBody, successStatus } from '../../schemas/common.ts';
import { pageOf, pageQuery } from '../../schemas/paging.ts';
import { ok, okPage, okStatus } from '../envelope.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';
import { gameModel } from './game-routes.ts';

const sessionBody = z
  .object({
    userToken: z
      .string('must be a string')
      .min(1, 'must not be empty')
      .max(200, 'must be at most 200 characters')
      .meta({ description: 'From POST /v1/user/auth' }),
    gameId: id.optional().meta({ description: 'The game version to play' }),
    profileId: id.optional().meta({ description: 'With gameModel, instead of gameId: the active version' }),
    gameModel: gameModel.optional(),
    lang: lang.optional().meta({ description: "The page's language; default the game's lang" }),
    returnUrl: httpUrl
      .max(2000, 'must be at most 2000 characters')
      .optional()
      .meta({ description: 'Where the page sends the player back to' }),
  })
  .superRefine((body, context) => {
    if (body.gameId !== undefined) return;
    for (const field of ['profileId', 'gameModel'] as const) {
      if (body[field] === undefined) {
        context.addIssue({
          code: 'custom',
          path: [field],
          message:
            'is required when gameId is not given (the profile’s active version of gameModel is played)',
        });
      }
    }
  })
  .meta({
    id: 'SessionCreate',
    description: 'Name the game by gameId, or by profileId and gameModel for the active version.',
  });

const sessionSchema = z
  .object({
    sessionId: z.string(),
    gameUrl: z.string().meta({
      description: 'The player’s page; it carries a one-session token, so give it to that player only',
    }),
    expireAt: isoTime.meta({ description: 'The session lives 2 hours' }),
  })
  .meta({ id: 'Session' });

export const liveSessionSchema = z
  .object({
    id: z.string(),
    gameId: z.string(),
    createdAt: isoTime,
    expireAt: isoTime,
    status: z.literal('live').meta({ description: 'Only live sessions are listed: not ended, not expired' }),
  })
  .meta({ id: 'LiveSession' });

const OWNERSHIP = 'An unknown one, or another API client’s, is the same 404.';

export function sessionRoutes({ services }: RouteKit): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/game/session',
      tag: 'Sessions',
      summary: 'Start a game session for a player and get its gameUrl',
      description:
        'The userToken must be live and its player a player of one of your profiles (else 401); ' +
        'the game must be of the player’s profile (400) and active (409). An unknown gameId or profileId ' +
        'is a 400, and so is another API client’s. An excluded player (POST /v1/user/{userId}/exclusion) is a ' +
        '403 PLAYER_EXCLUDED until the exclusion ends.',
      auth: 'signed',
      body: sessionBody,
      success: { status: 201, schema: z.object({ status: successStatus, data: sessionSchema }) },
      errors: [400, 401, 403, 409, 500],
      handle: async ({ auth, body }) => {
        const started = await services.sessions.start(auth, body);
        return ok({ sessionId: started.session.id, gameUrl: started.gameUrl, expireAt: started.expireAt });
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/game/session/:sessionId',
      tag: 'Sessions',
      summary: 'End a game session at once',
      description:
        'Its open pages are sent the socket event session-ended (code SESSION_ENDED) and disconnected, on ' +
        'every instance; any later connection or request of it answers SESSION_ENDED, and its gameUrl opened ' +
        "again shows, in the operator's frame, that the session ended. A round in " +
        'play is left to close by itself (its prize is paid). Ending an ended or expired session answers ' +
        `200 again and changes nothing. ${OWNERSHIP}`,
      auth: 'bearer',
      params: z.object({ sessionId: id }),
      success: { status: 200, schema: statusBody },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, params }) => {
        await services.sessions.end(auth, params.sessionId);
        return okStatus();
      },
    }),
    defineRoute({
      method: 'get',
      path: '/user/:userId/sessions',
      tag: 'Sessions',
      summary: 'List a player’s live game sessions, newest first',
      description: `Sessions neither ended nor expired. ${OWNERSHIP}`,
      auth: 'bearer',
      params: z.object({ userId: id }),
      query: pageQuery,
      success: { status: 200, schema: pageOf(liveSessionSchema) },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, params, query }) => {
        const { pageIndex, pageSize } = query;
        const page = await services.sessions.live(auth, params.userId, { pageIndex, pageSize });
        return okPage(
          page.items.map((session) => ({ ...session, status: 'live' as const })),
          { pageIndex, pageSize, totalCount: page.totalCount },
        );
      },
    }),
  ];
}
