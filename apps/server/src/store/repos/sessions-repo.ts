import type { Exec } from '../dialect/exec.ts';
import { statement } from '../dialect/statement.ts';
import type { GameSessionRecord } from '../records.ts';
import type { SessionsRepo } from '../repositories.ts';

const COLUMNS = `id, client_id AS "clientId", profile_id AS "profileId", player_id AS "playerId", game_id AS "gameId",
  token_hash AS "tokenHash", lang, return_url AS "returnUrl", expire_at AS "expireAt", created_at AS "createdAt",
  reality_check_acked_at AS "realityCheckAckedAt"`;

const insert = statement<GameSessionRecord>(`INSERT INTO game_sessions (id, client_id, profile_id, player_id,
  game_id, token_hash, lang, return_url, expire_at, created_at) VALUES (:id, :clientId, :profileId, :playerId,
  :gameId, :tokenHash, :lang, :returnUrl, :expireAt, :createdAt)`);
const byId = statement<{ id: string }, GameSessionRecord>(
  `SELECT ${COLUMNS} FROM game_sessions WHERE id = :id`,
);
const byToken = statement<{ tokenHash: string; now: string }, GameSessionRecord>(
  `SELECT ${COLUMNS} FROM game_sessions WHERE token_hash = :tokenHash AND expire_at > :now`,
);

export function createSessionsRepo(x: Exec): SessionsRepo {
  return {
    insert: async (session) => void (await x.run(insert, session)),
    findById: async (id) => x.first(byId, { id }),
    findLiveByTokenHash: async (tokenHash, now) => x.first(byToken, { tokenHash, now }),
  };
}
