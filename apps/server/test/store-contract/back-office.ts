import { describe, expect, it } from 'vitest';
import type { AuditRecord, WalletAttemptRecord } from '../../src/store/records.ts';
import {
  at,
  deliveryAttempt,
  ledgerFilter,
  newId,
  type OpenStore,
  onDay,
  outboxEvent,
  seedClient,
  seedPlayerAt,
  seedRound,
  seedSeat,
  seedTransaction,
  seedWebhook,
  tokenSetRecord,
  useStore,
} from './fixtures.ts';

/**
 * The back office's repository methods (docs/contract.md §11): api-key rotation, the audit log,
 * wallet call attempts, resolving flagged rounds, the reconciliation list, the GGR report and a
 * round's webhook deliveries.
 */
export function describeBackOfficeContract(open: OpenStore): void {
  describe('back office', () => {
    const store = useStore(open);

    const filter = ledgerFilter;

    it('replaces the api-key hash: the old hash finds no client, the new one finds it', async () => {
      const client = await seedClient(store());
      await store().clients.setApiKeyHash(client.id, 'new-hash');
      expect(await store().clients.findClientByApiKeyHash(client.apiKeyHash)).toBeUndefined();
      expect(await store().clients.findClientByApiKeyHash('new-hash')).toEqual({
        ...client,
        apiKeyHash: 'new-hash',
      });
    });

    it('keeps which login a token set came from, and revokes only those of one login when asked', async () => {
      const client = await seedClient(store());
      const byKey = tokenSetRecord(client.id, { via: 'api-key' });
      const byPanel = tokenSetRecord(client.id, { via: 'panel' });
      await store().clients.insertTokenSet(byKey);
      await store().clients.insertTokenSet(byPanel);
      expect(await store().clients.findLiveTokenSet(byPanel.accessHash, at(1))).toEqual(byPanel);
      expect(await store().clients.revokeTokenSets(client.id, at(10), 'api-key')).toBe(1);
      expect(await store().clients.findLiveTokenSet(byKey.accessHash, at(11))).toBeUndefined();
      expect(await store().clients.findLiveTokenSet(byPanel.accessHash, at(11))).toEqual(byPanel);
    });

    it('lists a client’s audit entries newest first, paged, with the total, and no other client’s', async () => {
      const client = await seedClient(store());
      const other = await seedClient(store());
      const entry = (second: number, clientId = client.id): AuditRecord => ({
        id: newId('audit'),
        clientId,
        actor: second === 1 ? 'panel' : 'api-key',
        operation: 'POST /v1/profile',
        targetId: second === 2 ? null : `profile-${second}`,
        ip: '127.0.0.1',
        at: at(second),
      });
      const entries = [entry(0), entry(1), entry(2)];
      for (const written of [...entries, entry(3, other.id)]) await store().audit.insert(written);
      const first = await store().audit.listByClient(client.id, { pageIndex: 1, pageSize: 2 });
      expect(first).toEqual({ items: [entries[2], entries[1]], totalCount: 3 });
      const second = await store().audit.listByClient(client.id, { pageIndex: 2, pageSize: 2 });
      expect(second).toEqual({ items: [entries[0]], totalCount: 3 });
    });

    it('gives a round’s wallet call attempts back oldest first, every field as written', async () => {
      const seat = await seedSeat(store());
      const round = await seedRound(store(), seat);
      const bet = await seedTransaction(store(), round);
      const other = await seedRound(store(), await seedPlayerAt(store(), seat));
      const otherBet = await seedTransaction(store(), other);
      const attempt = (over: Partial<WalletAttemptRecord>): WalletAttemptRecord => ({
        id: newId('attempt'),
        transactionId: bet.id,
        roundId: round.id,
        attempt: 1,
        sentAt: at(0),
        durationMs: 12,
        outcome: 'ok',
        httpStatus: null,
        balanceMinor: 9_500,
        detail: null,
        ...over,
      });
      const late = attempt({
        attempt: 2,
        sentAt: at(5),
        outcome: 'ok',
        balanceMinor: Number.MAX_SAFE_INTEGER,
      });
      const early = attempt({ outcome: 'unknown', balanceMinor: null, detail: 'no answer within 5000 ms' });
      const declined = attempt({
        sentAt: at(3),
        outcome: 'declined',
        httpStatus: 402,
        balanceMinor: null,
        detail: 'INSUFFICIENT_FUNDS: no money',
      });
      for (const a of [late, early, declined]) await store().rounds.insertWalletAttempt(a);
      await store().rounds.insertWalletAttempt(attempt({ transactionId: otherBet.id, roundId: other.id }));
      expect(await store().rounds.walletAttemptsOfRound(round.id)).toEqual([early, declined, late]);
      expect(await store().rounds.walletAttemptsOfRound('no-round')).toEqual([]);
    });

    it('resolves a flagged round once: the flag clears, the resolution is kept; again or unflagged is false', async () => {
      const seat = await seedSeat(store());
      const flagged = await seedRound(store(), seat, { reconciliation: true });
      const plain = await seedRound(store(), await seedPlayerAt(store(), seat));
      const resolution = {
        roundId: flagged.id,
        resolution: 'paid' as const,
        note: 'paid by hand, ticket 42',
        resolvedAt: at(9),
      };
      expect(await store().rounds.resolveFlagged(resolution)).toBe(true);
      expect((await store().rounds.findRound(flagged.id))?.reconciliation).toBe(false);
      expect(await store().rounds.findResolution(flagged.id)).toEqual(resolution);
      expect(
        await store().rounds.resolveFlagged({ ...resolution, resolution: 'written-off', resolvedAt: at(10) }),
      ).toBe(false);
      expect(await store().rounds.findResolution(flagged.id)).toEqual(resolution);
      expect(await store().rounds.resolveFlagged({ ...resolution, roundId: plain.id })).toBe(false);
      expect(await store().rounds.findResolution(plain.id)).toBeUndefined();
    });

    it('lists a client’s flagged rounds, newest first, with their transactions, and drops resolved ones', async () => {
      const seat = await seedSeat(store());
      const theirs = await seedSeat(store());
      const old = await seedRound(store(), seat, { reconciliation: true, createdAt: at(1) });
      const oldBet = await seedTransaction(store(), old, { status: 'failed' });
      const recent = await seedRound(store(), await seedPlayerAt(store(), seat), {
        reconciliation: true,
        createdAt: at(2),
      });
      await seedRound(store(), await seedPlayerAt(store(), seat), { createdAt: at(3) });
      await seedRound(store(), theirs, { reconciliation: true });
      const page = await store().ledger.listFlaggedRounds(seat.client.id, { pageIndex: 1, pageSize: 10 });
      expect(page.totalCount).toBe(2);
      expect(page.items.map((round) => round.id)).toEqual([recent.id, old.id]);
      expect(page.items[1]?.transactions.map((t) => [t.id, t.status])).toEqual([[oldBet.id, 'failed']]);
      await store().rounds.resolveFlagged({
        roundId: old.id,
        resolution: 'written-off',
        note: '',
        resolvedAt: at(5),
      });
      const after = await store().ledger.listFlaggedRounds(seat.client.id, { pageIndex: 1, pageSize: 10 });
      expect(after.items.map((round) => round.id)).toEqual([recent.id]);
      expect(after.totalCount).toBe(1);
    });

    it('reports the completed bets, prizes and rollbacks per key and currency, the filter applied', async () => {
      const seat = await seedSeat(store());
      const usd = await seedSeat(store(), { client: seat.client, game: { currency: 'USD' } });
      const theirs = await seedSeat(store());
      const r1 = await seedRound(store(), seat, { createdAt: onDay(0, 10) });
      await seedTransaction(store(), r1, { status: 'completed', amountMinor: -500 });
      await seedTransaction(store(), r1, {
        type: 'prize',
        status: 'completed',
        amountMinor: 2_000,
        createdAt: onDay(1, 5),
      });
      const r2 = await seedRound(store(), seat, { createdAt: onDay(1, 10) });
      await seedTransaction(store(), r2, { status: 'completed', amountMinor: -500 });
      await seedTransaction(store(), r2, { type: 'rollback', status: 'completed', amountMinor: 500 });
      const r3 = await seedRound(store(), seat, { createdAt: onDay(1, 20) });
      await seedTransaction(store(), r3, { status: 'failed', amountMinor: -500 });
      await seedTransaction(store(), r3, { type: 'rollback', status: 'declined', amountMinor: 500 });
      const r4 = await seedRound(store(), usd, { createdAt: onDay(1, 30) });
      await seedTransaction(store(), r4, { status: 'completed', amountMinor: -300 });
      await seedTransaction(store(), r4, { type: 'prize', status: 'pending', amountMinor: 900 });
      const r5 = await seedRound(store(), theirs, { createdAt: onDay(1, 40) });
      await seedTransaction(store(), r5, { status: 'completed', amountMinor: -700 });

      const row = (key: string, currency: string, over: object) => ({
        key,
        currency,
        rounds: 0,
        players: 0,
        betsMinor: 0,
        prizesMinor: 0,
        rollbacksMinor: 0,
        promoRounds: 0,
        promoPrizesMinor: 0,
        ...over,
      });
      expect(await store().ledger.report(filter(seat.client.id), 'day')).toEqual([
        row('2030-01-01', 'BRL', { rounds: 1, players: 1, betsMinor: 500 }),
        row('2030-01-02', 'BRL', {
          rounds: 1,
          players: 1,
          betsMinor: 500,
          prizesMinor: 2_000,
          rollbacksMinor: 500,
        }),
        row('2030-01-02', 'USD', { rounds: 1, players: 1, betsMinor: 300 }),
      ]);
      expect(await store().ledger.report(filter(seat.client.id), 'currency')).toEqual([
        row('BRL', 'BRL', {
          rounds: 2,
          players: 1,
          betsMinor: 1_000,
          prizesMinor: 2_000,
          rollbacksMinor: 500,
        }),
        row('USD', 'USD', { rounds: 1, players: 1, betsMinor: 300 }),
      ]);
      expect(await store().ledger.report(filter(seat.client.id), 'game')).toEqual(
        [
          row(seat.game.id, 'BRL', {
            rounds: 2,
            players: 1,
            betsMinor: 1_000,
            prizesMinor: 2_000,
            rollbacksMinor: 500,
          }),
          row(usd.game.id, 'USD', { rounds: 1, players: 1, betsMinor: 300 }),
        ].sort((a, b) => (a.key < b.key ? -1 : 1)),
      );
      expect(
        await store().ledger.report(filter(seat.client.id, { profileId: usd.profile.id }), 'player'),
      ).toEqual([row(usd.player.id, 'USD', { rounds: 1, players: 1, betsMinor: 300 })]);
      expect(
        await store().ledger.report(filter(seat.client.id, { from: onDay(1), before: onDay(2) }), 'day'),
      ).toHaveLength(2);
      expect(await store().ledger.report(filter('nobody'), 'day')).toEqual([]);
    });

    it('gives every delivery attempt of a round’s events, at any webhook, oldest first', async () => {
      const seat = await seedSeat(store());
      const round = await seedRound(store(), seat);
      const other = await seedRound(store(), await seedPlayerAt(store(), seat));
      const first = await seedWebhook(store(), seat.client.id);
      const second = await seedWebhook(store(), seat.client.id);
      const open = outboxEvent(first.id, round.id);
      const openElsewhere = outboxEvent(second.id, round.id);
      const unrelated = outboxEvent(first.id, other.id);
      for (const event of [open, openElsewhere, unrelated]) await store().outbox.insert(event);
      const a = await store().webhooks.recordAttempt(
        deliveryAttempt(first.id, { eventId: open.id, timestamp: at(1), success: false, willRetry: true }),
      );
      const b = await store().webhooks.recordAttempt(
        deliveryAttempt(second.id, { eventId: openElsewhere.id, timestamp: at(2) }),
      );
      const c = await store().webhooks.recordAttempt(
        deliveryAttempt(first.id, { eventId: open.id, timestamp: at(3), retryCount: 1 }),
      );
      await store().webhooks.recordAttempt(
        deliveryAttempt(first.id, { eventId: unrelated.id, timestamp: at(4) }),
      );
      const found = await store().webhooks.deliveriesOfRound(round.id);
      expect(found.map((d) => d.id)).toEqual([a.id, b.id, c.id]);
      // The first attempt's row was closed by the next one (docs/contract.md §7).
      expect(found[0]).toEqual({ ...a, status: 'failed', payload: open.payload });
      expect(found[2]).toEqual({ ...c, payload: open.payload });
    });
  });
}
