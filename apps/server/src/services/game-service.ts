import { buildLadder, type Ladder, type LadderInput, type LadderProblem } from '@raspa/core';
import { type Deps, isoNow } from '../deps.ts';
import { ApiError } from '../http/api-error.ts';
import type { GameRecord, ProfileRecord } from '../store/records.ts';
import type { AuthContext } from './auth-context.ts';
import { owned } from './ownership.ts';

export interface GameInput extends LadderInput {
  profileId: string;
  lang: string;
  simulation: boolean;
  replacePreviousVersion: boolean;
}

/** The ladder and, when stored, the version it became (all null/false for a simulation). */
export interface GameCreated {
  ladder: Ladder;
  game: { id: string | null; version: number | null; active: boolean };
}

/**
 * A record named in a request body or query (not in the path): an unknown id is a 400 on that
 * field, since the operation itself exists (the spec lists no 404 for POST/GET /v1/game);
 * another API client's record is a 403 as everywhere.
 */
export function referenced<T extends { clientId: string }>(
  record: T | undefined,
  clientId: string,
  field: string,
  what: string,
): T {
  if (!record) throw new ApiError('VALIDATION_ERROR', `${field}: ${what} was not found`);
  return owned(record, clientId, what);
}

export function referencedProfile(deps: Pick<Deps, 'store'>, clientId: string, profileId: string) {
  return referenced(deps.store.profiles.findById(profileId), clientId, 'profileId', `profile ${profileId}`);
}

/** A ladder problem as a field message, in the `field: message` form of every other 400. */
export function ladderProblemMessage({ field, message }: LadderProblem): string {
  const rest = message.startsWith(`${field} `) ? message.slice(field.length + 1) : message;
  return `${field}: ${rest}`;
}

/** Game configurations: versions of a (profile, model), at most one active (docs/contract.md §3). */
export function createGameService(deps: Deps) {
  const { store } = deps;

  function ladderFor(profile: ProfileRecord, input: GameInput): Ladder {
    const problems: string[] = [];
    // A game's bets and prizes go to the profile's wallet in the game's currency: one it takes.
    if (profile.currencies && !profile.currencies.includes(input.currency)) {
      problems.push(
        `currency: ${input.currency} is not one of the currencies of profile ${profile.id} (${profile.currencies.join(', ')}), which its wallet takes`,
      );
    }
    const built = buildLadder(input);
    if (!built.ok) problems.push(...built.problems.map(ladderProblemMessage));
    if (problems.length > 0 || !built.ok) throw new ApiError('VALIDATION_ERROR', problems);
    return built.ladder;
  }

  /** Stores the ladder as the next version, active, replacing the active one only when asked. */
  function storeVersion(auth: AuthContext, input: GameInput, ladder: Ladder): GameRecord {
    return store.transaction(() => {
      const current = store.games.findActive(input.profileId, input.gameModel);
      if (current) {
        if (!input.replacePreviousVersion) {
          throw new ApiError(
            'CONFLICT',
            `profile ${input.profileId} already has an active ${input.gameModel} game (version ${current.version}); ` +
              'send replacePreviousVersion: true to replace it',
          );
        }
        store.games.setActive(current.id, false);
      }
      const game: GameRecord = {
        id: deps.newId(),
        clientId: auth.clientId,
        profileId: input.profileId,
        gameModel: input.gameModel,
        version: store.games.lastVersion(input.profileId, input.gameModel) + 1,
        active: true,
        lang: input.lang,
        currency: ladder.currency,
        rtpPpm: ladder.rtpPpm,
        sampling: ladder.sampling,
        prizedPpm: ladder.prizedPpm,
        betMinor: ladder.betPrice,
        ladder,
        createdAt: isoNow(deps),
      };
      store.games.insert(game);
      return game;
    });
  }

  return {
    create(auth: AuthContext, input: GameInput): GameCreated {
      const profile = referencedProfile(deps, auth.clientId, input.profileId);
      const ladder = ladderFor(profile, input);
      if (input.simulation) return { ladder, game: { id: null, version: null, active: false } };
      const game = storeVersion(auth, input, ladder);
      return { ladder, game: { id: game.id, version: game.version, active: game.active } };
    },

    /** Every version of every model of the profile. */
    list(auth: AuthContext, profileId: string): GameRecord[] {
      referencedProfile(deps, auth.clientId, profileId);
      return store.games.listByProfile(profileId);
    },

    /** Activating a version deactivates the other active version of its model, in one transaction. */
    setActive(auth: AuthContext, gameId: string, change: { active: boolean; profileId: string }): void {
      store.transaction(() => {
        const game = owned(store.games.findById(gameId), auth.clientId, `game ${gameId}`);
        if (game.profileId !== change.profileId) {
          throw new ApiError(
            'VALIDATION_ERROR',
            `profileId: game ${gameId} is not a game of profile ${change.profileId}`,
          );
        }
        if (change.active) store.games.deactivateOthers(game.profileId, game.gameModel, game.id);
        store.games.setActive(game.id, change.active);
      });
    },
  };
}

export type GameService = ReturnType<typeof createGameService>;
