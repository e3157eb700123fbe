import type { GameSessionRecord } from '../records.ts';
import type { SessionsRepo } from '../repositories.ts';
import type { Db } from './database.ts';
import type { Sync } from './sync.ts';

const COLUMNS = `id, client_id AS clientId, profile_id AS profileId, player_id AS playerId, game_id AS gameId,
  token_hash AS tokenHash, lang, return_url AS returnUrl, expire_at AS expireAt, created_at AS createdAt`;

export function createSessionsRepo(db: Db): Sync<SessionsRepo> {
  const insert = db.prepare(`INSERT INTO game_sessions (id, client_id, profile_id, player_id, game_id,
    token_hash, lang, return_url, expire_at, created_at) VALUES (@id, @clientId, @profileId, @playerId,
    @gameId, @tokenHash, @lang, @returnUrl, @expireAt, @createdAt)`);
  const byId = db.prepare<[string], GameSessionRecord>(`SELECT ${COLUMNS} FROM game_sessions WHERE id = ?`);
  const byToken = db.prepare<[string, string], GameSessionRecord>(
    `SELECT ${COLUMNS} FROM game_sessions WHERE token_hash = ? AND expire_at > ?`,
  );
  return {
    insert: (session) => void insert.run(session),
    findById: (id) => byId.get(id),
    findLiveByTokenHash: (tokenHash, now) => byToken.get(tokenHash, now),
  };
}
