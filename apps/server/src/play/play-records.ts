import type { Deps } from '../deps.ts';
import type { GameRecord, GameSessionRecord, PlayerRecord, ProfileRecord } from '../store/records.ts';
import type { Repositories } from '../store/store.ts';

/**
 * The records every play request reads (its session, player, game and profile), kept in memory:
 * four reads a request otherwise. Sessions, players and games are kept as read, as the play loop
 * uses only their fields that never change (a game's `active` flag is read again in the buy's own
 * transaction). A profile's wallet and origins can change: it is kept `profileTtlMs`, and this
 * process forgets it at once when it changes it here (`forgetProfile`); another process's change
 * is seen within the TTL. A session an operator ends is forgotten by every process at once
 * (`forgetSession`, from realtime/session-endings.ts), so its next request reads it ended.
 */
export interface PlayRecords {
  session(id: string): Promise<GameSessionRecord | undefined>;
  player(id: string): Promise<PlayerRecord | undefined>;
  game(id: string): Promise<GameRecord | undefined>;
  profile(id: string): Promise<ProfileRecord | undefined>;
  forgetProfile(id: string): void;
  /**
   * The session read again from the store, and kept: for a field that can change (the last
   * "Keep playing" of a reality check, which another instance may have taken).
   */
  freshSession(id: string): Promise<GameSessionRecord | undefined>;
  /** Keeps `session` as this process changed it (a reality check's "Keep playing"). */
  keepSession(session: GameSessionRecord): void;
  forgetSession(id: string): void;
}

export interface PlayRecordsOptions {
  /** Records kept per kind; the oldest read is forgotten first. */
  max?: number;
  profileTtlMs?: number;
}

export function createPlayRecords(
  repos: Pick<Repositories, 'sessions' | 'players' | 'games' | 'profiles'>,
  clock: Deps['clock'],
  { max = 10_000, profileTtlMs = 5_000 }: PlayRecordsOptions = {},
): PlayRecords {
  /** A read-through cache of one kind; only records found are kept. */
  function kept<T>(read: (id: string) => Promise<T | undefined>, ttlMs = Number.POSITIVE_INFINITY) {
    const entries = new Map<string, { value: T; until: number }>();
    return {
      async get(id: string): Promise<T | undefined> {
        const now = clock().getTime();
        const entry = entries.get(id);
        if (entry && entry.until > now) return entry.value;
        const value = await read(id);
        if (value === undefined) return undefined;
        entries.delete(id);
        if (entries.size >= max) entries.delete(entries.keys().next().value as string);
        entries.set(id, { value, until: now + ttlMs });
        return value;
      },
      forget: (id: string) => void entries.delete(id),
      keep(id: string, value: T) {
        entries.delete(id);
        if (entries.size >= max) entries.delete(entries.keys().next().value as string);
        entries.set(id, { value, until: clock().getTime() + ttlMs });
      },
    };
  }
  const sessions = kept((id) => repos.sessions.findById(id));
  const players = kept((id) => repos.players.findById(id));
  const games = kept((id) => repos.games.findById(id));
  const profiles = kept((id) => repos.profiles.findById(id), profileTtlMs);
  return {
    session: sessions.get,
    player: players.get,
    game: games.get,
    profile: profiles.get,
    forgetProfile: profiles.forget,
    async freshSession(id) {
      sessions.forget(id);
      return sessions.get(id);
    },
    keepSession: (session) => sessions.keep(session.id, session),
    forgetSession: sessions.forget,
  };
}
