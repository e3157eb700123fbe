import { createPool, poolCommitment, seedFromHex, seedToHex, type TicketPool, ticketAt } from '@raspa/core';
import type { Deps } from '../deps.ts';
import type { GameRecord } from '../store/records.ts';
import type { Transaction } from '../store/store.ts';

export interface Draw {
  poolId: string;
  drawIndex: number;
  level: number;
}

/**
 * Draws tickets without replacement from a game version's current pool (docs/contract.md §5). Runs on
 * the round's own transaction: the draw counter and the round commit together. When a
 * pool is used up its seed is published and the next draw starts a new pool with a new seed.
 */
export function createPoolDrawer(deps: Pick<Deps, 'clock' | 'newId' | 'random' | 'secrets'>) {
  // Deriving a pool's round tables takes milliseconds: keep them per pool.
  const pools = new Map<string, TicketPool>();

  function ticketPool(poolId: string, seedSealed: string, game: GameRecord): TicketPool {
    let pool = pools.get(poolId);
    if (!pool) {
      const winners = game.ladder.levels.map((level) => level.winners);
      pool = createPool(seedFromHex(deps.secrets.open(seedSealed)), game.sampling, winners);
      pools.set(poolId, pool);
    }
    return pool;
  }

  async function startPool(tx: Transaction, game: GameRecord) {
    const seed = new Uint8Array(deps.random(32));
    const record = {
      id: deps.newId(),
      gameId: game.id,
      number: (await tx.pools.lastNumber(game.id)) + 1,
      sampling: game.sampling,
      seedSealed: deps.secrets.seal(seedToHex(seed)),
      commitment: poolCommitment(seed),
      draws: 0,
      seedHex: null,
      startedAt: deps.clock().toISOString(),
      endedAt: null,
    };
    await tx.pools.insert(record);
    return record;
  }

  return {
    async draw(tx: Transaction, game: GameRecord): Promise<Draw> {
      const current = (await tx.pools.findCurrent(game.id)) ?? (await startPool(tx, game));
      const drawIndex = await tx.pools.takeDraw(current.id);
      const level = ticketAt(ticketPool(current.id, current.seedSealed, game), drawIndex);
      if (drawIndex + 1 === current.sampling) {
        await tx.pools.end(current.id, deps.secrets.open(current.seedSealed), deps.clock().toISOString());
        pools.delete(current.id);
      }
      return { poolId: current.id, drawIndex, level };
    },
  };
}
