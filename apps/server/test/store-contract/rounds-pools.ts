import { describe, expect, it } from 'vitest';
import type { RoundRecord, RoundStatus, TransactionStatus } from '../../src/store/records.ts';
import { eachPoolDraw } from '../../src/store/store.ts';
import {
  at,
  MAX_MINOR,
  type OpenStore,
  poolRecord,
  roundRecord,
  seedGame,
  seedPlayerAt,
  seedPool,
  seedRound,
  seedSeat,
  seedTransaction,
  transactionRecord,
  useStore,
} from './fixtures.ts';

/** RoundsRepo (but updatePlayer: with the players) and PoolsRepo. */
export function describeRoundsPoolsContract(open: OpenStore): void {
  describe('rounds', () => {
    const store = useStore(open);

    it('gives an inserted round back by id, every field as written', async () => {
      const seat = await seedSeat(store());
      const pool = await seedPool(store(), seat.game);
      const round = roundRecord(seat, {
        status: 'closed',
        paidMinor: MAX_MINOR,
        prizeMinor: MAX_MINOR,
        endAt: at(5),
        poolId: pool.id,
        drawIndex: 0,
        level: 8,
        cardJson: JSON.stringify({ symbols: ['a', 'b'], prize: 3 }),
        lastActionAt: at(5),
        reconciliation: true,
      });
      await store().rounds.insertRound(round);
      expect(await store().rounds.findRound(round.id)).toEqual(round);
      expect(await store().rounds.findRound('nope')).toBeUndefined();
    });

    it('counts pending, open and closing rounds as live, and no other status', async () => {
      const seat = await seedSeat(store());
      const statuses: RoundStatus[] = ['pending', 'open', 'closing', 'closed', 'declined', 'voided'];
      const live: Record<string, boolean> = {};
      for (const status of statuses) {
        const player = await seedPlayerAt(store(), seat);
        const round = await seedRound(store(), player, { status });
        const found = await store().rounds.findLiveRound(player.player.id);
        if (found) expect(found).toEqual(round);
        live[status] = found !== undefined;
      }
      expect(live).toEqual({
        pending: true,
        open: true,
        closing: true,
        closed: false,
        declined: false,
        voided: false,
      });
    });

    it('finds the player’s own live round beside its finished ones, not another player’s', async () => {
      const seat = await seedSeat(store());
      const other = await seedPlayerAt(store(), seat);
      await seedRound(store(), seat, { status: 'closed', createdAt: at(1) });
      await seedRound(store(), seat, { status: 'voided', createdAt: at(2) });
      const live = await seedRound(store(), seat, { status: 'open', createdAt: at(3) });
      expect(await store().rounds.findLiveRound(seat.player.id)).toEqual(live);
      expect(await store().rounds.findLiveRound(other.player.id)).toBeUndefined();
    });

    it('refuses a second live round of one player', async () => {
      const seat = await seedSeat(store());
      const live = await seedRound(store(), seat, { status: 'pending' });
      await expect(store().rounds.insertRound(roundRecord(seat, { status: 'open' }))).rejects.toThrow();
      expect(await store().rounds.findLiveRound(seat.player.id)).toEqual(live);
      await store().rounds.updateRound(live.id, { status: 'closed' });
      await seedRound(store(), seat, { status: 'pending' });
    });

    it('inserts a live round only for an active game and a player with no live round', async () => {
      const seat = await seedSeat(store());
      const first = roundRecord(seat, { status: 'pending' });
      expect(await store().rounds.insertLiveRound(first)).toBe(true);
      expect(await store().rounds.findRound(first.id)).toEqual(first);
      const second = roundRecord(seat, { status: 'pending' });
      expect(await store().rounds.insertLiveRound(second)).toBe(false);
      expect(await store().rounds.findRound(second.id)).toBeUndefined();
      await store().rounds.updateRound(first.id, { status: 'closed' });
      await store().games.setActive(seat.game.id, false);
      const inactive = roundRecord(seat, { status: 'pending' });
      expect(await store().rounds.insertLiveRound(inactive)).toBe(false);
      expect(await store().rounds.findRound(inactive.id)).toBeUndefined();
      await store().games.setActive(seat.game.id, true);
      expect(await store().rounds.insertLiveRound(inactive)).toBe(true);
    });

    it('inserts a live round’s bet with it, or neither', async () => {
      const seat = await seedSeat(store());
      const first = roundRecord(seat, { status: 'pending' });
      const firstBet = transactionRecord(first, { status: 'pending' });
      expect(await store().rounds.insertLiveRound(first, firstBet)).toBe(true);
      expect(await store().rounds.transactionsOfRound(first.id)).toEqual([firstBet]);
      const second = roundRecord(seat, { status: 'pending' });
      expect(await store().rounds.insertLiveRound(second, transactionRecord(second))).toBe(false);
      expect(await store().rounds.findRound(second.id)).toBeUndefined();
      expect(await store().rounds.transactionsOfRound(second.id)).toEqual([]);
    });

    it('lets one of two units inserting a live round for one player at once win, the other get false', async () => {
      const seat = await seedSeat(store());
      const buy = () =>
        store().transaction((tx) => tx.rounds.insertLiveRound(roundRecord(seat, { status: 'pending' })), {
          rowLocks: true,
        });
      const results = await Promise.all([buy(), buy()]);
      expect(results.sort()).toEqual([false, true]);
    });

    it('changes a round only while it has the status given', async () => {
      const seat = await seedSeat(store());
      const round = await seedRound(store(), seat, { status: 'pending' });
      expect(await store().rounds.updateRoundWhile(round.id, 'open', { status: 'closed' })).toBe(false);
      expect(await store().rounds.findRound(round.id)).toEqual(round);
      expect(await store().rounds.updateRoundWhile(round.id, 'pending', { status: 'open', level: 2 })).toBe(
        true,
      );
      expect(await store().rounds.findRound(round.id)).toEqual({ ...round, status: 'open', level: 2 });
      expect(await store().rounds.updateRoundWhile(round.id, 'pending', { status: 'voided' })).toBe(false);
      expect(await store().rounds.updateRoundWhile('nope', 'pending', {})).toBe(false);
      expect(await store().rounds.updateRoundWhile(round.id, 'open', {})).toBe(true);
    });

    it('updates the fields given and nothing else', async () => {
      const seat = await seedSeat(store());
      const round = await seedRound(store(), seat, { status: 'pending' });
      const change = {
        status: 'open' as const,
        level: 3,
        cardJson: '{"card":1}',
        lastActionAt: at(9),
        reconciliation: true,
      };
      await store().rounds.updateRound(round.id, change);
      expect(await store().rounds.findRound(round.id)).toEqual({ ...round, ...change });
      await store().rounds.updateRound(round.id, { status: 'closed', prizeMinor: MAX_MINOR, endAt: at(10) });
      expect(await store().rounds.findRound(round.id)).toEqual({
        ...round,
        ...change,
        status: 'closed',
        prizeMinor: MAX_MINOR,
        endAt: at(10),
      });
    });

    it('sets a field back to null, and takes an empty change as no change', async () => {
      const seat = await seedSeat(store());
      const round = await seedRound(store(), seat, { endAt: at(3), reconciliation: true });
      await store().rounds.updateRound(round.id, { endAt: null, reconciliation: false });
      await store().rounds.updateRound(round.id, {});
      expect(await store().rounds.findRound(round.id)).toEqual({
        ...round,
        endAt: null,
        reconciliation: false,
      });
    });

    it('gives an inserted wallet transaction back by id, a negative bet exact', async () => {
      const seat = await seedSeat(store());
      const round = await seedRound(store(), seat, { paidMinor: MAX_MINOR });
      const bet = transactionRecord(round, {
        amountMinor: -MAX_MINOR,
        balanceBeforeMinor: MAX_MINOR,
        balanceAfterMinor: 0,
        status: 'completed',
        attempts: 2,
        lastError: 'timeout',
        completedAt: at(4),
      });
      const rollback = transactionRecord(round, {
        type: 'rollback',
        amountMinor: MAX_MINOR,
        originalTransactionId: bet.id,
        nextAttemptAt: null,
      });
      await store().rounds.insertTransaction(bet);
      await store().rounds.insertTransaction(rollback);
      expect(await store().rounds.findTransaction(bet.id)).toEqual(bet);
      expect(await store().rounds.findTransaction(rollback.id)).toEqual(rollback);
      expect(await store().rounds.findTransaction('nope')).toBeUndefined();
    });

    it('gives a round’s transactions oldest first, and no other round’s', async () => {
      const seat = await seedSeat(store());
      const round = await seedRound(store(), seat, { createdAt: at(0) });
      const other = await seedRound(store(), seat, { createdAt: at(0) });
      const prize = await seedTransaction(store(), round, {
        type: 'prize',
        amountMinor: 900,
        createdAt: at(5),
      });
      const bet = await seedTransaction(store(), round, { createdAt: at(0) });
      await seedTransaction(store(), other, { createdAt: at(1) });
      expect(await store().rounds.transactionsOfRound(round.id)).toEqual([bet, prize]);
      expect(await store().rounds.transactionsOfRound('nope')).toEqual([]);
    });

    it('updates a transaction’s fields given and nothing else', async () => {
      const seat = await seedSeat(store());
      const round = await seedRound(store(), seat);
      const bet = await seedTransaction(store(), round, { attempts: 1, nextAttemptAt: at(30) });
      const change = {
        status: 'completed' as const,
        balanceBeforeMinor: 10_000,
        balanceAfterMinor: 9_500,
        attempts: 2,
        nextAttemptAt: null,
        lastError: null,
        completedAt: at(31),
      };
      await store().rounds.updateTransaction(bet.id, change);
      expect(await store().rounds.findTransaction(bet.id)).toEqual({ ...bet, ...change });
    });

    it('gives the pending transactions that are due, oldest first, up to the limit', async () => {
      const seat = await seedSeat(store());
      const round = await seedRound(store(), seat);
      const pending = (nextAttemptAt: string, status: TransactionStatus = 'pending') =>
        seedTransaction(store(), round, { status, nextAttemptAt });
      const third = await pending(at(30));
      const first = await pending(at(10));
      const second = await pending(at(20));
      const tie = await pending(at(30));
      await pending(at(31)); // not yet
      await pending(at(5), 'completed');
      await pending(at(5), 'declined');
      await pending(at(5), 'failed');

      expect(await store().rounds.dueTransactions(at(30), 10)).toEqual([first, second, third, tie]);
      expect(await store().rounds.dueTransactions(at(30), 2)).toEqual([first, second]);
      expect(await store().rounds.dueTransactions(at(9), 10)).toEqual([]);
    });

    it('gives the open rounds idle since before a time, longest idle first, up to the limit', async () => {
      const seat = await seedSeat(store());
      const idle = async (lastActionAt: string, status: RoundStatus = 'open') =>
        seedRound(store(), await seedPlayerAt(store(), seat), { status, lastActionAt });
      const newer = await idle(at(20));
      const older = await idle(at(10));
      await idle(at(30)); // exactly at `before`: not idle
      await idle(at(40));
      await idle(at(1), 'pending');
      await idle(at(1), 'closing');
      await idle(at(1), 'closed');

      expect(await store().rounds.idleOpenRounds(at(30), 10)).toEqual([older, newer]);
      expect(await store().rounds.idleOpenRounds(at(30), 1)).toEqual([older]);
    });

    it('releases every pending transaction: due now, returning how many', async () => {
      const seat = await seedSeat(store());
      const round = await seedRound(store(), seat);
      const later = await seedTransaction(store(), round, { nextAttemptAt: at(500) });
      const soon = await seedTransaction(store(), round, { nextAttemptAt: at(100) });
      const done = await seedTransaction(store(), round, { status: 'completed', nextAttemptAt: at(500) });

      expect(await store().rounds.releasePending(at(50))).toBe(2);
      expect(await store().rounds.dueTransactions(at(50), 10)).toEqual([
        { ...later, nextAttemptAt: at(50) },
        { ...soon, nextAttemptAt: at(50) },
      ]);
      expect(await store().rounds.findTransaction(done.id)).toEqual(done);
    });

    it('releases nothing when nothing is pending', async () => {
      expect(await store().rounds.releasePending(at(0))).toBe(0);
    });

    it('leases a due pending call to one owner until a time; nobody else takes it meanwhile', async () => {
      const seat = await seedSeat(store());
      const round = await seedRound(store(), seat);
      const call = await seedTransaction(store(), round, { nextAttemptAt: at(10) });

      expect(await store().rounds.claimDue(call.id, 'process-a', at(9), at(40))).toBeUndefined();
      expect(await store().rounds.claimDue(call.id, 'process-a', at(10), at(40))).toEqual({
        ...call,
        nextAttemptAt: at(40),
      });
      expect(await store().rounds.claimDue(call.id, 'process-b', at(39), at(70))).toBeUndefined();
      expect(await store().rounds.dueTransactions(at(39), 10)).toEqual([]);
      // The lease expired (its holder died): another process takes it over.
      expect(await store().rounds.claimDue(call.id, 'process-b', at(40), at(70))).toMatchObject({
        nextAttemptAt: at(70),
      });
    });

    it('leases only pending calls, and of two claims at once exactly one wins', async () => {
      const seat = await seedSeat(store());
      const round = await seedRound(store(), seat);
      const done = await seedTransaction(store(), round, { status: 'completed', nextAttemptAt: at(0) });
      expect(await store().rounds.claimDue(done.id, 'p', at(5), at(9))).toBeUndefined();
      expect(await store().rounds.claimDue('no-such-call', 'p', at(5), at(9))).toBeUndefined();
      const call = await seedTransaction(store(), round, { nextAttemptAt: at(0) });
      const claims = await Promise.all(
        ['a', 'b', 'c'].map((owner) => store().rounds.claimDue(call.id, owner, at(5), at(9))),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
    });
  });

  describe('pool draws', () => {
    const store = useStore(open);

    /** Rounds that drew `indexes` from one pool, in a scrambled insertion order. */
    async function drawn(indexes: number[]) {
      const seat = await seedSeat(store());
      const pool = await seedPool(store(), seat.game, { sampling: 100 });
      const rounds: RoundRecord[] = [];
      for (const drawIndex of indexes) {
        rounds.push(
          await seedRound(store(), seat, {
            poolId: pool.id,
            drawIndex,
            level: drawIndex % 9,
            cardJson: JSON.stringify({ drawIndex }),
            prizeMinor: drawIndex * 100,
          }),
        );
      }
      const draw = (drawIndex: number) => {
        const round = rounds[indexes.indexOf(drawIndex)];
        if (!round) throw new Error(`no round drew ${drawIndex}`);
        return {
          roundId: round.id,
          drawIndex,
          level: round.level,
          cardJson: round.cardJson,
          prizeMinor: round.prizeMinor,
        };
      };
      return { seat, pool, draw };
    }

    it('pages a pool’s draws by draw index after a given one', async () => {
      const { pool, draw } = await drawn([3, 0, 5, 1, 4, 2]);
      expect(await store().rounds.poolDraws(pool.id, -1, 3)).toEqual([draw(0), draw(1), draw(2)]);
      expect(await store().rounds.poolDraws(pool.id, 2, 3)).toEqual([draw(3), draw(4), draw(5)]);
      expect(await store().rounds.poolDraws(pool.id, 4, 3)).toEqual([draw(5)]);
      expect(await store().rounds.poolDraws(pool.id, 5, 3)).toEqual([]);
    });

    it('gives no draw of another pool, nor rounds that drew from none', async () => {
      const { seat, pool, draw } = await drawn([0, 1]);
      const otherPool = await seedPool(
        store(),
        await seedGame(store(), seat.profile, { gameModel: 'fera-sortuda' }),
      );
      await seedRound(store(), seat, { poolId: otherPool.id, drawIndex: 0 });
      await seedRound(store(), seat);
      expect(await store().rounds.poolDraws(pool.id, -1, 10)).toEqual([draw(0), draw(1)]);
    });

    it('walks every draw in order with eachPoolDraw, a page at a time', async () => {
      const indexes = [6, 2, 0, 4, 1, 5, 3];
      const { pool, draw } = await drawn(indexes);
      for (const pageSize of [1, 2, 3, 7, 1000]) {
        const walked = [];
        for await (const one of eachPoolDraw(store().rounds, pool.id, pageSize)) walked.push(one);
        expect(walked).toEqual([0, 1, 2, 3, 4, 5, 6].map(draw));
      }
    });

    it('walks nothing for a pool without draws', async () => {
      const seat = await seedSeat(store());
      const pool = await seedPool(store(), seat.game);
      const walked = [];
      for await (const one of eachPoolDraw(store().rounds, pool.id, 2)) walked.push(one);
      expect(walked).toEqual([]);
    });

    it('finds the round that drew one index of a pool', async () => {
      const { pool, draw } = await drawn([0, 1, 2]);
      expect(await store().rounds.findPoolDraw(pool.id, 1)).toEqual(draw(1));
      expect(await store().rounds.findPoolDraw(pool.id, 3)).toBeUndefined();
      expect(await store().rounds.findPoolDraw('no-pool', 1)).toBeUndefined();
    });

    it('refuses a second round on one draw of a pool', async () => {
      const { seat, pool } = await drawn([0]);
      await expect(
        store().rounds.insertRound(roundRecord(seat, { poolId: pool.id, drawIndex: 0 })),
      ).rejects.toThrow();
    });
  });

  describe('pools', () => {
    const store = useStore(open);

    it('gives an inserted pool back by id, as written', async () => {
      const seat = await seedSeat(store());
      const pool = poolRecord(seat.game, {
        number: 4,
        sampling: 200_000,
        draws: 200_000,
        allocated: 200_000,
        endedAt: at(3),
        seedHex: '4'.repeat(64),
      });
      await store().pools.insert(pool);
      expect(await store().pools.findById(pool.id)).toEqual(pool);
      expect(await store().pools.findById('nope')).toBeUndefined();
    });

    it('finds the current (not ended) pool of a game, none once it ended', async () => {
      const seat = await seedSeat(store());
      expect(await store().pools.findCurrent(seat.game.id)).toBeUndefined();
      const pool = await seedPool(store(), seat.game);
      expect(await store().pools.findCurrent(seat.game.id)).toEqual(pool);
      await store().pools.end(pool.id, 'ab'.repeat(32), at(99));
      expect(await store().pools.findCurrent(seat.game.id)).toBeUndefined();
    });

    it('ends a pool: publishes its seed and end time', async () => {
      const seat = await seedSeat(store());
      const pool = await seedPool(store(), seat.game);
      await store().pools.end(pool.id, 'cd'.repeat(32), at(99));
      expect(await store().pools.findById(pool.id)).toEqual({
        ...pool,
        seedHex: 'cd'.repeat(32),
        endedAt: at(99),
      });
    });

    it('refuses a second current pool of a game; the next starts once the first ended', async () => {
      const seat = await seedSeat(store());
      const first = await seedPool(store(), seat.game, { number: 1 });
      await expect(store().pools.insert(poolRecord(seat.game, { number: 2 }))).rejects.toThrow();
      await store().pools.end(first.id, '00'.repeat(32), at(5));
      const second = await seedPool(store(), seat.game, { number: 2 });
      expect(await store().pools.findCurrent(seat.game.id)).toEqual(second);
    });

    it('gives the last pool number of a game, 0 when it has none', async () => {
      const seat = await seedSeat(store());
      const other = await seedGame(store(), seat.profile, { gameModel: 'frevo-da-sorte' });
      expect(await store().pools.lastNumber(seat.game.id)).toBe(0);
      await seedPool(store(), seat.game, { number: 1, endedAt: at(1), seedHex: '11'.repeat(32) });
      await seedPool(store(), seat.game, { number: 3, endedAt: at(2), seedHex: '33'.repeat(32) });
      await seedPool(store(), seat.game, { number: 2 });
      expect(await store().pools.lastNumber(seat.game.id)).toBe(3);
      expect(await store().pools.lastNumber(other.id)).toBe(0);
    });

    it('counts as a running pool’s draws its closed blocks and the rounds drawn from its open ones', async () => {
      const seat = await seedSeat(store());
      const pool = await seedPool(store(), seat.game, { sampling: 10 });
      await store().pools.takeBlock(pool.id, 'a', 4, at(0), at(30));
      await store().pools.takeBlock(pool.id, 'b', 4, at(0), at(30));
      for (const drawIndex of [3, 0, 1, 2, 6]) {
        await seedRound(store(), seat, { poolId: pool.id, drawIndex, level: 0 });
      }
      expect((await store().pools.findById(pool.id))?.draws).toBe(5);
      expect(await store().pools.closeBlock(pool.id, 0, 'a')).toEqual({ undrawn: [], poolDone: false });
      expect((await store().pools.findById(pool.id))?.draws).toBe(5);
      expect((await store().pools.findCurrent(seat.game.id))?.draws).toBe(5);
      expect((await store().pools.listByGame(seat.game.id))[0]?.draws).toBe(5);
    });

    it('hands out blocks of draw indexes one after the other, fewer at the end, none past sampling', async () => {
      const seat = await seedSeat(store());
      const pool = await seedPool(store(), seat.game, { sampling: 10 });
      const a = await store().pools.takeBlock(pool.id, 'a', 4, at(0), at(30));
      const b = await store().pools.takeBlock(pool.id, 'b', 4, at(0), at(30));
      const c = await store().pools.takeBlock(pool.id, 'a', 4, at(0), at(30));
      expect([a, b, c]).toEqual([
        { poolId: pool.id, first: 0, end: 4, owner: 'a', expiresAt: at(30), drawn: [] },
        { poolId: pool.id, first: 4, end: 8, owner: 'b', expiresAt: at(30), drawn: [] },
        { poolId: pool.id, first: 8, end: 10, owner: 'a', expiresAt: at(30), drawn: [] },
      ]);
      expect(await store().pools.takeBlock(pool.id, 'c', 4, at(1), at(31))).toBeUndefined();
      expect((await store().pools.findById(pool.id))?.allocated).toBe(10);
      expect((await store().pools.listBlocks(pool.id)).map((block) => [block.first, block.owner])).toEqual([
        [0, 'a'],
        [4, 'b'],
        [8, 'a'],
      ]);
    });

    it('gives concurrent takers blocks that do not overlap', async () => {
      const seat = await seedSeat(store());
      const pool = await seedPool(store(), seat.game, { sampling: 100 });
      const blocks = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store().transaction((tx) => tx.pools.takeBlock(pool.id, `p${i}`, 10, at(0), at(30))),
        ),
      );
      const indexes = blocks.flatMap((block) =>
        block ? Array.from({ length: block.end - block.first }, (_, k) => block.first + k) : [],
      );
      expect(indexes.sort((x, y) => x - y)).toEqual(Array.from({ length: 80 }, (_, i) => i));
    });

    it('takes over the lowest expired block with the indexes rounds drew from it, never a live one', async () => {
      const seat = await seedSeat(store());
      const pool = await seedPool(store(), seat.game, { sampling: 6 });
      await store().pools.takeBlock(pool.id, 'dead', 3, at(0), at(10));
      await store().pools.takeBlock(pool.id, 'alive', 3, at(0), at(50));
      await seedRound(store(), seat, { poolId: pool.id, drawIndex: 1, level: 0 });
      // Before its lease expires nobody takes it; at its expiry, the first taker does.
      expect(await store().pools.takeBlock(pool.id, 'other', 3, at(9), at(40))).toBeUndefined();
      expect(await store().pools.takeBlock(pool.id, 'other', 3, at(10), at(40))).toEqual({
        poolId: pool.id,
        first: 0,
        end: 3,
        owner: 'other',
        expiresAt: at(40),
        drawn: [1],
      });
      expect(await store().pools.holdBlock(pool.id, 0, 'dead', null)).toBe(false);
      expect(await store().pools.holdBlock(pool.id, 0, 'other', null)).toBe(true);
      expect(await store().pools.takeBlock(pool.id, 'again', 3, at(11), at(41))).toBeUndefined();
    });

    it('renews a block’s lease only for its holder', async () => {
      const seat = await seedSeat(store());
      const pool = await seedPool(store(), seat.game, { sampling: 6 });
      await store().pools.takeBlock(pool.id, 'me', 3, at(0), at(10));
      expect(await store().pools.holdBlock(pool.id, 0, 'you', at(20))).toBe(false);
      expect(await store().pools.holdBlock(pool.id, 0, 'me', at(20))).toBe(true);
      expect(await store().pools.holdBlock(pool.id, 3, 'me', null)).toBe(false);
      expect(await store().pools.takeBlock(pool.id, 'you', 3, at(15), at(40))).toMatchObject({ first: 3 });
      expect((await store().pools.listBlocks(pool.id))[0]).toMatchObject({ owner: 'me', expiresAt: at(20) });
    });

    it('closes a block only once a round drew each of its indexes, counting them; the last close completes the pool', async () => {
      const seat = await seedSeat(store());
      const pool = await seedPool(store(), seat.game, { sampling: 4 });
      await store().pools.takeBlock(pool.id, 'me', 2, at(0), at(30));
      await store().pools.takeBlock(pool.id, 'me', 2, at(0), at(30));
      await seedRound(store(), seat, { poolId: pool.id, drawIndex: 0, level: 0 });
      expect(await store().pools.closeBlock(pool.id, 0, 'me')).toEqual({ undrawn: [1], poolDone: false });
      await expect(store().pools.closeBlock(pool.id, 0, 'someone else')).rejects.toThrow();
      await seedRound(store(), seat, { poolId: pool.id, drawIndex: 1, level: 0 });
      expect(await store().pools.closeBlock(pool.id, 0, 'me')).toEqual({ undrawn: [], poolDone: false });
      for (const drawIndex of [2, 3])
        await seedRound(store(), seat, { poolId: pool.id, drawIndex, level: 0 });
      expect(await store().pools.closeBlock(pool.id, 2, 'me')).toEqual({ undrawn: [], poolDone: true });
      expect(await store().pools.listBlocks(pool.id)).toEqual([]);
      await store().pools.end(pool.id, 'ee'.repeat(32), at(5));
      expect(await store().pools.findById(pool.id)).toMatchObject({ draws: 4, allocated: 4, endedAt: at(5) });
    });

    it('hands no block out of an ended pool', async () => {
      const seat = await seedSeat(store());
      const pool = await seedPool(store(), seat.game, { sampling: 9 });
      await store().pools.end(pool.id, 'ff'.repeat(32), at(2));
      expect(await store().pools.takeBlock(pool.id, 'me', 3, at(3), at(30))).toBeUndefined();
    });

    it('inserts rounds in bulk, all or none', async () => {
      const seat = await seedSeat(store());
      const pool = await seedPool(store(), seat.game, { sampling: 2000 });
      await store().pools.takeBlock(pool.id, 'me', 2000, at(0), at(30));
      const rounds = Array.from({ length: 1200 }, (_, drawIndex) =>
        roundRecord(seat, { poolId: pool.id, drawIndex, level: drawIndex % 3, status: 'closed' }),
      );
      await store().rounds.insertRounds(rounds);
      expect(await store().rounds.findRound(rounds[1100]?.id ?? '')).toEqual(rounds[1100]);
      expect((await store().pools.findById(pool.id))?.draws).toBe(1200);
      const clash = [
        roundRecord(seat, { poolId: pool.id, drawIndex: 1500, level: 0, status: 'closed' }),
        roundRecord(seat, { poolId: pool.id, drawIndex: 5, level: 0, status: 'closed' }),
      ];
      await expect(store().rounds.insertRounds(clash)).rejects.toThrow();
      expect(await store().rounds.findRound(clash[0]?.id ?? '')).toBeUndefined();
    });

    it('lists a game’s pools by number', async () => {
      const seat = await seedSeat(store());
      const third = await seedPool(store(), seat.game, { number: 3 });
      const first = await seedPool(store(), seat.game, {
        number: 1,
        endedAt: at(1),
        seedHex: '11'.repeat(32),
      });
      const second = await seedPool(store(), seat.game, {
        number: 2,
        endedAt: at(2),
        seedHex: '22'.repeat(32),
      });
      await seedPool(store(), await seedGame(store(), seat.profile, { gameModel: 'frevo-da-sorte' }));
      expect(await store().pools.listByGame(seat.game.id)).toEqual([first, second, third]);
      expect(await store().pools.listByGame('nope')).toEqual([]);
    });
  });
}
