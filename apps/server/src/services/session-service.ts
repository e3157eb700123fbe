import { type GameModel, isExcluded, type PlayErrorCode, type SessionEndCode } from '@raspa/core';
import { isoIn, isoNow } from '../clock.ts';
import type { Deps } from '../deps.ts';
import { digest, newToken } from '../security/secrets.ts';
import type { Page, PageRequest } from '../store/paging.ts';
import { exclusionOf } from '../store/protection-records.ts';
import type {
  GameRecord,
  GameSessionRecord,
  LiveSessionRow,
  PlayerRecord,
  ProfileRecord,
} from '../store/records.ts';
import type { Transaction } from '../store/store.ts';
import { ApiError } from './api-error.ts';
import type { AuthContext } from './auth-context.ts';
import { referencedGame, referencedProfile } from './game-service.ts';
import { owned, visible } from './ownership.ts';
import type { SessionEndNotifier } from './session-endings.ts';

/** A session lives 2 hours, like the userToken it starts from. */
export const SESSION_TTL_SECONDS = 2 * 60 * 60;

const SESSION_TOKEN_PREFIX = 'ses_';

/** The game is named by id, or by profile and model for the profile's active version. */
export interface SessionInput {
  userToken: string;
  gameId?: string | undefined;
  profileId?: string | undefined;
  gameModel?: GameModel | undefined;
  lang?: string | undefined;
  returnUrl?: string | undefined;
}

export interface SessionStarted {
  session: GameSessionRecord;
  gameUrl: string;
  expireAt: string;
}

/** What the player's page works with once its token is checked. */
export interface LiveSession {
  session: GameSessionRecord;
  player: PlayerRecord;
  game: GameRecord;
  profile: ProfileRecord;
}

/** A gameUrl token's session, or the play error a connection with it is refused with. */
export type OpenedSession = { ok: true; live: LiveSession } | { ok: false; code: PlayErrorCode };

/**
 * Player sessions: a one-session token the gameUrl carries (docs/contract.md §3: no third-party
 * cookies in a frame). `endings` hears of the sessions an operator ends, once their unit commits,
 * to close their sockets on every process (realtime/session-endings.ts).
 */
export function createSessionService(deps: Deps, endings: SessionEndNotifier) {
  const { store } = deps;

  const inactive = (detail: string) =>
    new ApiError('CONFLICT', `an inactive game cannot start a session: ${detail}`);

  async function playerOf(tx: Transaction, auth: AuthContext, userToken: string): Promise<PlayerRecord> {
    // Another API client's player's token is as unknown as a made-up one (ownership.ts).
    const player = visible(
      await tx.players.findByLiveUserToken(digest(userToken), isoNow(deps)),
      auth.clientId,
    );
    if (!player) {
      throw new ApiError(
        'UNAUTHORIZED',
        'userToken is unknown or has expired; log the player in again with POST /v1/user/auth',
      );
    }
    return player;
  }

  async function gameById(
    tx: Transaction,
    auth: AuthContext,
    player: PlayerRecord,
    input: SessionInput & { gameId: string },
  ) {
    const game = await referencedGame(tx, auth.clientId, input.gameId);
    if (game.profileId !== player.profileId) {
      throw new ApiError('VALIDATION_ERROR', `gameId: game ${game.id} is not a game of the player's profile`);
    }
    if (input.profileId !== undefined && input.profileId !== game.profileId) {
      throw new ApiError(
        'VALIDATION_ERROR',
        `profileId: game ${game.id} is not a game of profile ${input.profileId}`,
      );
    }
    if (input.gameModel !== undefined && input.gameModel !== game.gameModel) {
      throw new ApiError('VALIDATION_ERROR', `gameModel: game ${game.id} is a ${game.gameModel} game`);
    }
    return game;
  }

  async function activeGame(
    tx: Transaction,
    auth: AuthContext,
    player: PlayerRecord,
    profileId: string,
    gameModel: GameModel,
  ) {
    const profile = await referencedProfile(tx, auth.clientId, profileId);
    if (profile.id !== player.profileId) {
      throw new ApiError(
        'VALIDATION_ERROR',
        `profileId: the player of this userToken is not a player of profile ${profileId}`,
      );
    }
    const game = await tx.games.findActive(profile.id, gameModel);
    if (game) return game;
    if ((await tx.games.lastVersion(profile.id, gameModel)) > 0)
      throw inactive(`no ${gameModel} version of profile ${profileId} is active`);
    throw new ApiError(
      'VALIDATION_ERROR',
      `gameModel: profile ${profileId} has no ${gameModel} game; create one with POST /v1/game`,
    );
  }

  async function gameFor(
    tx: Transaction,
    auth: AuthContext,
    player: PlayerRecord,
    input: SessionInput,
  ): Promise<GameRecord> {
    if (input.gameId !== undefined) {
      const game = await gameById(tx, auth, player, { ...input, gameId: input.gameId });
      if (!game.active) throw inactive(`game ${game.id} (version ${game.version}) is inactive`);
      return game;
    }
    if (input.profileId === undefined || input.gameModel === undefined) {
      throw new ApiError(
        'VALIDATION_ERROR',
        'gameId is required, or profileId and gameModel for the active version',
      );
    }
    return activeGame(tx, auth, player, input.profileId, input.gameModel);
  }

  /** An excluded player starts no session until the exclusion ends (CONTRACT §13). */
  async function refuseExcluded(tx: Transaction, player: PlayerRecord): Promise<void> {
    const exclusion = exclusionOf(await tx.protection.findExclusion(player.id));
    if (!isExcluded(exclusion, deps.clock().getTime())) return;
    const until =
      exclusion?.until == null ? 'indefinitely' : `until ${new Date(exclusion.until).toISOString()}`;
    throw new ApiError('PLAYER_EXCLUDED', `the player is excluded from play ${until}`);
  }

  /**
   * The live session of a gameUrl token with its player, game and profile, or the play error a
   * connection with it is refused with: SESSION_EXPIRED for an unknown or expired token, the
   * session's end code once ended. Whether the game is still active is the caller's question (a
   * deactivated game may still need to close a round in flight).
   */
  async function openSession(sessionToken: string): Promise<OpenedSession> {
    const session = await sessionOfToken(sessionToken);
    if (!session) return { ok: false, code: 'SESSION_EXPIRED' };
    if (session.endCode) return { ok: false, code: session.endCode };
    return { ok: true, live: await recordsOf(session) };
  }

  const sessionOfToken = (sessionToken: string) =>
    store.sessions.findLiveByTokenHash(digest(sessionToken), isoNow(deps));

  async function recordsOf(session: GameSessionRecord): Promise<LiveSession> {
    const [player, game, profile] = await Promise.all([
      store.players.findById(session.playerId),
      store.games.findById(session.gameId),
      store.profiles.findById(session.profileId),
    ]);
    // Foreign keys guarantee all three; a gap would be a corrupt database, not a bad token.
    if (!player || !game || !profile) throw new Error(`session ${session.id} refers to missing records`);
    return { session, player, game, profile };
  }

  return {
    /** Starts a session of a live player on an active game of the player's profile. */
    start(auth: AuthContext, input: SessionInput): Promise<SessionStarted> {
      return store.transaction(async (tx) => {
        const player = await playerOf(tx, auth, input.userToken);
        await refuseExcluded(tx, player);
        const game = await gameFor(tx, auth, player, input);
        const sessionToken = newToken(deps.random, 32, SESSION_TOKEN_PREFIX);
        const session: GameSessionRecord = {
          id: deps.newId(),
          clientId: player.clientId,
          profileId: player.profileId,
          playerId: player.id,
          gameId: game.id,
          tokenHash: digest(sessionToken),
          lang: input.lang ?? game.lang,
          returnUrl: input.returnUrl ?? null,
          expireAt: isoIn(deps, SESSION_TTL_SECONDS),
          createdAt: isoNow(deps),
          realityCheckAckedAt: null,
          endedAt: null,
          endCode: null,
        };
        await tx.sessions.insert(session);
        const gameUrl = `${deps.settings.publicUrl}/play/${encodeURIComponent(session.id)}?token=${encodeURIComponent(sessionToken)}`;
        return { session, gameUrl, expireAt: session.expireAt };
      });
    },

    /**
     * Ends one session at once (DELETE /v1/game/session/{sessionId}): its requests and connections
     * answer SESSION_ENDED from now on, and its sockets on every process are told and closed. Ending
     * an ended session changes nothing but tells the sockets again: a process that missed the first
     * word (a lost NOTIFY) hears it this way.
     */
    async end(auth: AuthContext, sessionId: string): Promise<void> {
      await store.transaction(async (tx) => {
        const session = owned(await tx.sessions.findById(sessionId), auth.clientId, `session ${sessionId}`);
        await tx.sessions.end(session.id, 'SESSION_ENDED', isoNow(deps));
        const code: SessionEndCode = session.endCode ?? 'SESSION_ENDED';
        tx.afterCommit(() => endings.ended({ sessionIds: [session.id], code }));
      });
    },

    /** A player's live sessions, newest first (the panel's "end session" list). */
    async live(auth: AuthContext, userId: string, page: PageRequest): Promise<Page<LiveSessionRow>> {
      const player = owned(await store.players.findById(userId), auth.clientId, `user ${userId}`);
      return store.sessions.liveOfPlayer(player.id, isoNow(deps), page);
    },

    openSession,

    /**
     * The session behind a gameUrl's page, live or ended (its `session.endCode` says which: the
     * page, framed by its operator, says it ended), or undefined when unknown or expired.
     */
    async resolveSessionToken(sessionToken: string): Promise<LiveSession | undefined> {
      const session = await sessionOfToken(sessionToken);
      return session && recordsOf(session);
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
