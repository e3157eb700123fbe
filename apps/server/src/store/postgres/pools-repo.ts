import type { PoolBlockRecord, PoolRecord } from '../records.ts';
import type { PoolsRepo } from '../repositories.ts';
import { all, changes, first, type Sql } from './sql.ts';

// Draws: the closed blocks' tickets (stored) and the rounds drawn from the blocks still open (a
// few hundred indexes at most): the rounds that drew from the pool, counted without a scan of them all.
const OPEN_DRAWS = `(SELECT count(*) FROM pool_blocks b JOIN rounds r ON r.pool_id = b.pool_id
  AND r.draw_index >= b.first_index AND r.draw_index < b.end_index WHERE b.pool_id = pools.id)`;
const COLUMNS = `id, game_id AS "gameId", number, sampling, seed_sealed AS "seedSealed", commitment,
  draws + ${OPEN_DRAWS} AS draws,
  allocated, seed_hex AS "seedHex", started_at AS "startedAt", ended_at AS "endedAt"`;
const BLOCK_COLUMNS =
  'pool_id AS "poolId", first_index AS first, end_index AS "end", owner, expires_at AS "expiresAt"';

/** The indexes of [first, end) no round of the pool drew. */
async function undrawnIn(sql: Sql, poolId: string, start: number, end: number): Promise<number[]> {
  const rows = await all<{ i: number }>(
    sql,
    `SELECT i FROM generate_series($2::bigint, $3::bigint - 1) AS i
     WHERE NOT EXISTS (SELECT 1 FROM rounds WHERE pool_id = $1 AND draw_index = i) ORDER BY i`,
    [poolId, start, end],
  );
  return rows.map((row) => row.i);
}

export function createPoolsRepo(sql: Sql): PoolsRepo {
  return {
    insert: async (p) =>
      void (await sql.query(
        `INSERT INTO pools (id, game_id, number, sampling, seed_sealed, commitment, draws, allocated, seed_hex,
          started_at, ended_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          p.id,
          p.gameId,
          p.number,
          p.sampling,
          p.seedSealed,
          p.commitment,
          p.draws,
          p.allocated,
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
    // One short unit on the pool's row per block, not per draw: the draws themselves write only
    // their rounds (unique on pool and index).
    takeBlock: (poolId, owner, size, now, expiresAt) =>
      sql.atomic(async (unit) => {
        const pool = await first<{ sampling: number; allocated: number }>(
          unit,
          'SELECT sampling, allocated FROM pools WHERE id = $1 AND ended_at IS NULL FOR UPDATE',
          [poolId],
        );
        if (!pool) return undefined;
        const old = await first<PoolBlockRecord>(
          unit,
          // The lapse is checked again on the row itself: a draw that renewed the lease while this
          // waited on its lock keeps the block (READ COMMITTED re-reads only the outer WHERE).
          `UPDATE pool_blocks SET owner = $2, expires_at = $4
           WHERE (pool_id, first_index) = (SELECT pool_id, first_index FROM pool_blocks
             WHERE pool_id = $1 AND expires_at <= $3 ORDER BY first_index LIMIT 1) AND expires_at <= $3
           RETURNING ${BLOCK_COLUMNS}`,
          [poolId, owner, now, expiresAt],
        );
        if (old) {
          const undrawn = new Set(await undrawnIn(unit, poolId, old.first, old.end));
          const drawn: number[] = [];
          for (let index = old.first; index < old.end; index++) if (!undrawn.has(index)) drawn.push(index);
          return { ...old, drawn };
        }
        if (pool.allocated >= pool.sampling) return undefined;
        const fresh = {
          poolId,
          first: pool.allocated,
          end: Math.min(pool.allocated + Math.max(1, size), pool.sampling),
          owner,
          expiresAt,
        };
        await unit.query('UPDATE pools SET allocated = $1 WHERE id = $2', [fresh.end, poolId]);
        await unit.query(
          'INSERT INTO pool_blocks (pool_id, first_index, end_index, owner, expires_at) VALUES ($1, $2, $3, $4, $5)',
          [poolId, fresh.first, fresh.end, owner, expiresAt],
        );
        return { ...fresh, drawn: [] };
      }),
    holdBlock: async (poolId, start, owner, renewTo) =>
      renewTo === null
        ? // Shared: the round's draws from one block do not wait on each other, a take-over waits on them.
          (await first(
            sql,
            `SELECT 1 AS held FROM pool_blocks WHERE pool_id = $1 AND first_index = $2 AND owner = $3${
              sql.inUnit ? ' FOR SHARE' : ''
            }`,
            [poolId, start, owner],
          )) !== undefined
        : (await changes(
            sql,
            'UPDATE pool_blocks SET expires_at = $4 WHERE pool_id = $1 AND first_index = $2 AND owner = $3',
            [poolId, start, owner, renewTo],
          )) === 1,
    closeBlock: (poolId, start, owner) =>
      sql.atomic(async (unit) => {
        // The pool's row, then the block's, as a take (takeBlock) locks them: no deadlock between them.
        await unit.query('SELECT 1 FROM pools WHERE id = $1 FOR UPDATE', [poolId]);
        const open = await first<PoolBlockRecord>(
          unit,
          `SELECT ${BLOCK_COLUMNS} FROM pool_blocks WHERE pool_id = $1 AND first_index = $2 AND owner = $3
           FOR UPDATE`,
          [poolId, start, owner],
        );
        if (!open) throw new Error(`block ${start} of pool ${poolId} is not held by ${owner}`);
        const undrawn = await undrawnIn(unit, poolId, open.first, open.end);
        if (undrawn.length > 0) return { undrawn, poolDone: false };
        await unit.query('DELETE FROM pool_blocks WHERE pool_id = $1 AND first_index = $2', [poolId, start]);
        const pool = await first<{ draws: number; sampling: number }>(
          unit,
          'UPDATE pools SET draws = draws + $2 WHERE id = $1 RETURNING draws, sampling',
          [poolId, open.end - open.first],
        );
        return { undrawn, poolDone: pool !== undefined && pool.draws === pool.sampling };
      }),
    listBlocks: (poolId) =>
      all<PoolBlockRecord>(
        sql,
        `SELECT ${BLOCK_COLUMNS} FROM pool_blocks WHERE pool_id = $1 ORDER BY first_index`,
        [poolId],
      ),
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
