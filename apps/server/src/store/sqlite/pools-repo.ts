import type { PoolBlockRecord, PoolRecord } from '../records.ts';
import type { PoolsRepo } from '../repositories.ts';
import { type Db, immediate } from './database.ts';
import type { Sync } from './sync.ts';

// Draws: the closed blocks' tickets (stored) and the rounds drawn from the blocks still open (a
// few hundred indexes at most): the rounds that drew from the pool, counted without a scan of them all.
const OPEN_DRAWS = `(SELECT count(*) FROM pool_blocks b JOIN rounds r ON r.pool_id = b.pool_id
  AND r.draw_index >= b.first_index AND r.draw_index < b.end_index WHERE b.pool_id = pools.id)`;
const COLUMNS = `id, game_id AS gameId, number, sampling, seed_sealed AS seedSealed, commitment,
  draws + ${OPEN_DRAWS} AS draws,
  allocated, seed_hex AS seedHex, started_at AS startedAt, ended_at AS endedAt`;
const BLOCK_COLUMNS =
  'pool_id AS poolId, first_index AS first, end_index AS "end", owner, expires_at AS expiresAt';

export function createPoolsRepo(db: Db): Sync<PoolsRepo> {
  const insert = db.prepare(`INSERT INTO pools (id, game_id, number, sampling, seed_sealed, commitment, draws,
    allocated, seed_hex, started_at, ended_at) VALUES (@id, @gameId, @number, @sampling, @seedSealed, @commitment,
    @draws, @allocated, @seedHex, @startedAt, @endedAt)`);
  const current = db.prepare<[string], PoolRecord>(
    `SELECT ${COLUMNS} FROM pools WHERE game_id = ? AND ended_at IS NULL`,
  );
  const byId = db.prepare<[string], PoolRecord>(`SELECT ${COLUMNS} FROM pools WHERE id = ?`);
  const last = db.prepare<[string], { n: number | null }>(
    'SELECT max(number) AS n FROM pools WHERE game_id = ?',
  );
  const running = db.prepare<[string], { sampling: number; allocated: number }>(
    'SELECT sampling, allocated FROM pools WHERE id = ? AND ended_at IS NULL',
  );
  const expired = db.prepare<[string, string], PoolBlockRecord>(
    `SELECT ${BLOCK_COLUMNS} FROM pool_blocks WHERE pool_id = ? AND expires_at <= ? ORDER BY first_index LIMIT 1`,
  );
  const lease = db.prepare<[string, string, string, number]>(
    'UPDATE pool_blocks SET owner = ?, expires_at = ? WHERE pool_id = ? AND first_index = ?',
  );
  const allocate = db.prepare<[number, string]>('UPDATE pools SET allocated = ? WHERE id = ?');
  const insertBlock = db.prepare<[PoolBlockRecord]>(
    `INSERT INTO pool_blocks (pool_id, first_index, end_index, owner, expires_at)
     VALUES (@poolId, @first, @end, @owner, @expiresAt)`,
  );
  const drawnIn = db
    .prepare<[string, number, number], number>(
      'SELECT draw_index FROM rounds WHERE pool_id = ? AND draw_index >= ? AND draw_index < ? ORDER BY draw_index',
    )
    .pluck();
  const held = db.prepare<[string, number, string], { n: number }>(
    'SELECT 1 AS n FROM pool_blocks WHERE pool_id = ? AND first_index = ? AND owner = ?',
  );
  const renew = db.prepare<[string, string, number, string]>(
    'UPDATE pool_blocks SET expires_at = ? WHERE pool_id = ? AND first_index = ? AND owner = ?',
  );
  const block = db.prepare<[string, number, string], PoolBlockRecord>(
    `SELECT ${BLOCK_COLUMNS} FROM pool_blocks WHERE pool_id = ? AND first_index = ? AND owner = ?`,
  );
  const removeBlock = db.prepare<[string, number]>(
    'DELETE FROM pool_blocks WHERE pool_id = ? AND first_index = ?',
  );
  const counted = db.prepare<[number, string], { draws: number; sampling: number }>(
    'UPDATE pools SET draws = draws + ? WHERE id = ? RETURNING draws, sampling',
  );
  const blocks = db.prepare<[string], PoolBlockRecord>(
    `SELECT ${BLOCK_COLUMNS} FROM pool_blocks WHERE pool_id = ? ORDER BY first_index`,
  );
  const end = db.prepare('UPDATE pools SET seed_hex = ?, ended_at = ? WHERE id = ?');
  const list = db.prepare<[string], PoolRecord>(
    `SELECT ${COLUMNS} FROM pools WHERE game_id = ? ORDER BY number`,
  );

  const undrawnIn = (poolId: string, first: number, end: number): number[] => {
    const drawn = new Set(drawnIn.all(poolId, first, end));
    const undrawn: number[] = [];
    for (let index = first; index < end; index++) if (!drawn.has(index)) undrawn.push(index);
    return undrawn;
  };

  return {
    insert: (pool) => void insert.run(pool),
    findCurrent: (gameId) => current.get(gameId),
    findById: (id) => byId.get(id),
    lastNumber: (gameId) => last.get(gameId)?.n ?? 0,
    takeBlock: (poolId, owner, size, now, expiresAt) =>
      immediate(db, () => {
        const pool = running.get(poolId);
        if (!pool) return undefined;
        const old = expired.get(poolId, now);
        if (old) {
          lease.run(owner, expiresAt, poolId, old.first);
          return { ...old, owner, expiresAt, drawn: drawnIn.all(poolId, old.first, old.end) };
        }
        if (pool.allocated >= pool.sampling) return undefined;
        const fresh = {
          poolId,
          first: pool.allocated,
          end: Math.min(pool.allocated + Math.max(1, size), pool.sampling),
          owner,
          expiresAt,
        };
        allocate.run(fresh.end, poolId);
        insertBlock.run(fresh);
        return { ...fresh, drawn: [] };
      }),
    holdBlock: (poolId, first, owner, renewTo) =>
      renewTo === null
        ? held.get(poolId, first, owner) !== undefined
        : renew.run(renewTo, poolId, first, owner).changes === 1,
    closeBlock: (poolId, first, owner) =>
      immediate(db, () => {
        const open = block.get(poolId, first, owner);
        if (!open) throw new Error(`block ${first} of pool ${poolId} is not held by ${owner}`);
        const undrawn = undrawnIn(poolId, open.first, open.end);
        if (undrawn.length > 0) return { undrawn, poolDone: false };
        removeBlock.run(poolId, first);
        const pool = counted.get(open.end - open.first, poolId);
        return { undrawn, poolDone: pool !== undefined && pool.draws === pool.sampling };
      }),
    listBlocks: (poolId) => blocks.all(poolId),
    end: (poolId, seedHex, endedAt) => void end.run(seedHex, endedAt, poolId),
    listByGame: (gameId) => list.all(gameId),
  };
}
