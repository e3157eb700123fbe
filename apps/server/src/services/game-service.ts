import { buildLadder, type Ladder, type LadderInput, type LadderProblem } from '@raspa/core';
import { isoNow } from '../clock.ts';
import type { Deps } from '../deps.ts';
import type { GameRecord, ProfileRecord } from '../store/records.ts';
import type { Repositories, Transaction } from '../store/store.ts';
import { ApiError } from './api-error.ts';
import type { AuthContext } from './auth-context.ts';
import { owned, visible } from './ownership.ts';

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
 * another API client's record is the same 400, as unknown as everywhere (ownership.ts).
 */
export function referenced<T extends { clientId: string }>(
  record: T | undefined,
  clientId: string,
  field: string,
  what: string,
): T {
  const mine = visible(record, clientId);
  if (!mine) throw new ApiError('VALIDATION_ERROR', `${field}: ${what} was not found`);
  return mine;
}

/** `repos` is the store, or the transaction the check belongs to. */
export async function referencedProfile(
  repos: Pick<Repositories, 'profiles'>,
  clientId: string,
  profileId: string,
): Promise<ProfileRecord> {
  const profile = await repos.profiles.findById(profileId);
  return referenced(profile, clientId, 'profileId', `profile ${profileId}`);
}

/** A game named by `gameId` in a body: unknown, or another client's, is a 400 on that field. */
export async function referencedGame(
  repos: Pick<Repositories, 'games'>,
  clientId: string,
  gameId: string,
): Promise<GameRecord> {
  return referenced(await repos.games.findById(gameId), clientId, 'gameId', `game ${gameId}`);
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
  async function storeVersion(
    tx: Transaction,
    auth: AuthContext,
    input: GameInput,
    ladder: Ladder,
  ): Promise<GameRecord> {
    const current = await tx.games.findActive(input.profileId, input.gameModel);
    if (current) {
      if (!input.replacePreviousVersion) {
        throw new ApiError(
          'CONFLICT',
          `profile ${input.profileId} already has an active ${input.gameModel} game (version ${current.version}); ` +
            'send replacePreviousVersion: true to replace it',
        );
      }
      await tx.games.setActive(current.id, false);
    }
    const game: GameRecord = {
      id: deps.newId(),
      clientId: auth.clientId,
      profileId: input.profileId,
      gameModel: input.gameModel,
      version: (await tx.games.lastVersion(input.profileId, input.gameModel)) + 1,
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
    await tx.games.insert(game);
    return game;
  }

  return {
    async create(auth: AuthContext, input: GameInput): Promise<GameCreated> {
      if (input.simulation) {
        const profile = await referencedProfile(store, auth.clientId, input.profileId);
        return { ladder: ladderFor(profile, input), game: { id: null, version: null, active: false } };
      }
      // The profile is read on the transaction that stores the version, so its currencies hold.
      return store.transaction(async (tx) => {
        const profile = await referencedProfile(tx, auth.clientId, input.profileId);
        const ladder = ladderFor(profile, input);
        const game = await storeVersion(tx, auth, input, ladder);
        return { ladder, game: { id: game.id, version: game.version, active: game.active } };
      });
    },

    /** Every version of every model of the profile. */
    async list(auth: AuthContext, profileId: string): Promise<GameRecord[]> {
      await referencedProfile(store, auth.clientId, profileId);
      return store.games.listByProfile(profileId);
    },

    /**
     * A version of the game `gameId` names: that one, or `version` of the same profile and model
     * (404 for an unknown game, another client's, or a version it does not have).
     */
    async findVersion(auth: AuthContext, gameId: string, version?: number): Promise<GameRecord> {
      const game = owned(await store.games.findById(gameId), auth.clientId, `game ${gameId}`);
      if (version === undefined || version === game.version) return game;
      const versions = await store.games.listByProfile(game.profileId);
      const wanted = versions.find((each) => each.gameModel === game.gameModel && each.version === version);
      if (!wanted) throw new ApiError('NOT_FOUND', `game ${gameId} has no version ${version}`);
      return wanted;
    },

    /** Activating a version deactivates the other active version of its model, in one transaction. */
    async setActive(
      auth: AuthContext,
      gameId: string,
      change: { active: boolean; profileId: string },
    ): Promise<void> {
      await store.transaction(async (tx) => {
        const game = owned(await tx.games.findById(gameId), auth.clientId, `game ${gameId}`);
        if (game.profileId !== change.profileId) {
          throw new ApiError(
            'VALIDATION_ERROR',
            `profileId: game ${gameId} is not a game of profile ${change.profileId}`,
          );
        }
        if (change.active) await tx.games.deactivateOthers(game.profileId, game.gameModel, game.id);
        await tx.games.setActive(game.id, change.active);
      });
    },
  };
}

export type GameService = ReturnType<typeof createGameService>;
