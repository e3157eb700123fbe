import { describe, expect, it } from 'vitest';
import type { SubscribersEvent } from '../../src/store/records.ts';
import {
  at,
  MAX_MINOR,
  newId,
  type OpenStore,
  seedClient,
  seedRound,
  seedSeat,
  seedTransaction,
  seedWebhook,
  useStore,
} from './fixtures.ts';

/**
 * What a round's unit builds its webhook event from and queues it with, each one statement
 * (issue 23): rounds.findHeldRound, rounds.updatePlayer's answer, outbox.insertForSubscribers.
 */
export function describeRoundEventsContract(open: OpenStore): void {
  describe('a round’s event: what it is built from', () => {
    const store = useStore(open);

    it('findHeldRound gives the round, its calls and its player as the round’s detail reads them', async () => {
      const seat = await seedSeat(store(), { profile: { currency: 'BRL' }, player: { balanceMinor: 100 } });
      const round = await seedRound(store(), seat, { status: 'closing', cardJson: '{"c":1}', level: 2 });
      // Inserted newest first: the calls come back oldest first, then by id.
      const prize = await seedTransaction(store(), round, {
        type: 'prize',
        amountMinor: MAX_MINOR,
        createdAt: at(5),
        lastError: 'kept out of the event',
      });
      const bet = await seedTransaction(store(), round, {
        status: 'completed',
        balanceBeforeMinor: 1_500,
        balanceAfterMinor: 1_000,
      });
      await store().rounds.updatePlayer(seat.player.id, 'BRL', 1_000, 1, 0);
      const held = await store().rounds.findHeldRound(round.id);
      const detail = await store().ledger.findRoundDetail(round.id);
      expect(held?.round).toEqual(round);
      expect(held?.calls).toEqual(detail?.transactions);
      expect(held?.calls.map((call) => call.id)).toEqual([bet.id, prize.id]);
      expect(held?.player).toEqual(detail?.player);
      expect(held?.player).toMatchObject({ balanceMinor: 1_000, totalBets: 1, betWins: 0 });
    });

    it('findHeldRound: no calls yet, a balance only in another currency, and an unknown round', async () => {
      const seat = await seedSeat(store(), { profile: { currency: 'BRL' }, player: { balanceMinor: 700 } });
      const round = await seedRound(store(), seat, { currency: 'USD', status: 'pending' });
      const held = await store().rounds.findHeldRound(round.id);
      expect(held?.calls).toEqual([]);
      expect(held?.player).toEqual((await store().ledger.findRoundDetail(round.id))?.player);
      expect(held?.player).toMatchObject({ balanceMinor: 0, balanceCurrency: 'USD' });
      expect(await store().rounds.findHeldRound('no-such-round')).toBeUndefined();
    });

    it('updatePlayer answers the player as a round in that currency shows it after the change', async () => {
      const seat = await seedSeat(store(), { profile: { currency: 'BRL' } });
      const round = await seedRound(store(), seat, { currency: 'USD' });
      await store().rounds.updatePlayer(seat.player.id, 'BRL', 5, 3, 1);
      const answered = await store().rounds.updatePlayer(seat.player.id, 'USD', MAX_MINOR, 1, 1);
      expect(answered).toEqual((await store().ledger.findRoundDetail(round.id))?.player);
      expect(answered).toMatchObject({ balanceMinor: MAX_MINOR, totalBets: 4, betWins: 2 });
    });
  });

  describe('a round’s event: queued for its subscribers (outbox.insertForSubscribers)', () => {
    const store = useStore(open);

    const eventOf = (clientId: string, roundId: string, over: Partial<SubscribersEvent> = {}) => ({
      id: newId('event'),
      clientId,
      roundId,
      eventType: 'close-round' as const,
      payload: { _id: roundId, amounts: [1.5, -2], none: null, text: 'ç"\\' },
      at: at(9),
      ...over,
    });

    it('queues one event per live, active, subscribed webhook of the client, ids by creation', async () => {
      const seat = await seedSeat(store());
      const round = await seedRound(store(), seat);
      const clientId = seat.client.id;
      const other = await seedClient(store());
      const second = await seedWebhook(store(), clientId, { createdAt: at(2) });
      const first = await seedWebhook(store(), clientId, { createdAt: at(1) });
      await seedWebhook(store(), clientId, { status: 'disabled' });
      await seedWebhook(store(), clientId, { deletedAt: at(3) });
      await seedWebhook(store(), clientId, { eventTriggers: ['open-round'] });
      await seedWebhook(store(), other.id);
      const event = eventOf(clientId, round.id);
      const ids = await store().outbox.insertForSubscribers(event);
      expect(ids).toEqual([event.id, `${event.id}.2`]);
      const queued = await Promise.all(ids.map((id) => store().outbox.findById(id)));
      expect(queued).toEqual([
        expect.objectContaining({ id: ids[0], webhookId: first.id }),
        expect.objectContaining({ id: ids[1], webhookId: second.id }),
      ]);
      for (const row of queued) {
        expect(row).toMatchObject({
          roundId: round.id,
          eventType: 'close-round',
          payload: event.payload,
          status: 'queued',
          attempts: 0,
          nextAttemptAt: event.at,
          firstFailureAt: null,
          createdAt: event.at,
        });
      }
      expect(JSON.stringify(queued[0]?.payload)).toBe(JSON.stringify(event.payload));
    });

    it('queues nothing when no webhook subscribes, and nothing from a unit rolled back', async () => {
      const seat = await seedSeat(store());
      const round = await seedRound(store(), seat);
      const hook = await seedWebhook(store(), seat.client.id, { eventTriggers: ['open-round'] });
      expect(await store().outbox.insertForSubscribers(eventOf(seat.client.id, round.id))).toEqual([]);
      const event = eventOf(seat.client.id, round.id, { eventType: 'open-round' });
      await expect(
        store().transaction(async (tx) => {
          expect(await tx.outbox.insertForSubscribers(event)).toEqual([event.id]);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await store().outbox.findById(event.id)).toBeUndefined();
      expect(await store().outbox.queuedHead(hook.id, [], 10)).toEqual([]);
    });
  });
}
