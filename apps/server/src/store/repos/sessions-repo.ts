import type { SessionEndCode } from '@raspa/core';
import type { Exec } from '../dialect/exec.ts';
import { statement } from '../dialect/statement.ts';
import type { GameSessionRecord, LiveSessionRow } from '../records.ts';
import type { SessionsRepo } from '../repositories.ts';

const COLUMNS = `id, client_id AS "clientId", profile_id AS "profileId", player_id AS "playerId", game_id AS "gameId",
  token_hash AS "tokenHash", lang, return_url AS "returnUrl", expire_at AS "expireAt", created_at AS "createdAt",
  reality_check_acked_at AS "realityCheckAckedAt", ended_at AS "endedAt", end_code AS "endCode"`;

const insert = statement<GameSessionRecord>(`INSERT INTO game_sessions (id, client_id, profile_id, player_id,
  game_id, token_hash, lang, return_url, expire_at, created_at, ended_at, end_code) VALUES (:id, :clientId,
  :profileId, :playerId, :gameId, :tokenHash, :lang, :returnUrl, :expireAt, :createdAt, :endedAt, :endCode)`);
const byId = statement<{ id: string }, GameSessionRecord>(
  `SELECT ${COLUMNS} FROM game_sessions WHERE id = :id`,
);
const byToken = statement<{ tokenHash: string; now: string }, GameSessionRecord>(
  `SELECT ${COLUMNS} FROM game_sessions WHERE token_hash = :tokenHash AND expire_at > :now`,
);

/** Live: not ended and not expired at :now (over game_sessions_by_player). */
const LIVE = 'player_id = :playerId AND ended_at IS NULL AND expire_at > :now';
interface LiveParams {
  playerId: string;
  now: string;
}
const endOne = statement<{ id: string; now: string; code: SessionEndCode }>(
  'UPDATE game_sessions SET ended_at = :now, end_code = :code WHERE id = :id AND ended_at IS NULL',
);
// RETURNING: both databases answer the ids the one statement ended (SQLite since 3.35).
const endLive = statement<LiveParams & { code: SessionEndCode }, { id: string }>(
  `UPDATE game_sessions SET ended_at = :now, end_code = :code WHERE ${LIVE} RETURNING id`,
);
const live = statement<LiveParams & { limit: number; offset: number }, LiveSessionRow>(
  `SELECT id, game_id AS "gameId", created_at AS "createdAt", expire_at AS "expireAt" FROM game_sessions
   WHERE ${LIVE} ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset`,
);
const liveCount = statement<LiveParams, { n: number | string }>(
  `SELECT count(*) AS n FROM game_sessions WHERE ${LIVE}`,
);

export function createSessionsRepo(x: Exec): SessionsRepo {
  return {
    insert: async (session) => void (await x.run(insert, session)),
    findById: async (id) => x.first(byId, { id }),
    findLiveByTokenHash: async (tokenHash, now) => x.first(byToken, { tokenHash, now }),
    end: async (id, code, now) => (await x.run(endOne, { id, code, now })) === 1,
    endLiveOfPlayer: async (playerId, code, now) =>
      (await x.all(endLive, { playerId, code, now })).map((row) => row.id),
    liveOfPlayer: async (playerId, now, page) => {
      const offset = (page.pageIndex - 1) * page.pageSize;
      return {
        items: await x.all(live, { playerId, now, limit: page.pageSize, offset }),
        totalCount: Number((await x.first(liveCount, { playerId, now }))?.n ?? 0),
      };
    },
  };
}
