import type { PoolRecord } from '../records.ts';
import type { PoolsRepo } from '../repositories.ts';
import type { Db } from './database.ts';
import type { Sync } from './sync.ts';

const COLUMNS = `id, game_id AS gameId, number, sampling, seed_sealed AS seedSealed, commitment, draws,
  seed_hex AS seedHex, started_at AS startedAt, ended_at AS endedAt`;

export function createPoolsRepo(db: Db): Sync<PoolsRepo> {
  const insert = db.prepare(`INSERT INTO pools (id, game_id, number, sampling, seed_sealed, commitment, draws,
    seed_hex, started_at, ended_at) VALUES (@id, @gameId, @number, @sampling, @seedSealed, @commitment, @draws,
    @seedHex, @startedAt, @endedAt)`);
  const current = db.prepare<[string], PoolRecord>(
    `SELECT ${COLUMNS} FROM pools WHERE game_id = ? AND ended_at IS NULL`,
  );
  const byId = db.prepare<[string], PoolRecord>(`SELECT ${COLUMNS} FROM pools WHERE id = ?`);
  const last = db.prepare<[string], { n: number | null }>(
    'SELECT max(number) AS n FROM pools WHERE game_id = ?',
  );
  const take = db.prepare<[string], { draws: number }>(
    'UPDATE pools SET draws = draws + 1 WHERE id = ? AND ended_at IS NULL AND draws < sampling RETURNING draws',
  );
  const end = db.prepare('UPDATE pools SET seed_hex = ?, ended_at = ? WHERE id = ?');
  const list = db.prepare<[string], PoolRecord>(
    `SELECT ${COLUMNS} FROM pools WHERE game_id = ? ORDER BY number`,
  );
  return {
    insert: (pool) => void insert.run(pool),
    findCurrent: (gameId) => current.get(gameId),
    findById: (id) => byId.get(id),
    lastNumber: (gameId) => last.get(gameId)?.n ?? 0,
    takeDraw: (poolId) => {
      const row = take.get(poolId);
      if (!row) throw new Error(`pool ${poolId} has no draw left`);
      return row.draws - 1;
    },
    end: (poolId, seedHex, endedAt) => void end.run(seedHex, endedAt, poolId),
    listByGame: (gameId) => list.all(gameId),
  };
}
