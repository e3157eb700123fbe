import { describe, expect, it } from 'vitest';
import type { StoredLimitRecord } from '../../src/store/records.ts';
import {
  at,
  type OpenStore,
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
  });
}
