import type { GameSessionRecord } from '../records.ts';
import type { SessionsRepo } from '../repositories.ts';
import { first, type Sql } from './sql.ts';

const COLUMNS = `id, client_id AS "clientId", profile_id AS "profileId", player_id AS "playerId", game_id AS "gameId",
  token_hash AS "tokenHash", lang, return_url AS "returnUrl", expire_at AS "expireAt", created_at AS "createdAt"`;

export function createSessionsRepo(sql: Sql): SessionsRepo {
  return {
    insert: async (s) =>
      void (await sql.query(
        `INSERT INTO game_sessions (id, client_id, profile_id, player_id, game_id, token_hash, lang, return_url,
          expire_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          s.id,
          s.clientId,
          s.profileId,
          s.playerId,
          s.gameId,
          s.tokenHash,
          s.lang,
          s.returnUrl,
          s.expireAt,
          s.createdAt,
        ],
      )),
    findById: (id) =>
      first<GameSessionRecord>(sql, `SELECT ${COLUMNS} FROM game_sessions WHERE id = $1`, [id]),
    findLiveByTokenHash: (tokenHash, now) =>
      first<GameSessionRecord>(
        sql,
        `SELECT ${COLUMNS} FROM game_sessions WHERE token_hash = $1 AND expire_at > $2`,
        [tokenHash, now],
      ),
  };
}
