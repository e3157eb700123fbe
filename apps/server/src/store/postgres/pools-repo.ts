import type { PoolRecord } from '../records.ts';
import type { PoolsRepo } from '../repositories.ts';
import { all, first, type Sql } from './sql.ts';

const COLUMNS = `id, game_id AS "gameId", number, sampling, seed_sealed AS "seedSealed", commitment, draws,
  seed_hex AS "seedHex", started_at AS "startedAt", ended_at AS "endedAt"`;

export function createPoolsRepo(sql: Sql): PoolsRepo {
  return {
    insert: async (p) =>
      void (await sql.query(
        `INSERT INTO pools (id, game_id, number, sampling, seed_sealed, commitment, draws, seed_hex, started_at,
          ended_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          p.id,
          p.gameId,
          p.number,
          p.sampling,
          p.seedSealed,
          p.commitment,
          p.draws,
          p.seedHex,
          p.startedAt,
          p.endedAt,
        ],
      )),
    findCurrent: (gameId) =>
      first<PoolRecord>(sql, `SELECT ${COLUMNS} FROM pools WHERE game_id = $1 AND ended_at IS NULL`, [
        gameId,
      ]),
    findById: (id) => first<PoolRecord>(sql, `SELECT ${COLUMNS} FROM pools WHERE id = $1`, [id]),
    lastNumber: async (gameId) =>
      (
        await first<{ n: number | null }>(sql, 'SELECT max(number) AS n FROM pools WHERE game_id = $1', [
          gameId,
        ])
      )?.n ?? 0,
    // The pool's row stays locked until the unit commits: one pool draws one ticket per commit
    // (issue 13 plans blocks of draw indexes per instance; not built yet).
    takeDraw: async (poolId) => {
      const row = await first<{ draws: number }>(
        sql,
        'UPDATE pools SET draws = draws + 1 WHERE id = $1 AND ended_at IS NULL AND draws < sampling RETURNING draws',
        [poolId],
      );
      if (!row) throw new Error(`pool ${poolId} has no draw left`);
      return row.draws - 1;
    },
    end: async (poolId, seedHex, endedAt) =>
      void (await sql.query('UPDATE pools SET seed_hex = $1, ended_at = $2 WHERE id = $3', [
        seedHex,
        endedAt,
        poolId,
      ])),
    listByGame: (gameId) =>
      all<PoolRecord>(sql, `SELECT ${COLUMNS} FROM pools WHERE game_id = $1 ORDER BY number`, [gameId]),
  };
}
