import { likeContains } from '../like-pattern.ts';
import type { PlayerRecord } from '../records.ts';
import type { PlayersRepo } from '../repositories.ts';
import { all, first, type Sql } from './sql.ts';

const COLUMNS = `p.id, p.client_id AS "clientId", p.profile_id AS "profileId", p.credential,
  p.credential_type AS "credentialType", p.balance_minor AS "balanceMinor", p.bet_wins AS "betWins",
  p.total_bets AS "totalBets", p.created_at AS "createdAt"`;

/**
 * Case is ignored beyond ASCII (João, ÑANDÚ) whatever the database's locale: lower() under the
 * ICU root collation, the search text lowered by JS as the SQLite adapter does.
 */
const MATCHING = `p.profile_id = $1 AND ($2::text IS NULL OR lower(p.credential COLLATE "und-x-icu") LIKE $2 ESCAPE '\\')`;

export function createPlayersRepo(sql: Sql): PlayersRepo {
  return {
    insert: async (p) =>
      void (await sql.query(
        `INSERT INTO players (id, client_id, profile_id, credential, credential_type, balance_minor, bet_wins,
          total_bets, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          p.id,
          p.clientId,
          p.profileId,
          p.credential,
          p.credentialType,
          p.balanceMinor,
          p.betWins,
          p.totalBets,
          p.createdAt,
        ],
      )),
    findById: (id) => first<PlayerRecord>(sql, `SELECT ${COLUMNS} FROM players p WHERE p.id = $1`, [id]),
    findByCredential: (profileId, credentialType, credential) =>
      first<PlayerRecord>(
        sql,
        `SELECT ${COLUMNS} FROM players p WHERE p.profile_id = $1 AND p.credential_type = $2 AND p.credential = $3`,
        [profileId, credentialType, credential],
      ),
    listByProfile: async (profileId, page, search) => {
      const filter = [profileId, search ? likeContains(search.toLowerCase()) : null];
      return {
        items: await all<PlayerRecord>(
          sql,
          `SELECT ${COLUMNS} FROM players p WHERE ${MATCHING} ORDER BY p.created_at, p.id LIMIT $3 OFFSET $4`,
          [...filter, page.pageSize, (page.pageIndex - 1) * page.pageSize],
        ),
        totalCount:
          (await first<{ n: number }>(sql, `SELECT count(*) AS n FROM players p WHERE ${MATCHING}`, filter))
            ?.n ?? 0,
      };
    },
    insertUserToken: async (t) =>
      void (await sql.query(
        'INSERT INTO user_tokens (token_hash, player_id, expire_at, created_at) VALUES ($1, $2, $3, $4)',
        [t.tokenHash, t.playerId, t.expireAt, t.createdAt],
      )),
    findByLiveUserToken: (tokenHash, now) =>
      first<PlayerRecord>(
        sql,
        `SELECT ${COLUMNS} FROM user_tokens t JOIN players p ON p.id = t.player_id
         WHERE t.token_hash = $1 AND t.expire_at > $2`,
        [tokenHash, now],
      ),
    balanceIn: async (playerId, currency) =>
      (
        await first<{ balanceMinor: number }>(
          sql,
          'SELECT balance_minor AS "balanceMinor" FROM player_balances WHERE player_id = $1 AND currency = $2',
          [playerId, currency],
        )
      )?.balanceMinor,
    balancesOf: async (playerIds) => {
      const byPlayer = new Map<string, Record<string, number>>(playerIds.map((id) => [id, {}]));
      if (playerIds.length === 0) return byPlayer;
      const rows = await all<{ playerId: string; currency: string; balanceMinor: number }>(
        sql,
        `SELECT player_id AS "playerId", currency, balance_minor AS "balanceMinor" FROM player_balances
         WHERE player_id = ANY($1::text[]) ORDER BY player_id, currency`,
        [playerIds],
      );
      for (const row of rows) {
        const balances = byPlayer.get(row.playerId);
        if (balances) balances[row.currency] = row.balanceMinor;
      }
      return byPlayer;
    },
  };
}
