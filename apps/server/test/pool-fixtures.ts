import { createPool, layoutCard, seededRng, seedFromHex, ticketAt } from '@raspa/core';
import type { Deps } from '../src/deps.ts';
import type { GameRecord, PoolRecord } from '../src/store/records.ts';

/** Takes every block over, expired or not; leaves what it does not finish expired for the services. */
const FAR_FUTURE = '9999-12-31T23:59:59.999Z';
const EXPIRED = '1970-01-01T00:00:00.000Z';

/**
 * Draws a game's current pool until `left` of its tickets are undrawn, as the closed rounds play
 * would have written (the seed's ticket at each index, a card of its level, the ladder's prize),
 * through the Store. It plays the part of another process that took over every block of the
 * pool (docs/store.md, "Ticket draws by blocks"): the services' blocks are drawn up too, and a
 * service finds its block taken and takes another. With `left` 0 the pool ends, seed published.
 * Rounds go in by thousands (`rounds.insertRounds`): a pool has over 100,000 tickets.
 */
export async function drawPoolTo(
  deps: Pick<Deps, 'store' | 'secrets' | 'clock' | 'newId'>,
  game: GameRecord,
  player: { sessionId: string; playerId: string },
  left: number,
  /** Leave the block that reaches `left` open, every index drawn: a process killed before its close. */
  options: { dieBeforeClose?: boolean } = {},
): Promise<PoolRecord> {
  const { store } = deps;
  const rng = seededRng(7);
  const cards = new Map<number, string>();
  const cardOf = (level: number) => {
    let card = cards.get(level);
    if (!card) {
      card = JSON.stringify(layoutCard(game.gameModel, game.ladder, level, rng));
      cards.set(level, card);
    }
    return card;
  };
  const now = deps.clock().toISOString();
  for (;;) {
    const pool = await store.pools.findCurrent(game.id);
    if (!pool) throw new Error(`game ${game.id} has no running pool`);
    const toDraw = pool.sampling - left - pool.draws;
    if (toDraw <= 0) return pool;
    const block = await store.pools.takeBlock(pool.id, 'fixture', toDraw, FAR_FUTURE, EXPIRED);
    if (!block) throw new Error(`pool ${pool.id} has no block left to draw`);
    const drawn = new Set(block.drawn);
    const indexes: number[] = [];
    for (let index = block.first; index < block.end && indexes.length < toDraw; index++) {
      if (!drawn.has(index)) indexes.push(index);
    }
    const tickets = createPool(
      seedFromHex(deps.secrets.open(pool.seedSealed)),
      pool.sampling,
      game.ladder.levels.map((level) => level.winners),
    );
    await store.rounds.insertRounds(
      indexes.map((drawIndex) => {
        const level = ticketAt(tickets, drawIndex);
        return {
          id: deps.newId(),
          clientId: game.clientId,
          profileId: game.profileId,
          gameId: game.id,
          playerId: player.playerId,
          sessionId: player.sessionId,
          status: 'closed' as const,
          currency: game.currency,
          paidMinor: game.betMinor,
          prizeMinor: level === 0 ? 0 : (game.ladder.levels[level - 1]?.prize ?? 0),
          createdAt: now,
          endAt: now,
          poolId: pool.id,
          drawIndex,
          level,
          cardJson: cardOf(level),
          lastActionAt: now,
          reconciliation: false,
          prizeTransactionId: null,
          promotionId: null,
          test: false,
        };
      }),
    );
    if (drawn.size + indexes.length < block.end - block.first) continue; // left expired, for the services
    if (options.dieBeforeClose && indexes.length === toDraw) return pool;
    const poolDone = await store.transaction(async (tx) => {
      const closed = await tx.pools.closeBlock(pool.id, block.first, 'fixture');
      if (closed.undrawn.length > 0) throw new Error(`block ${block.first} still has undrawn indexes`);
      if (closed.poolDone) await tx.pools.end(pool.id, deps.secrets.open(pool.seedSealed), now);
      return closed.poolDone;
    });
    if (poolDone) return (await store.pools.findById(pool.id)) as PoolRecord;
  }
}
