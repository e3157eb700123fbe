import { describe, expect, it } from 'vitest';
import type { ApiClientRecord } from '../../src/store/records.ts';
import {
  at,
  captchaRecord,
  clientRecord,
  deliveryAttempt,
  gameRecord,
  type OpenStore,
  outboxEvent,
  profileRecord,
  resetTokenRecord,
  seedClient,
  seedGame,
  seedPool,
  seedProfile,
  seedRound,
  seedSeat,
  seedWebhook,
  tokenSetRecord,
  useStore,
} from './fixtures.ts';

const ALL = { pageIndex: 1, pageSize: 100 };

/** A promise and the function that settles it: how a test holds a unit open at a known point. */
function gate() {
  let open = () => {};
  const passed = new Promise<void>((resolve) => (open = resolve));
  return { passed, open };
}

/** Store.transaction: all-or-nothing units, their callbacks, nesting and concurrency. */
export function describeTransactionContract(open: OpenStore): void {
  describe('Store.transaction', () => {
    const store = useStore(open);
    const exists = async (client: ApiClientRecord) =>
      (await store().clients.findClientById(client.id)) !== undefined;

    it('resolves with the value the work returns', async () => {
      expect(await store().transaction(async () => 42)).toBe(42);
      const client = clientRecord();
      expect(
        await store().transaction(async (tx) => {
          await tx.clients.insertClient(client);
          return { inserted: client.id };
        }),
      ).toEqual({ inserted: client.id });
    });

    it('commits every write of the unit, across repositories', async () => {
      const client = clientRecord();
      const profile = profileRecord(client.id);
      const tokens = tokenSetRecord(client.id);
      await store().transaction(async (tx) => {
        await tx.clients.insertClient(client);
        await tx.profiles.insert(profile);
        await tx.clients.insertTokenSet(tokens);
      });
      expect(await store().clients.findClientById(client.id)).toEqual(client);
      expect(await store().profiles.findById(profile.id)).toEqual(profile);
      expect(await store().clients.findLiveTokenSet(tokens.accessHash, tokens.createdAt)).toEqual(tokens);
    });

    it('rolls back every write of a unit that throws, and the error reaches the caller', async () => {
      const kept = await seedClient(store());
      const client = clientRecord();
      const profile = profileRecord(client.id);
      const failure = new Error('the work failed');
      const unit = store().transaction(async (tx) => {
        await tx.clients.insertClient(client);
        await tx.profiles.insert(profile);
        await tx.clients.setPasswordHash(kept.id, 'changed');
        throw failure;
      });
      await expect(unit).rejects.toBe(failure);
      expect(await exists(client)).toBe(false);
      expect(await store().profiles.findById(profile.id)).toBeUndefined();
      expect(await store().clients.findClientById(kept.id)).toEqual(kept);
      expect(await store().clients.countClients()).toBe(1);
    });

    it('rolls back the unit’s earlier writes when one of its calls is refused', async () => {
      const seat = await seedSeat(store());
      const client = clientRecord();
      const unit = store().transaction(async (tx) => {
        await tx.clients.insertClient(client);
        await tx.games.insert(gameRecord(seat.profile, { version: 2, active: true }));
      });
      await expect(unit).rejects.toThrow();
      expect(await exists(client)).toBe(false);
      expect(await store().games.listByProfile(seat.profile.id)).toEqual([seat.game]);
    });

    it('rolls back the writes of every repository, counters and single-use marks included', async () => {
      const seat = await seedSeat(store());
      const pool = await seedPool(store(), seat.game, { sampling: 10 });
      const round = await seedRound(store(), seat, { status: 'open' });
      const webhook = await seedWebhook(store(), seat.client.id);
      const event = outboxEvent(webhook.id, round.id);
      await store().outbox.insert(event);
      const queued = await store().outbox.findById(event.id);
      const tokens = tokenSetRecord(seat.client.id);
      await store().clients.insertTokenSet(tokens);
      const reset = resetTokenRecord(seat.client.id);
      await store().resets.insertResetToken(reset);
      const captcha = captchaRecord();
      await store().resets.insertCaptcha(captcha);
      const claim = {
        clientId: seat.client.id,
        key: 'k',
        fingerprint: 'fp',
        createdAt: at(0),
        expiresAt: at(999),
      };
      await store().idempotency.insertClaim(claim);
      await store().demoWallet.insertAccount(seat.player.id, 'BRL', 1000);
      const claimed = await store().idempotency.find(seat.client.id, 'k');

      await expect(
        store().transaction(async (tx) => {
          await tx.pools.takeBlock(pool.id, 'me', 4, at(1), at(2));
          await tx.rounds.updateRound(round.id, { status: 'closed', poolId: pool.id, drawIndex: 0 });
          await tx.rounds.updatePlayer(seat.player.id, 'BRL', 1, 1, 1);
          await tx.webhooks.recordAttempt(deliveryAttempt(webhook.id, { eventId: event.id }));
          await tx.webhooks.softDelete(webhook.id, at(1));
          await tx.outbox.markDelivered(event.id, 1);
          await tx.outbox.insert(outboxEvent(webhook.id, round.id));
          await tx.clients.revokeTokenSets(seat.client.id, at(1));
          expect(await tx.resets.useResetToken(reset.tokenHash, at(1))).toBeDefined();
          expect(await tx.resets.useCaptcha(captcha.id, at(1))).toBeDefined();
          expect(
            await tx.idempotency.complete(seat.client.id, 'k', {
              status: 200,
              body: '{}',
              completedAt: at(1),
            }),
          ).toBe(true);
          await tx.demoWallet.setBalance(seat.player.id, 'BRL', 0);
          await tx.games.setActive(seat.game.id, false);
          throw new Error('undo it all');
        }),
      ).rejects.toThrow('undo it all');

      expect(await store().pools.findById(pool.id)).toEqual(pool);
      expect(await store().rounds.findRound(round.id)).toEqual(round);
      expect(await store().players.findById(seat.player.id)).toEqual(seat.player);
      expect(await store().players.balanceIn(seat.player.id, 'BRL')).toBeUndefined();
      expect(await store().webhooks.findById(webhook.id)).toEqual(webhook);
      expect(
        (await store().webhooks.listDeliveries(webhook.id, { status: null, from: null, before: null }, ALL))
          .totalCount,
      ).toBe(0);
      expect(await store().outbox.findById(event.id)).toEqual(queued);
      expect(await store().ops.webhookBacklog()).toEqual({ queued: 1, oldestCreatedAt: event.createdAt });
      expect(await store().clients.findLiveTokenSet(tokens.accessHash, at(2))).toEqual(tokens);
      expect(await store().resets.findLiveResetToken(reset.tokenHash, at(2))).toEqual(reset);
      expect(await store().resets.useCaptcha(captcha.id, at(2))).toEqual({ ...captcha, usedAt: at(2) });
      expect(await store().idempotency.find(seat.client.id, 'k')).toEqual(claimed);
      expect(await store().demoWallet.findBalance(seat.player.id, 'BRL')).toBe(1000);
      expect(await store().games.findById(seat.game.id)).toEqual(seat.game);
    });

    it('lets the unit read its own writes', async () => {
      const client = clientRecord();
      const seen = await store().transaction(async (tx) => {
        await tx.clients.insertClient(client);
        await tx.clients.setPasswordHash(client.id, 'hash-in-unit');
        const profile = await seedProfile(tx, client.id);
        return {
          client: await tx.clients.findClientById(client.id),
          count: await tx.clients.countClients(),
          profiles: await tx.profiles.listByClient(client.id, { pageIndex: 1, pageSize: 10 }),
          profile,
        };
      });
      expect(seen).toEqual({
        client: { ...client, passwordHash: 'hash-in-unit' },
        count: 1,
        profiles: { items: [seen.profile], totalCount: 1 },
        profile: seen.profile,
      });
    });

    it('shows no write of an open unit to a call from outside it', async () => {
      const client = clientRecord();
      const written = gate();
      const release = gate();
      const unit = store().transaction(async (tx) => {
        await tx.clients.insertClient(client);
        written.open();
        await release.passed;
        throw new Error('undone');
      });
      await written.passed;
      const outside = store().clients.findClientById(client.id);
      const count = store().clients.countClients();
      release.open();
      await expect(unit).rejects.toThrow('undone');
      expect(await outside).toBeUndefined();
      expect(await count).toBe(0);
    });

    it('runs afterCommit callbacks once the unit committed, in order, seeing its writes', async () => {
      const client = clientRecord();
      const calls: string[] = [];
      let seen: Promise<ApiClientRecord | undefined> | undefined;
      await store().transaction(async (tx) => {
        await tx.clients.insertClient(client);
        tx.afterCommit(() => {
          calls.push('first');
          seen = store().clients.findClientById(client.id);
        });
        tx.afterCommit(() => calls.push('second'));
        expect(calls).toEqual([]);
      });
      expect(calls).toEqual(['first', 'second']);
      expect(await seen).toEqual(client);
    });

    it('never runs afterCommit of a unit that rolled back', async () => {
      const calls: string[] = [];
      await expect(
        store().transaction(async (tx) => {
          tx.afterCommit(() => calls.push('undone'));
          await tx.clients.insertClient(clientRecord());
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(calls).toEqual([]);
    });

    it('rolls back a nested unit alone when it throws and the work catches it', async () => {
      const before = clientRecord();
      const inner = clientRecord();
      const after = clientRecord();
      const calls: string[] = [];
      const caught = await store().transaction(async (tx) => {
        await tx.clients.insertClient(before);
        const error = await store()
          .transaction(async (nested) => {
            await nested.clients.insertClient(inner);
            await nested.clients.setPasswordHash(before.id, 'from-inner');
            nested.afterCommit(() => calls.push('inner'));
            throw new Error('inner failed');
          })
          .catch((reason: unknown) => reason);
        await tx.clients.insertClient(after);
        return (error as Error).message;
      });
      expect(caught).toBe('inner failed');
      expect(await store().clients.findClientById(before.id)).toEqual(before);
      expect(await exists(inner)).toBe(false);
      expect(await exists(after)).toBe(true);
      expect(calls).toEqual([]);
    });

    it('commits a nested unit with the outer one: its value, writes and callbacks', async () => {
      const outer = clientRecord();
      const inner = clientRecord();
      const calls: string[] = [];
      const value = await store().transaction(async (tx) => {
        await tx.clients.insertClient(outer);
        const nestedValue = await store().transaction(async (nested) => {
          await nested.clients.insertClient(inner);
          nested.afterCommit(() => calls.push('inner'));
          return 'nested value';
        });
        expect(calls).toEqual([]); // the outer unit has not committed yet
        expect(await tx.clients.findClientById(inner.id)).toEqual(inner);
        tx.afterCommit(() => calls.push('outer'));
        return nestedValue;
      });
      expect(value).toBe('nested value');
      expect(await exists(outer)).toBe(true);
      expect(await exists(inner)).toBe(true);
      expect([...calls].sort()).toEqual(['inner', 'outer']);
    });

    it('nests units two deep: the innermost rolls back alone, the middle one commits', async () => {
      const outer = clientRecord();
      const middle = clientRecord();
      const innermost = clientRecord();
      await store().transaction(async (tx) => {
        await tx.clients.insertClient(outer);
        await store().transaction(async (nested) => {
          await nested.clients.insertClient(middle);
          await store()
            .transaction(async (deepest) => {
              await deepest.clients.insertClient(innermost);
              throw new Error('innermost failed');
            })
            .catch(() => {});
          expect(await nested.clients.findClientById(innermost.id)).toBeUndefined();
        });
      });
      expect(await Promise.all([outer, middle, innermost].map(exists))).toEqual([true, true, false]);
    });

    it('keeps concurrent nested units of one unit apart: a failing one undoes only its own writes', async () => {
      const failing = clientRecord();
      const kept = clientRecord();
      const calls: string[] = [];
      const outcomes = await store().transaction(async () =>
        Promise.allSettled([
          store().transaction(async (nested) => {
            await nested.clients.insertClient(failing);
            nested.afterCommit(() => calls.push('failing'));
            await null; // yields while the other nested unit starts
            throw new Error('nested failed');
          }),
          store().transaction(async (nested) => {
            await nested.clients.insertClient(kept);
            nested.afterCommit(() => calls.push('kept'));
            await null;
            return 'kept';
          }),
        ]),
      );
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'fulfilled']);
      expect(await exists(failing)).toBe(false);
      expect(await exists(kept)).toBe(true);
      expect(calls).toEqual(['kept']);
    });

    it('undoes a committed nested unit when the outer one throws, and runs none of its callbacks', async () => {
      const inner = clientRecord();
      const calls: string[] = [];
      await expect(
        store().transaction(async () => {
          await store().transaction(async (nested) => {
            await nested.clients.insertClient(inner);
            nested.afterCommit(() => calls.push('inner'));
          });
          throw new Error('outer failed');
        }),
      ).rejects.toThrow('outer failed');
      expect(await exists(inner)).toBe(false);
      expect(calls).toEqual([]);
    });

    it('commits every one of concurrent units, each answered with its own value', async () => {
      const clients = Array.from({ length: 20 }, () => clientRecord());
      const values = await Promise.all(
        clients.map((client, i) =>
          store().transaction(async (tx) => {
            await tx.clients.insertClient(client);
            return i;
          }),
        ),
      );
      expect(values).toEqual(clients.map((_, i) => i));
      expect(await store().clients.countClients()).toBe(20);
      for (const client of clients) expect(await store().clients.findClientById(client.id)).toEqual(client);
    });

    it('undoes only the failing one of concurrent units', async () => {
      const clients = Array.from({ length: 5 }, () => clientRecord());
      const results = await Promise.allSettled(
        clients.map((client, i) =>
          store().transaction(async (tx) => {
            await tx.clients.insertClient(client);
            if (i === 2) throw new Error('unit 2 failed');
          }),
        ),
      );
      expect(results.map((result) => result.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
        'fulfilled',
      ]);
      expect(await Promise.all(clients.map(exists))).toEqual([true, true, false, true, true]);
    });

    it('runs concurrent units as if one after another: a read-then-write loses no update', async () => {
      const seat = await seedSeat(store());
      await store().demoWallet.insertAccount(seat.player.id, 'BRL', 0);
      await Promise.all(
        Array.from({ length: 10 }, () =>
          store().transaction(async (tx) => {
            const balance = (await tx.demoWallet.findBalance(seat.player.id, 'BRL')) ?? 0;
            await tx.demoWallet.setBalance(seat.player.id, 'BRL', balance + 1);
          }),
        ),
      );
      expect(await store().demoWallet.findBalance(seat.player.id, 'BRL')).toBe(10);
    });

    it('lets concurrent units check-then-insert once: one active game per (profile, model)', async () => {
      const client = await seedClient(store());
      const profile = await seedProfile(store(), client.id);
      await seedGame(store(), profile, { version: 1, active: false });
      const results = await Promise.allSettled(
        [2, 3, 4].map((version) =>
          store().transaction(async (tx) => {
            if (await tx.games.findActive(profile.id, 'oxe-ganhei')) return 'exists';
            await tx.games.insert(gameRecord(profile, { version, active: true }));
            return 'inserted';
          }),
        ),
      );
      const outcomes = results.map((result) => (result.status === 'fulfilled' ? result.value : 'refused'));
      expect(outcomes.filter((outcome) => outcome === 'inserted')).toHaveLength(1);
      expect((await store().games.listByProfile(profile.id)).filter((game) => game.active)).toHaveLength(1);
    });
  });
}
