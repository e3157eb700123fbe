import { createPool, poolCommitment, seedFromHex, seedToHex, type TicketPool, ticketAt } from '@raspa/core';
import { SETTING_DEFAULTS } from '../config.ts';
import type { Deps } from '../deps.ts';
import type { GameRecord } from '../store/records.ts';
import { ROW_LOCKS, type Transaction } from '../store/store.ts';
import {
  blockSize,
  type DrawOutcome,
  type HeldBlock,
  handOut,
  holdBlock,
  mayGiveBack,
  reopen,
  settle,
  spent,
} from './pool-blocks.ts';

export interface Draw {
  /** Null for a test session's forced card: it comes from no pool (forced-cards.ts). */
  poolId: string | null;
  drawIndex: number | null;
  level: number;
}

/** A ticket set aside for one buy: drawn in the round's unit, settled once that unit is over. */
export interface TicketReservation {
  /**
   * Inside the round's unit: the ticket, and the check that its block is still this process's
   * (`held` rejects with BlockLostError otherwise). The check is sent, not awaited, so the unit's
   * writes can go in the same round trip; the unit must await `held` before it ends.
   */
  draw(tx: Transaction): { draw: Draw; held: Promise<void> };
  /** After the unit: what became of the index (pool-blocks.ts). Only the first call counts. */
  settle(outcome: DrawOutcome): void;
}

/**
 * Thrown in a unit whose block another process took over (its lease had expired), or whose forced
 * card another buy took (forced-cards.ts): reserve again.
 */
export class BlockLostError extends Error {}

interface Block extends HeldBlock {
  poolId: string;
  seedSealed: string;
  game: GameRecord;
  /** Epoch ms until which the block is this process's. */
  expiresAt: number;
  lost: boolean;
  /** Epoch ms of its last index handed out (or of its take). */
  lastHandOutAt: number;
  /** Its close, while it runs. */
  closing?: Promise<void> | undefined;
}

/** How often a buy looks again when every index of the pool is in other processes' blocks. */
const WAIT_STEP_MS = 100;
/** A block of a pool's end unused this long is given back (pool-blocks.ts `mayGiveBack`). */
const GIVE_BACK_IDLE_MS = 2000;

/**
 * Draws tickets without replacement from a game version's current pool (docs/contract.md §5) by
 * blocks of draw indexes (docs/store.md, "Ticket draws by blocks"): a short unit takes a block
 * from the pool's row, then this process hands its indexes out, one per buy. The round records
 * its index (unique per pool), so the pool's row is written once per block, not once per draw.
 * A block whose every index is drawn is closed; the close that completes the pool publishes its
 * seed, and the next buy starts a new pool with a new seed.
 */
export function createPoolDrawer(
  deps: Pick<Deps, 'clock' | 'newId' | 'random' | 'secrets' | 'store' | 'settings' | 'logger'>,
  owner: string,
) {
  const preferred = deps.settings.play?.poolBlockSize ?? SETTING_DEFAULTS.POOL_BLOCK_SIZE;
  const leaseMs = deps.settings.play?.poolBlockLeaseMs ?? SETTING_DEFAULTS.POOL_BLOCK_LEASE * 1000;
  const blocksOf = new Map<string, Block[]>();
  const taking = new Map<string, Promise<boolean>>();
  // Deriving a pool's round tables takes milliseconds: keep them per pool.
  const pools = new Map<string, TicketPool>();

  function ticketPool(block: Block): TicketPool {
    let pool = pools.get(block.poolId);
    if (!pool) {
      const winners = block.game.ladder.levels.map((level) => level.winners);
      pool = createPool(seedFromHex(deps.secrets.open(block.seedSealed)), block.game.sampling, winners);
      pools.set(block.poolId, pool);
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
      allocated: 0,
      seedHex: null,
      startedAt: deps.clock().toISOString(),
      endedAt: null,
    };
    await tx.pools.insert(record);
    return record;
  }

  const drop = (gameId: string, block: Block) =>
    blocksOf.set(
      gameId,
      (blocksOf.get(gameId) ?? []).filter((held) => held !== block),
    );

  /** One short unit: a block of the current pool (started if there is none); false when none is free. */
  async function takeOne(game: GameRecord): Promise<boolean> {
    const now = deps.clock().getTime();
    const grant = await deps.store.transaction(async (tx) => {
      const pool = (await tx.pools.findCurrent(game.id)) ?? (await startPool(tx, game));
      const size = blockSize(pool.sampling - pool.allocated, preferred);
      const taken = await tx.pools.takeBlock(
        pool.id,
        owner,
        size,
        new Date(now).toISOString(),
        new Date(now + leaseMs).toISOString(),
      );
      return taken && { ...taken, seedSealed: pool.seedSealed };
    }, ROW_LOCKS);
    if (!grant) return false;
    const held = blocksOf.get(game.id) ?? [];
    const mine = held.find((block) => block.poolId === grant.poolId && block.first === grant.first);
    if (mine) {
      // Its lease had run out here and was renewed: what this process holds of it is the truth.
      mine.expiresAt = Date.parse(grant.expiresAt);
      mine.lost = false;
      closeIfSpent(mine);
      return true;
    }
    // A block of another pool of this game means the earlier pools ended: their tables can go.
    for (const block of held) if (block.poolId !== grant.poolId) pools.delete(block.poolId);
    const block: Block = {
      ...holdBlock(grant.first, grant.end, grant.drawn),
      poolId: grant.poolId,
      seedSealed: grant.seedSealed,
      game,
      expiresAt: Date.parse(grant.expiresAt),
      lost: false,
      lastHandOutAt: now,
    };
    blocksOf.set(game.id, [...held.filter((each) => each.poolId === grant.poolId), block]);
    // Taken over with every index drawn: its process died between the last draw and the close.
    // No buy will settle an index of it, so it is closed here, or the pool would never end.
    closeIfSpent(block);
    return true;
  }

  /** Concurrent buys of one game share one take. */
  function take(game: GameRecord): Promise<boolean> {
    let pending = taking.get(game.id);
    if (!pending) {
      pending = takeOne(game).finally(() => taking.delete(game.id));
      taking.set(game.id, pending);
    }
    return pending;
  }

  /** Asks the database whether every index of a spent block was drawn; closes it, or hands the rest out again. */
  async function close(block: Block): Promise<void> {
    try {
      const closed = await deps.store.transaction(async (tx) => {
        const answer = await tx.pools.closeBlock(block.poolId, block.first, owner);
        if (answer.poolDone) {
          await tx.pools.end(block.poolId, deps.secrets.open(block.seedSealed), deps.clock().toISOString());
        }
        return answer;
      }, ROW_LOCKS);
      if (reopen(block, closed.undrawn)) return;
      drop(block.game.id, block);
      if (closed.poolDone) pools.delete(block.poolId);
    } catch (error) {
      // Taken over (its lease expired) or the database failed: the block's lease runs out and
      // whoever takes it next closes it.
      drop(block.game.id, block);
      deps.logger.warn('a block of draw indexes was not closed', {
        poolId: block.poolId,
        first: block.first,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** Starts the close of a block with nothing left to hand out and nothing out, once. */
  function closeIfSpent(block: Block): void {
    if (block.lost || block.closing || !spent(block)) return;
    block.closing = close(block).finally(() => {
      block.closing = undefined;
    });
  }

  function reservation(block: Block, index: number): TicketReservation {
    let settled = false;
    return {
      draw(tx) {
        const now = deps.clock().getTime();
        // Checked in every round's unit, renewed once half of the lease is gone: a block taken
        // over (its lease expired here, or a fixture took it) is never drawn from again. Checking
        // only when renewing measured no fewer retries on PostgreSQL (docs/store.md).
        const renewTo = block.expiresAt - now < leaseMs / 2 ? new Date(now + leaseMs).toISOString() : null;
        const checked = block.lost
          ? Promise.resolve(false)
          : tx.pools.holdBlock(block.poolId, block.first, owner, renewTo);
        const held = checked.then((still) => {
          if (!still) {
            block.lost = true;
            drop(block.game.id, block);
            throw new BlockLostError(`block ${block.first} of pool ${block.poolId} was taken over`);
          }
          if (renewTo) {
            tx.afterCommit(() => {
              block.expiresAt = Math.max(block.expiresAt, Date.parse(renewTo));
            });
          }
        });
        // Awaited by the unit; handled here too, so a unit that fails first leaves nothing unhandled.
        void held.catch(() => {});
        return {
          draw: { poolId: block.poolId, drawIndex: index, level: ticketAt(ticketPool(block), index) },
          held,
        };
      },
      settle(outcome) {
        if (settled) return;
        settled = true;
        settle(block, index, outcome);
        closeIfSpent(block);
      },
    };
  }

  return {
    /**
     * Sets a ticket of the game's current pool aside for one buy, outside any unit. When every
     * index of the pool is in other processes' blocks (its last tickets), waits until one is
     * drawn up, closed, given back (`giveBack`: within a few seconds of its process going quiet)
     * or expired (a process that died), at most one and a half leases.
     */
    async reserve(game: GameRecord): Promise<TicketReservation> {
      for (let waitedMs = 0; ; ) {
        for (const block of blocksOf.get(game.id) ?? []) {
          const index = block.lost ? undefined : handOut(block);
          if (index !== undefined) {
            block.lastHandOutAt = deps.clock().getTime();
            return reservation(block, index);
          }
        }
        if (await take(game)) continue;
        // This process's own last blocks being closed: the pool may end with them.
        const closing = (blocksOf.get(game.id) ?? []).flatMap((block) => block.closing ?? []);
        if (closing.length > 0) {
          await Promise.all(closing);
          continue;
        }
        if (waitedMs >= leaseMs * 1.5) {
          throw new Error(`no ticket of game ${game.id} could be reserved: every index is held elsewhere`);
        }
        await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
        waitedMs += WAIT_STEP_MS;
      }
    },

    /**
     * Ends the lease of the blocks of a pool's end this process stopped drawing from
     * (`mayGiveBack`), or with `all` (a clean stop, nothing in flight) of every block with no
     * index out, so a buy on another process takes them over at once instead of waiting out the
     * lease. Each is dropped here first, so no buy hands out one of its indexes meanwhile.
     * Returns how many were given back.
     */
    async giveBack(all = false): Promise<number> {
      const now = deps.clock().getTime();
      const chosen: Block[] = [];
      for (const [gameId, blocks] of blocksOf) {
        for (const block of blocks) {
          if (block.lost || block.closing) continue;
          const quiet = all
            ? block.out.size === 0
            : mayGiveBack(block, {
                preferred,
                idleMs: GIVE_BACK_IDLE_MS,
                lastHandOutAt: block.lastHandOutAt,
                now,
              });
          if (!quiet) continue;
          block.lost = true;
          drop(gameId, block);
          chosen.push(block);
        }
      }
      const until = new Date(now).toISOString();
      await Promise.all(
        chosen.map((block) =>
          deps.store
            .transaction((tx) => tx.pools.holdBlock(block.poolId, block.first, owner, until), ROW_LOCKS)
            .catch((error: unknown) => {
              // Its lease runs out by itself: only the wait elsewhere is longer.
              deps.logger.warn('a block of draw indexes was not given back', {
                poolId: block.poolId,
                first: block.first,
                error: error instanceof Error ? error.message : String(error),
              });
            }),
        ),
      );
      if (chosen.length > 0) deps.logger.info('blocks of draw indexes given back', { count: chosen.length });
      return chosen.length;
    },
  };
}
