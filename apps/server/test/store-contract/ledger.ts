import { describe, expect, it } from 'vitest';
import type {
  LedgerFilter,
  LedgerTransaction,
  RoundDetail,
  RoundRecord,
  TransactionRecord,
} from '../../src/store/records.ts';
import type { Repositories } from '../../src/store/store.ts';
import {
  at,
  ledgerFilter,
  listed,
  MAX_MINOR,
  type OpenStore,
  onDay,
  type Seat,
  seedPlayerAt,
  seedRound,
  seedSeat,
  seedTransaction,
  useStore,
} from './fixtures.ts';

const later = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();

/** A round with its transactions, as written. */
interface Written {
  round: RoundRecord;
  seat: Seat;
  transactions: LedgerTransaction[];
}

/** A round and its wallet calls: a bet at its start, then each `then` transaction `seconds` later. */
async function writeRound(
  repos: Repositories,
  seat: Seat,
  round: Partial<RoundRecord> & { createdAt: string },
  then: Array<Partial<LedgerTransaction> & { type: LedgerTransaction['type']; seconds: number }> = [],
): Promise<Written> {
  const written = await seedRound(repos, seat, round);
  const transactions = [
    await seedTransaction(repos, written, { status: 'completed', createdAt: written.createdAt }),
  ];
  for (const { seconds, ...over } of then) {
    transactions.push(
      await seedTransaction(repos, written, {
        status: 'completed',
        amountMinor: written.paidMinor,
        createdAt: later(written.createdAt, seconds),
        ...over,
      }),
    );
  }
  return { round: written, seat, transactions };
}

/**
 * Client A: profile P1 (BRL) with players pa and pb, profile P2 (USD) with player pc; client B
 * with one round on day 1 that no list of A may show.
 *
 *   r1  pa  day 0 10:00  bet, prize (+2 s)        closed
 *   r2  pa  day 1 09:00  bet                      open
 *   r3  pc  day 1 12:00  bet, rollback (+2 s)     voided
 *   r4  pb  day 2 08:00  bet, prize (+2 s), prize (+3 s)   closed
 */
async function ledgerScene(repos: Repositories) {
  const pa = await seedSeat(repos, { profile: { currency: 'BRL' } });
  const pb = await seedPlayerAt(repos, pa);
  const pc = await seedSeat(repos, { client: pa.client, profile: { currency: 'USD' } });
  const theirs = await seedSeat(repos);

  const r1 = await writeRound(
    repos,
    pa,
    { createdAt: onDay(0, 36_000), status: 'closed', prizeMinor: 1000, endAt: onDay(0, 36_002) },
    [{ type: 'prize', amountMinor: 1000, seconds: 2 }],
  );
  const r2 = await writeRound(repos, pa, { createdAt: onDay(1, 32_400), status: 'open' });
  const r3 = await writeRound(
    repos,
    pc,
    { createdAt: onDay(1, 43_200), status: 'voided', endAt: onDay(1, 43_202) },
    [{ type: 'rollback', seconds: 2 }],
  );
  const r4 = await writeRound(
    repos,
    pb,
    { createdAt: onDay(2, 28_800), status: 'closed', prizeMinor: 700, endAt: onDay(2, 28_803) },
    [
      { type: 'prize', amountMinor: 500, seconds: 2 },
      { type: 'prize', amountMinor: 200, seconds: 3 },
    ],
  );
  const rb = await writeRound(repos, theirs, { createdAt: onDay(1, 40_000) }, [
    { type: 'prize', seconds: 1 },
  ]);
  return { clientId: pa.client.id, pa, pb, pc, theirs, r1, r2, r3, r4, rb };
}

const filterOf = ledgerFilter;

const ALL = { pageIndex: 1, pageSize: 100 };

/** A round as the lists show it, its player's balance given. */
function detailOf({ round, seat, transactions }: Written, balanceMinor: number): RoundDetail {
  return {
    id: round.id,
    clientId: round.clientId,
    profileId: round.profileId,
    gameId: round.gameId,
    sessionId: round.sessionId,
    status: round.status,
    currency: round.currency,
    paidMinor: round.paidMinor,
    prizeMinor: round.prizeMinor,
    createdAt: round.createdAt,
    endAt: round.endAt,
    promotionId: round.promotionId,
    test: round.test,
    player: {
      id: seat.player.id,
      credential: seat.player.credential,
      credentialType: seat.player.credentialType,
      balanceMinor,
      balanceCurrency: round.currency,
      betWins: seat.player.betWins,
      totalBets: seat.player.totalBets,
    },
    transactions: transactions.map(listed),
  };
}

const ids = (page: { items: Array<{ id: string }> }) => page.items.map((item) => item.id);
const newestFirst = (transactions: TransactionRecord[]) =>
  [...transactions].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));

/** LedgerRepo: the round and transaction lists, newest first, filtered and counted. */
export function describeLedgerContract(open: OpenStore): void {
  describe('ledger: rounds list', () => {
    const store = useStore(open);
    let scene: Awaited<ReturnType<typeof ledgerScene>>;
    const setUp = async () => {
      scene = await store().transaction((tx) => ledgerScene(tx));
      return scene;
    };
    const rounds = async (over: Partial<LedgerFilter>, page = ALL) => {
      const found = await store().ledger.listRounds(filterOf(scene.clientId, over), page);
      return { ids: ids(found), totalCount: found.totalCount };
    };

    it('reads the whole list in keyset batches (the export): the same rounds, order and filters as the pages', async () => {
      const { clientId } = await setUp();
      for (const over of [{}, { type: 'prize' as const }, { profileId: scene.pa.profile.id }]) {
        const filter = filterOf(clientId, over);
        const batched: string[] = [];
        let after: { createdAt: string; id: string } | null = null;
        for (;;) {
          const batch = await store().ledger.roundsAfter(filter, after, 1);
          batched.push(...batch.map((round) => round.id));
          const last = batch.at(-1);
          if (!last) break;
          after = { createdAt: last.createdAt, id: last.id };
        }
        expect(batched).toEqual(ids(await store().ledger.listRounds(filter, ALL)));
        const all = await store().ledger.transactionsAfter(filter, null, 1000);
        expect(all.map((t) => t.id)).toEqual(ids(await store().ledger.listTransactions(filter, ALL)));
        const [first, ...rest] = all;
        if (first) {
          const tail = await store().ledger.transactionsAfter(filter, first, 1000);
          expect(tail.map((t) => t.id)).toEqual(rest.map((t) => t.id));
        }
      }
    });

    it('lists one client’s rounds newest first, each with its player and transactions', async () => {
      const { clientId, r1, r2, r3, r4 } = await setUp();
      expect(await store().ledger.listRounds(filterOf(clientId), ALL)).toEqual({
        items: [
          detailOf(r4, r4.seat.player.balanceMinor),
          detailOf(r3, r3.seat.player.balanceMinor),
          detailOf(r2, r2.seat.player.balanceMinor),
          detailOf(r1, r1.seat.player.balanceMinor),
        ],
        totalCount: 4,
      });
    });

    it('pages the list, the total counting every round', async () => {
      const { r1, r2, r3, r4 } = await setUp();
      expect(await rounds({}, { pageIndex: 1, pageSize: 3 })).toEqual({
        ids: [r4, r3, r2].map((r) => r.round.id),
        totalCount: 4,
      });
      expect(await rounds({}, { pageIndex: 2, pageSize: 3 })).toEqual({ ids: [r1.round.id], totalCount: 4 });
      expect(await rounds({}, { pageIndex: 3, pageSize: 3 })).toEqual({ ids: [], totalCount: 4 });
    });

    it('filters by profile, player and round', async () => {
      const { pa, pc, r1, r2, r3 } = await setUp();
      expect(await rounds({ profileId: pc.profile.id })).toEqual({ ids: [r3.round.id], totalCount: 1 });
      expect(await rounds({ playerId: pa.player.id })).toEqual({
        ids: [r2.round.id, r1.round.id],
        totalCount: 2,
      });
      expect(await rounds({ roundId: r1.round.id })).toEqual({ ids: [r1.round.id], totalCount: 1 });
      expect(await rounds({ profileId: pa.profile.id, playerId: pc.player.id })).toEqual({
        ids: [],
        totalCount: 0,
      });
    });

    it('filters by type: the rounds having a transaction of it, each once', async () => {
      const { pa, r1, r3, r4 } = await setUp();
      expect(await rounds({ type: 'prize' })).toEqual({ ids: [r4.round.id, r1.round.id], totalCount: 2 });
      expect(await rounds({ type: 'rollback' })).toEqual({ ids: [r3.round.id], totalCount: 1 });
      expect(await rounds({ type: 'bet' })).toMatchObject({ totalCount: 4 });
      expect(await rounds({ type: 'deposit' })).toEqual({ ids: [], totalCount: 0 });
      expect(await rounds({ type: 'prize', playerId: pa.player.id })).toEqual({
        ids: [r1.round.id],
        totalCount: 1,
      });
      expect(await rounds({ type: 'prize', profileId: pa.profile.id })).toEqual({
        ids: [r4.round.id, r1.round.id],
        totalCount: 2,
      });
    });

    it('filters by whole days: from inclusive, before exclusive', async () => {
      const { r1, r2, r3, r4 } = await setUp();
      expect(await rounds({ from: onDay(1) })).toEqual({
        ids: [r4, r3, r2].map((r) => r.round.id),
        totalCount: 3,
      });
      expect(await rounds({ before: onDay(2) })).toEqual({
        ids: [r3, r2, r1].map((r) => r.round.id),
        totalCount: 3,
      });
      expect(await rounds({ from: onDay(1), before: onDay(2) })).toEqual({
        ids: [r3, r2].map((r) => r.round.id),
        totalCount: 2,
      });
      expect(await rounds({ from: onDay(1), type: 'prize' })).toEqual({ ids: [r4.round.id], totalCount: 1 });
      expect(await rounds({ from: onDay(3) })).toEqual({ ids: [], totalCount: 0 });
    });

    it('filters by instants: from inclusive, before exclusive, to the millisecond', async () => {
      const { pa, r2, r3, r4 } = await setUp();
      expect(await rounds({ from: r2.round.createdAt, before: r4.round.createdAt })).toEqual({
        ids: [r3, r2].map((r) => r.round.id),
        totalCount: 2,
      });
      expect(await rounds({ from: later(r2.round.createdAt, 0.001) })).toEqual({
        ids: [r4, r3].map((r) => r.round.id),
        totalCount: 2,
      });
      expect(
        await rounds({ before: later(r2.round.createdAt, 0.001), profileId: pa.profile.id }),
      ).toMatchObject({
        totalCount: 2,
      });
      expect(await rounds({ from: onDay(1, 1), type: 'rollback' })).toEqual({
        ids: [r3.round.id],
        totalCount: 1,
      });
    });

    it('shows nothing of another client, even filtered by its player or round', async () => {
      const { theirs, rb } = await setUp();
      expect(await rounds({ playerId: theirs.player.id })).toEqual({ ids: [], totalCount: 0 });
      expect(await rounds({ roundId: rb.round.id })).toEqual({ ids: [], totalCount: 0 });
      expect(await rounds({ profileId: theirs.profile.id })).toEqual({ ids: [], totalCount: 0 });
      const own = await store().ledger.listRounds(filterOf(theirs.client.id), ALL);
      expect(own).toEqual({ items: [detailOf(rb, theirs.player.balanceMinor)], totalCount: 1 });
    });

    it('orders rounds of one instant by id, highest first', async () => {
      const seat = await seedSeat(store());
      const a = await seedRound(store(), seat, { createdAt: at(5) });
      const b = await seedRound(store(), seat, { createdAt: at(5) });
      const c = await seedRound(store(), seat, { createdAt: at(5) });
      const page = await store().ledger.listRounds(filterOf(seat.client.id), ALL);
      expect(ids(page)).toEqual([c.id, b.id, a.id]);
    });

    it('lists nothing for a client without rounds', async () => {
      const seat = await seedSeat(store());
      expect(await store().ledger.listRounds(filterOf(seat.client.id), ALL)).toEqual({
        items: [],
        totalCount: 0,
      });
    });

    it('finds one round as the lists show it', async () => {
      const { r4 } = await setUp();
      expect(await store().ledger.findRoundDetail(r4.round.id)).toEqual(
        detailOf(r4, r4.seat.player.balanceMinor),
      );
      expect(await store().ledger.findRoundDetail('nope')).toBeUndefined();
    });

    it('shows the player’s current figures and last balance in the round’s currency', async () => {
      const seat = await seedSeat(store(), { profile: { currency: 'BRL' }, player: { balanceMinor: 4_000 } });
      const brl = await writeRound(store(), seat, { createdAt: at(1), currency: 'BRL' });
      const usd = await writeRound(store(), seat, { createdAt: at(2), currency: 'USD' });
      // Never reported: the default currency falls back to the player's balance, another one to 0.
      expect((await store().ledger.findRoundDetail(brl.round.id))?.player.balanceMinor).toBe(4_000);
      expect((await store().ledger.findRoundDetail(usd.round.id))?.player).toMatchObject({
        balanceMinor: 0,
        balanceCurrency: 'USD',
      });
      await store().rounds.updatePlayer(seat.player.id, 'USD', 321, 1, 1);
      await store().rounds.updatePlayer(seat.player.id, 'BRL', MAX_MINOR, 1, 0);
      const figures = { betWins: 1, totalBets: 2 };
      expect(await store().ledger.findRoundDetail(usd.round.id)).toEqual(
        detailOf({ ...usd, seat: { ...seat, player: { ...seat.player, ...figures } } }, 321),
      );
      expect(await store().ledger.findRoundDetail(brl.round.id)).toEqual(
        detailOf({ ...brl, seat: { ...seat, player: { ...seat.player, ...figures } } }, MAX_MINOR),
      );
    });

    it('finds who owns a round and a player', async () => {
      const { pa, r1 } = await setUp();
      expect(await store().ledger.findRoundRef(r1.round.id)).toEqual({
        id: r1.round.id,
        clientId: pa.client.id,
      });
      expect(await store().ledger.findPlayerRef(pa.player.id)).toEqual({
        id: pa.player.id,
        clientId: pa.client.id,
      });
      expect(await store().ledger.findRoundRef('nope')).toBeUndefined();
      expect(await store().ledger.findPlayerRef('nope')).toBeUndefined();
    });
  });

  describe('ledger: transactions list', () => {
    const store = useStore(open);
    let scene: Awaited<ReturnType<typeof ledgerScene>>;
    const setUp = async () => {
      scene = await store().transaction((tx) => ledgerScene(tx));
      return scene;
    };
    const ofClient = () =>
      newestFirst([scene.r1, scene.r2, scene.r3, scene.r4].flatMap((r) => r.transactions.map(listed)));
    const transactions = async (over: Partial<LedgerFilter>, page = ALL) => {
      const found = await store().ledger.listTransactions(filterOf(scene.clientId, over), page);
      return { ids: ids(found), totalCount: found.totalCount };
    };
    const idsOf = (list: TransactionRecord[]) => list.map((t) => t.id);

    it('lists one client’s transactions newest first, as the lists show them', async () => {
      const { clientId } = await setUp();
      const all = ofClient();
      expect(all).toHaveLength(8);
      expect(await store().ledger.listTransactions(filterOf(clientId), ALL)).toEqual({
        items: all,
        totalCount: 8,
      });
    });

    it('pages the list, the total counting every transaction', async () => {
      await setUp();
      const all = idsOf(ofClient());
      expect(await transactions({}, { pageIndex: 1, pageSize: 5 })).toEqual({
        ids: all.slice(0, 5),
        totalCount: 8,
      });
      expect(await transactions({}, { pageIndex: 2, pageSize: 5 })).toEqual({
        ids: all.slice(5),
        totalCount: 8,
      });
      expect(await transactions({}, { pageIndex: 3, pageSize: 5 })).toEqual({ ids: [], totalCount: 8 });
    });

    it('filters by profile, player, round and type', async () => {
      const { pa, pc, r1, r3, r4 } = await setUp();
      const all = ofClient();
      const ofRound = (r: Written) => idsOf(newestFirst(r.transactions.map(listed)));
      expect(await transactions({ profileId: pc.profile.id })).toEqual({ ids: ofRound(r3), totalCount: 2 });
      expect(await transactions({ playerId: pc.player.id })).toEqual({ ids: ofRound(r3), totalCount: 2 });
      expect(await transactions({ roundId: r1.round.id })).toEqual({ ids: ofRound(r1), totalCount: 2 });
      expect(await transactions({ type: 'bet' })).toEqual({
        ids: idsOf(all.filter((t) => t.type === 'bet')),
        totalCount: 4,
      });
      expect(await transactions({ type: 'prize', profileId: pa.profile.id })).toEqual({
        ids: idsOf(all.filter((t) => t.type === 'prize')),
        totalCount: 3,
      });
      expect(await transactions({ type: 'prize', roundId: r4.round.id })).toMatchObject({ totalCount: 2 });
      expect(await transactions({ type: 'deposit' })).toEqual({ ids: [], totalCount: 0 });
    });

    it('filters by whole days and by instants: from inclusive, before exclusive', async () => {
      const { r1, r2, r3, r4 } = await setUp();
      const all = ofClient();
      const between = (from: string, before: string) =>
        idsOf(all.filter((t) => t.createdAt >= from && t.createdAt < before));
      const day1 = between(onDay(1), onDay(2));
      expect(day1).toHaveLength(3);
      expect(await transactions({ from: onDay(1), before: onDay(2) })).toEqual({ ids: day1, totalCount: 3 });
      expect(await transactions({ from: onDay(2), type: 'prize' })).toEqual({
        ids: idsOf(
          r4.transactions
            .filter((t) => t.type === 'prize')
            .map(listed)
            .reverse(),
        ),
        totalCount: 2,
      });
      const from = r1.transactions[1]?.createdAt ?? '';
      const before = r3.transactions[1]?.createdAt ?? '';
      expect(await transactions({ from, before })).toEqual({ ids: between(from, before), totalCount: 3 });
      expect(
        await transactions({ from: r2.round.createdAt, before: later(r2.round.createdAt, 0.001) }),
      ).toEqual({
        ids: idsOf(r2.transactions),
        totalCount: 1,
      });
    });

    it('shows nothing of another client, even filtered by its player or round', async () => {
      const { theirs, rb } = await setUp();
      expect(await transactions({ playerId: theirs.player.id })).toEqual({ ids: [], totalCount: 0 });
      expect(await transactions({ roundId: rb.round.id })).toEqual({ ids: [], totalCount: 0 });
      expect(await store().ledger.listTransactions(filterOf(theirs.client.id), ALL)).toEqual({
        items: newestFirst(rb.transactions.map(listed)),
        totalCount: 2,
      });
    });

    it('orders transactions of one instant by id, highest first', async () => {
      const seat = await seedSeat(store());
      const round = await seedRound(store(), seat, { createdAt: at(5) });
      const a = await seedTransaction(store(), round, { createdAt: at(5) });
      const b = await seedTransaction(store(), round, { createdAt: at(5), type: 'prize', amountMinor: 1 });
      const page = await store().ledger.listTransactions(filterOf(seat.client.id), ALL);
      expect(ids(page)).toEqual([b.id, a.id]);
    });

    it('gives money back exactly: a bet of -(2^53 - 1), balances of 2^53 - 1', async () => {
      const seat = await seedSeat(store(), { game: { betMinor: MAX_MINOR } });
      const round = await seedRound(store(), seat, { paidMinor: MAX_MINOR, prizeMinor: MAX_MINOR });
      const bet = await seedTransaction(store(), round, {
        amountMinor: -MAX_MINOR,
        balanceBeforeMinor: MAX_MINOR,
        balanceAfterMinor: 0,
        status: 'completed',
      });
      const prize = await seedTransaction(store(), round, {
        type: 'prize',
        amountMinor: MAX_MINOR,
        balanceBeforeMinor: 0,
        balanceAfterMinor: MAX_MINOR,
        status: 'completed',
        createdAt: at(1),
      });
      const listedTransactions = await store().ledger.listTransactions(filterOf(seat.client.id), ALL);
      expect(listedTransactions.items).toEqual([listed(prize), listed(bet)]);
      const detail = await store().ledger.findRoundDetail(round.id);
      expect(detail).toMatchObject({ paidMinor: MAX_MINOR, prizeMinor: MAX_MINOR });
      expect(detail?.transactions.map((t) => t.amountMinor)).toEqual([-MAX_MINOR, MAX_MINOR]);
      expect((await store().ledger.listRounds(filterOf(seat.client.id), ALL)).items[0]).toMatchObject({
        paidMinor: MAX_MINOR,
        prizeMinor: MAX_MINOR,
      });
      for (const value of [detail?.paidMinor, ...listedTransactions.items.map((t) => t.amountMinor)]) {
        expect(typeof value).toBe('number');
        expect(Number.isSafeInteger(value)).toBe(true);
      }
    });
  });
}
