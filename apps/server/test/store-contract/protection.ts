import { describe, expect, it } from 'vitest';
import type { LiveRoundGuards } from '../../src/store/live-round-guards.ts';
import type { StoredLimitRecord } from '../../src/store/records.ts';
import {
  at,
  type OpenStore,
  roundRecord,
  seedPlayerAt,
  seedRound,
  seedSeat,
  seedTransaction,
  useStore,
} from './fixtures.ts';

/**
 * Player protection (docs/player-protection.md): the profile's protection fields, a player's
 * stored limits, the completed sums a limit's usage is made of, and the player's exclusion.
 */
export function describeProtectionContract(open: OpenStore): void {
  describe('player protection', () => {
    const store = useStore(open);

    it('keeps the profile’s jurisdiction, time zone, reality-check minutes and responsible-gaming page', async () => {
      const seat = await seedSeat(store(), {
        profile: {
          jurisdiction: 'BR',
          timezone: 'America/Sao_Paulo',
          realityCheckMinutes: 60,
          responsibleGamingUrl: 'https://casa.example/jogo-responsavel',
        },
      });
      expect(await store().profiles.findById(seat.profile.id)).toEqual(seat.profile);
      const changed = {
        ...seat.profile,
        jurisdiction: 'GB' as const,
        timezone: 'Europe/London',
        realityCheckMinutes: null,
      };
      await store().profiles.update(changed);
      expect(await store().profiles.findById(seat.profile.id)).toEqual(changed);
    });

    it('replaces a player’s limits as a whole, by key, leaving other players’ alone', async () => {
      const seat = await seedSeat(store());
      const other = await seedPlayerAt(store(), seat);
      const loss: StoredLimitRecord = {
        key: 'loss:day:BRL',
        value: 5000,
        pendingValue: null,
        pendingAppliesAt: null,
      };
      const removal: StoredLimitRecord = {
        key: 'wager:week:BRL',
        value: 90_000,
        pendingValue: null,
        pendingAppliesAt: at(86_400),
      };
      const session: StoredLimitRecord = {
        key: 'session-minutes',
        value: 30,
        pendingValue: 60,
        pendingAppliesAt: at(10),
      };
      await store().protection.replaceLimits(seat.player.id, [session, loss, removal]);
      await store().protection.replaceLimits(other.player.id, [loss]);
      expect(await store().protection.limitsOf(seat.player.id)).toEqual([loss, session, removal]);
      await store().transaction((tx) => tx.protection.replaceLimits(seat.player.id, [removal]));
      expect(await store().protection.limitsOf(seat.player.id)).toEqual([removal]);
      await store().protection.replaceLimits(seat.player.id, []);
      expect(await store().protection.limitsOf(seat.player.id)).toEqual([]);
      expect(await store().protection.limitsOf(other.player.id)).toEqual([loss]);
    });

    it('sums the completed bets, prizes and rollbacks of one player and currency since an instant', async () => {
      const seat = await seedSeat(store());
      const other = await seedPlayerAt(store(), seat);
      const round = await seedRound(store(), seat, { createdAt: at(100) });
      const done = { status: 'completed' as const, createdAt: at(100) };
      await seedTransaction(store(), round, { ...done, type: 'bet', amountMinor: -500 });
      await seedTransaction(store(), round, { ...done, type: 'prize', amountMinor: 200, createdAt: at(102) });
      await seedTransaction(store(), round, { ...done, type: 'rollback', amountMinor: 50 });
      // Left out: before `since`, not completed, another currency, another player.
      await seedTransaction(store(), round, { ...done, type: 'bet', amountMinor: -7, createdAt: at(99) });
      await seedTransaction(store(), round, {
        status: 'pending',
        type: 'bet',
        amountMinor: -11,
        createdAt: at(101),
      });
      await seedTransaction(store(), round, { ...done, status: 'failed', type: 'bet', amountMinor: -13 });
      await seedTransaction(store(), round, { ...done, type: 'bet', amountMinor: -17, currency: 'USD' });
      const theirs = await seedRound(store(), other, { createdAt: at(100) });
      await seedTransaction(store(), theirs, { ...done, type: 'bet', amountMinor: -19 });
      expect(await store().protection.periodTotals(seat.player.id, 'BRL', at(100))).toEqual({
        bets: 500,
        prizes: 200,
        rollbacks: 50,
      });
      expect(await store().protection.periodTotals(seat.player.id, 'USD', at(100))).toEqual({
        bets: 17,
        prizes: 0,
        rollbacks: 0,
      });
      expect(await store().protection.periodTotals(seat.player.id, 'BRL', at(103))).toEqual({
        bets: 0,
        prizes: 0,
        rollbacks: 0,
      });
    });

    it('keeps one exclusion per player: set, replaced, deleted', async () => {
      const seat = await seedSeat(store());
      const playerId = seat.player.id;
      expect(await store().protection.findExclusion(playerId)).toBeUndefined();
      const first = { playerId, reason: 'self' as const, endsAt: at(3600), createdAt: at(0) };
      await store().protection.setExclusion(first);
      expect(await store().protection.findExclusion(playerId)).toEqual(first);
      const second = { playerId, reason: 'operator' as const, endsAt: null, createdAt: at(10) };
      await store().transaction((tx) => tx.protection.setExclusion(second));
      expect(await store().protection.findExclusion(playerId)).toEqual(second);
      expect(await store().protection.deleteExclusion(playerId)).toBe(true);
      expect(await store().protection.deleteExclusion(playerId)).toBe(false);
      expect(await store().protection.findExclusion(playerId)).toBeUndefined();
    });

    it('guards a live round’s insert: refused for a protected player, or one who bought since an instant', async () => {
      const seat = await seedSeat(store());
      const playerId = seat.player.id;
      const live = (createdAt: string) => roundRecord(seat, { status: 'pending', createdAt, endAt: null });
      const insert = (createdAt: string, guards: LiveRoundGuards) =>
        store().transaction((tx) => tx.rounds.insertLiveRound(live(createdAt), undefined, guards));
      const close = async (id: string) => store().rounds.updateRound(id, { status: 'closed' });
      // Nothing stored: both guards pass.
      const first = live(at(0));
      expect(
        await store().rounds.insertLiveRound(first, undefined, { unprotectedAt: at(0), noBuySince: at(-5) }),
      ).toBe(true);
      await close(first.id);
      // A buy at 0 refuses another until 5 s have passed (strictly after the instant given).
      expect(await insert(at(4), { noBuySince: at(-1) })).toBe(false);
      const paced = live(at(5));
      expect(await store().rounds.insertLiveRound(paced, undefined, { noBuySince: at(0) })).toBe(true);
      await close(paced.id);
      // A declined or voided round was no game cycle.
      await seedRound(store(), seat, { status: 'declined', createdAt: at(20) });
      const afterDecline = live(at(21));
      expect(await store().rounds.insertLiveRound(afterDecline, undefined, { noBuySince: at(10) })).toBe(
        true,
      );
      await close(afterDecline.id);
      // Any stored limit, or an exclusion that holds, refuses the unprotected guard only.
      await store().protection.replaceLimits(playerId, [
        { key: 'session-minutes', value: 30, pendingValue: null, pendingAppliesAt: null },
      ]);
      expect(await insert(at(100), { unprotectedAt: at(100) })).toBe(false);
      await store().protection.replaceLimits(playerId, []);
      await store().protection.setExclusion({ playerId, reason: 'self', endsAt: at(200), createdAt: at(0) });
      expect(await insert(at(199), { unprotectedAt: at(199) })).toBe(false);
      const ended = live(at(200));
      expect(await store().rounds.insertLiveRound(ended, undefined, { unprotectedAt: at(200) })).toBe(true);
    });

    it('reads what a protected player’s buy decides on in one answer; records a reality check’s ack', async () => {
      const seat = await seedSeat(store());
      const playerId = seat.player.id;
      const starts = { day: at(100), week: at(50), month: at(10) };
      const read = () =>
        store().protection.buyProtection({ playerId, currency: 'BRL', periodStarts: starts, now: at(200) });
      const none = { bets: 0, prizes: 0, rollbacks: 0 };
      expect(await read()).toEqual({
        limits: [],
        exclusion: null,
        lastBuyAt: null,
        totals: { day: none, week: none, month: none },
      });
      const loss = { key: 'loss:month:BRL', value: 5000, pendingValue: null, pendingAppliesAt: null };
      const minutes = { key: 'session-minutes', value: 30, pendingValue: null, pendingAppliesAt: null };
      await store().protection.replaceLimits(playerId, [loss, minutes]);
      await store().protection.setExclusion({ playerId, reason: 'operator', endsAt: null, createdAt: at(0) });
      const done = { status: 'completed' as const };
      const old = await seedRound(store(), seat, { createdAt: at(5) });
      await seedTransaction(store(), old, { ...done, type: 'bet', amountMinor: -1, createdAt: at(5) });
      const inMonth = await seedRound(store(), seat, { createdAt: at(20) });
      await seedTransaction(store(), inMonth, { ...done, type: 'bet', amountMinor: -500, createdAt: at(20) });
      const inDay = await seedRound(store(), seat, { createdAt: at(150) });
      await seedTransaction(store(), inDay, { ...done, type: 'bet', amountMinor: -500, createdAt: at(150) });
      await seedTransaction(store(), inDay, { ...done, type: 'prize', amountMinor: 300, createdAt: at(151) });
      await seedTransaction(store(), inDay, {
        ...done,
        type: 'bet',
        amountMinor: -7,
        currency: 'USD',
        createdAt: at(150),
      });
      await seedRound(store(), seat, { status: 'voided', createdAt: at(160) });
      expect(await read()).toEqual({
        limits: [loss, minutes],
        exclusion: { reason: 'operator', endsAt: null },
        lastBuyAt: at(150),
        totals: {
          day: { bets: 500, prizes: 300, rollbacks: 0 },
          week: { bets: 500, prizes: 300, rollbacks: 0 },
          month: { bets: 1000, prizes: 300, rollbacks: 0 },
        },
      });
      expect(await store().protection.sessionRounds(playerId, seat.session.id, at(100))).toEqual([
        { status: 'closed', paidMinor: seat.game.betMinor, prizeMinor: 0 },
        { status: 'voided', paidMinor: seat.game.betMinor, prizeMinor: 0 },
      ]);
      expect(
        await store().transaction((tx) => tx.protection.acknowledgeRealityCheck(seat.session.id, at(300))),
      ).toBe(true);
      expect(await store().sessions.findById(seat.session.id)).toEqual({
        ...seat.session,
        realityCheckAckedAt: at(300),
      });
      expect(await store().protection.acknowledgeRealityCheck('no-such-session', at(300))).toBe(false);
    });
  });
}
