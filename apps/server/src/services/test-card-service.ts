import { unforcibleLevels } from '@raspa/core';
import { isoNow } from '../clock.ts';
import type { Deps } from '../deps.ts';
import { ApiError } from './api-error.ts';
import type { AuthContext } from './auth-context.ts';
import { visible } from './ownership.ts';

/**
 * Manages the queues of forced cards of test sessions (POST /v1/test/next-cards, docs/certification.md):
 * only their records. A buy takes its card on the round's path (play/forced-cards.ts); what may be
 * queued is core's rule (forced-cards/).
 */
export function createTestCardService(deps: Pick<Deps, 'store' | 'clock'>) {
  return {
    /** Adds `levels` to the end of the session's queue: how many cards wait now. */
    async queue(
      auth: AuthContext,
      input: { sessionId: string; levels: number[] },
    ): Promise<{ queued: number }> {
      const now = isoNow(deps);
      return deps.store.transaction(async (tx) => {
        // An id in the body, as POST /v1/game/session's gameId: unknown or another client's is a 400.
        const session = visible(await tx.sessions.findById(input.sessionId), auth.clientId);
        if (!session)
          throw new ApiError('VALIDATION_ERROR', [`sessionId: session ${input.sessionId} was not found`]);
        const [profile, game] = await Promise.all([
          tx.profiles.findById(session.profileId),
          tx.games.findById(session.gameId),
        ]);
        if (!profile || !game) throw new Error(`session ${session.id} has no profile or game`);
        if (profile.type !== 'test') {
          throw new ApiError(
            'CONFLICT',
            `session ${session.id} is of profile ${profile.id} of type ${profile.type}: only a test profile's cards may be forced`,
          );
        }
        if (session.endedAt !== null || session.expireAt <= now) {
          throw new ApiError('CONFLICT', `session ${session.id} has ended: no card of it will be bought`);
        }
        const refused = unforcibleLevels(game.ladder, input.levels);
        if (refused.length > 0) {
          const levels = game.ladder.levels.filter((level) => level.winners > 0).map((level) => level.level);
          throw new ApiError('VALIDATION_ERROR', [
            `levels: game ${game.id} has no level ${refused.join(', ')} (it has 0 for a losing card and ${levels.join(', ')})`,
          ]);
        }
        return { queued: await tx.testCards.queue(session.id, input.levels, now) };
      });
    },
  };
}

export type TestCardService = ReturnType<typeof createTestCardService>;
