import type { Exec } from '../dialect/exec.ts';
import { lockingRead } from '../dialect/locking.ts';
import { statement } from '../dialect/statement.ts';
import type { PoolBlockRecord, PoolRecord } from '../records.ts';
import type { PoolsRepo } from '../repositories.ts';

// Draws: the closed blocks' tickets (stored) and the rounds drawn from the blocks still open (a
// few hundred indexes at most): the rounds that drew from the pool, counted without a scan of them all.
const OPEN_DRAWS = `(SELECT count(*) FROM pool_blocks b JOIN rounds r ON r.pool_id = b.pool_id
  AND r.draw_index >= b.first_index AND r.draw_index < b.end_index WHERE b.pool_id = pools.id)`;
const COLUMNS = `id, game_id AS "gameId", number, sampling, seed_sealed AS "seedSealed", commitment,
  draws + ${OPEN_DRAWS} AS draws,
  allocated, seed_hex AS "seedHex", started_at AS "startedAt", ended_at AS "endedAt"`;
const BLOCK_COLUMNS =
  'pool_id AS "poolId", first_index AS first, end_index AS "end", owner, expires_at AS "expiresAt"';

type BlockKey = { poolId: string; first: number };

const insert =
  statement<PoolRecord>(`INSERT INTO pools (id, game_id, number, sampling, seed_sealed, commitment,
  draws, allocated, seed_hex, started_at, ended_at) VALUES (:id, :gameId, :number, :sampling, :seedSealed,
  :commitment, :draws, :allocated, :seedHex, :startedAt, :endedAt)`);
const current = statement<{ gameId: string }, PoolRecord>(
  `SELECT ${COLUMNS} FROM pools WHERE game_id = :gameId AND ended_at IS NULL`,
);
const byId = statement<{ id: string }, PoolRecord>(`SELECT ${COLUMNS} FROM pools WHERE id = :id`);
const lastNumber = statement<{ gameId: string }, { n: number | null }>(
  'SELECT max(number) AS n FROM pools WHERE game_id = :gameId',
);
const running = lockingRead<{ poolId: string }, { sampling: number; allocated: number }>(
  'SELECT sampling, allocated FROM pools WHERE id = :poolId AND ended_at IS NULL',
  'FOR UPDATE',
);
/**
 * The first lapsed block, leased to `owner`. The lapse is checked again on the row itself: on
 * PostgreSQL a draw that renewed the lease while this waited on its lock keeps the block (READ
 * COMMITTED re-reads only the outer WHERE).
 */
const takeOver = statement<
  { poolId: string; owner: string; now: string; expiresAt: string },
  PoolBlockRecord
>(`UPDATE pool_blocks SET owner = :owner, expires_at = :expiresAt
   WHERE (pool_id, first_index) = (SELECT pool_id, first_index FROM pool_blocks
     WHERE pool_id = :poolId AND expires_at <= :now ORDER BY first_index LIMIT 1) AND expires_at <= :now
   RETURNING ${BLOCK_COLUMNS}`);
const allocate = statement<{ poolId: string; allocated: number }>(
  'UPDATE pools SET allocated = :allocated WHERE id = :poolId',
);
const insertBlock = statement<PoolBlockRecord>(
  `INSERT INTO pool_blocks (pool_id, first_index, end_index, owner, expires_at)
   VALUES (:poolId, :first, :end, :owner, :expiresAt)`,
);
const drawnIn = statement<{ poolId: string; first: number; end: number }, { drawIndex: number }>(
  `SELECT draw_index AS "drawIndex" FROM rounds WHERE pool_id = :poolId AND draw_index >= :first
   AND draw_index < :end ORDER BY draw_index`,
);
/** Shared on PostgreSQL: the round's draws from one block do not wait on each other, a take-over waits on them. */
const held = lockingRead<BlockKey & { owner: string }, { held: number }>(
  'SELECT 1 AS held FROM pool_blocks WHERE pool_id = :poolId AND first_index = :first AND owner = :owner',
  'FOR SHARE',
);
const renew = statement<BlockKey & { owner: string; renewTo: string }>(
  'UPDATE pool_blocks SET expires_at = :renewTo WHERE pool_id = :poolId AND first_index = :first AND owner = :owner',
);
/** PostgreSQL only (a lock, nothing read): the pool's row, as a take locks it first. */
const lockPool = statement<{ poolId: string }>('SELECT 1 FROM pools WHERE id = :poolId FOR UPDATE');
const ownBlock = lockingRead<BlockKey & { owner: string }, PoolBlockRecord>(
  `SELECT ${BLOCK_COLUMNS} FROM pool_blocks WHERE pool_id = :poolId AND first_index = :first AND owner = :owner`,
  'FOR UPDATE',
);
const removeBlock = statement<BlockKey>(
  'DELETE FROM pool_blocks WHERE pool_id = :poolId AND first_index = :first',
);
const counted = statement<{ poolId: string; draws: number }, { draws: number; sampling: number }>(
  'UPDATE pools SET draws = draws + :draws WHERE id = :poolId RETURNING draws, sampling',
);
const blocks = statement<{ poolId: string }, PoolBlockRecord>(
  `SELECT ${BLOCK_COLUMNS} FROM pool_blocks WHERE pool_id = :poolId ORDER BY first_index`,
);
const end = statement<{ poolId: string; seedHex: string; endedAt: string }>(
  'UPDATE pools SET seed_hex = :seedHex, ended_at = :endedAt WHERE id = :poolId',
);
const byGame = statement<{ gameId: string }, PoolRecord>(
  `SELECT ${COLUMNS} FROM pools WHERE game_id = :gameId ORDER BY number`,
);

/** The pools and their blocks of tickets (issue 24: written once for both databases). */
export function createPoolsRepo(x: Exec): PoolsRepo {
  const drawn = async (poolId: string, first: number, end: number) =>
    (await x.all(drawnIn, { poolId, first, end })).map((row) => row.drawIndex);
  return {
    insert: async (pool) => void (await x.run(insert, pool)),
    findCurrent: async (gameId) => x.first(current, { gameId }),
    findById: async (id) => x.first(byId, { id }),
    lastNumber: async (gameId) => (await x.first(lastNumber, { gameId }))?.n ?? 0,
    // One short unit on the pool's row per block, not per draw: the draws themselves write only
    // their rounds (unique on pool and index).
    takeBlock: (poolId, owner, size, now, expiresAt) =>
      x.atomic(async () => {
        const pool = await x.first(running(x), { poolId });
        if (!pool) return undefined;
        const old = await x.first(takeOver, { poolId, owner, now, expiresAt });
        if (old) return { ...old, drawn: await drawn(poolId, old.first, old.end) };
        if (pool.allocated >= pool.sampling) return undefined;
        const fresh = {
          poolId,
          first: pool.allocated,
          end: Math.min(pool.allocated + Math.max(1, size), pool.sampling),
          owner,
          expiresAt,
        };
        await x.run(allocate, { poolId, allocated: fresh.end });
        await x.run(insertBlock, fresh);
        return { ...fresh, drawn: [] };
      }),
    holdBlock: async (poolId, first, owner, renewTo) =>
      renewTo === null
        ? (await x.first(held(x), { poolId, first, owner })) !== undefined
        : (await x.run(renew, { poolId, first, owner, renewTo })) === 1,
    closeBlock: (poolId, first, owner) =>
      x.atomic(async () => {
        // The pool's row, then the block's, as a take (takeBlock) locks them: no deadlock between them.
        if (x.inUnit) await x.run(lockPool, { poolId });
        const open = await x.first(ownBlock(x), { poolId, first, owner });
        if (!open) throw new Error(`block ${first} of pool ${poolId} is not held by ${owner}`);
        const taken = new Set(await drawn(poolId, open.first, open.end));
        const undrawn: number[] = [];
        for (let index = open.first; index < open.end; index++) if (!taken.has(index)) undrawn.push(index);
        if (undrawn.length > 0) return { undrawn, poolDone: false };
        await x.run(removeBlock, { poolId, first });
        const pool = await x.first(counted, { poolId, draws: open.end - open.first });
        return { undrawn, poolDone: pool !== undefined && pool.draws === pool.sampling };
      }),
    listBlocks: async (poolId) => x.all(blocks, { poolId }),
    end: async (poolId, seedHex, endedAt) => void (await x.run(end, { poolId, seedHex, endedAt })),
    listByGame: async (gameId) => x.all(byGame, { gameId }),
  };
}
