import { describe, expect, it } from 'vitest';
import { at, clientRecord, type OpenStore, seedClient, tokenSetRecord, useStore } from './fixtures.ts';

/** ClientsRepo: API clients and their token sets. */
export function describeClientsContract(open: OpenStore): void {
  describe('clients', () => {
    const store = useStore(open);

    it('gives an inserted client back by id, every field as written', async () => {
      const client = clientRecord({ passwordHash: null, lang: 'pt' });
      await store().clients.insertClient(client);
      expect(await store().clients.findClientById(client.id)).toEqual(client);
    });

    it('finds nothing for an unknown id, api-key hash or e-mail', async () => {
      await seedClient(store());
      expect(await store().clients.findClientById('nobody')).toBeUndefined();
      expect(await store().clients.findClientByApiKeyHash('no-such-hash')).toBeUndefined();
      expect(await store().clients.findClientByEmail('nobody@example.test')).toBeUndefined();
    });

    it('finds a client by its api-key hash', async () => {
      const client = await seedClient(store(), { passwordHash: 'argon2-hash' });
      await seedClient(store());
      expect(await store().clients.findClientByApiKeyHash(client.apiKeyHash)).toEqual(client);
    });

    it('finds a client by e-mail, ignoring case (the panel logs in with any spelling)', async () => {
      const client = await seedClient(store(), { email: 'Ana.Silva@Example.test' });
      expect(await store().clients.findClientByEmail('Ana.Silva@Example.test')).toEqual(client);
      expect(await store().clients.findClientByEmail('ana.silva@example.test')).toEqual(client);
      expect(await store().clients.findClientByEmail('ANA.SILVA@EXAMPLE.TEST')).toEqual(client);
    });

    it('refuses a second client with the same e-mail in another case, or the same api-key hash', async () => {
      const client = await seedClient(store(), { email: 'ops@example.test' });
      await expect(
        store().clients.insertClient(clientRecord({ email: 'OPS@example.test' })),
      ).rejects.toThrow();
      await expect(
        store().clients.insertClient(clientRecord({ apiKeyHash: client.apiKeyHash })),
      ).rejects.toThrow();
      expect(await store().clients.countClients()).toBe(1);
    });

    it('counts clients: 0 on an empty store, then one per insert', async () => {
      expect(await store().clients.countClients()).toBe(0);
      await seedClient(store());
      await seedClient(store());
      expect(await store().clients.countClients()).toBe(2);
    });

    it('sets a password hash on that client only', async () => {
      const client = await seedClient(store());
      const other = await seedClient(store());
      await store().clients.setPasswordHash(client.id, '$argon2id$new');
      expect(await store().clients.findClientById(client.id)).toEqual({
        ...client,
        passwordHash: '$argon2id$new',
      });
      expect(await store().clients.findClientById(other.id)).toEqual(other);
    });
  });

  describe('token sets', () => {
    const store = useStore(open);

    it('finds a live token set by access hash, every field as written', async () => {
      const client = await seedClient(store());
      const tokens = tokenSetRecord(client.id, { expireAt: at(3600) });
      await store().clients.insertTokenSet(tokens);
      expect(await store().clients.findLiveTokenSet(tokens.accessHash, at(10))).toEqual(tokens);
    });

    it('ignores an expired token set: expireAt at or before now', async () => {
      const client = await seedClient(store());
      const tokens = tokenSetRecord(client.id, { expireAt: at(3600) });
      await store().clients.insertTokenSet(tokens);
      expect(await store().clients.findLiveTokenSet(tokens.accessHash, at(3599))).toEqual(tokens);
      expect(await store().clients.findLiveTokenSet(tokens.accessHash, at(3600))).toBeUndefined();
      expect(await store().clients.findLiveTokenSet(tokens.accessHash, at(3601))).toBeUndefined();
    });

    it('ignores a revoked token set', async () => {
      const client = await seedClient(store());
      const tokens = tokenSetRecord(client.id, { revokedAt: at(5) });
      await store().clients.insertTokenSet(tokens);
      expect(await store().clients.findLiveTokenSet(tokens.accessHash, at(10))).toBeUndefined();
    });

    it('finds nothing for an unknown access hash', async () => {
      const client = await seedClient(store());
      await store().clients.insertTokenSet(tokenSetRecord(client.id));
      expect(await store().clients.findLiveTokenSet('unknown', at(10))).toBeUndefined();
    });

    it('revokes every unrevoked token set of one client, returning how many, and no other', async () => {
      const client = await seedClient(store());
      const other = await seedClient(store());
      const first = tokenSetRecord(client.id);
      const second = tokenSetRecord(client.id);
      const earlier = tokenSetRecord(client.id, { revokedAt: at(1) });
      const theirs = tokenSetRecord(other.id);
      for (const tokens of [first, second, earlier, theirs]) await store().clients.insertTokenSet(tokens);

      expect(await store().clients.revokeTokenSets(client.id, at(20))).toBe(2);
      expect(await store().clients.findLiveTokenSet(first.accessHash, at(21))).toBeUndefined();
      expect(await store().clients.findLiveTokenSet(second.accessHash, at(21))).toBeUndefined();
      expect(await store().clients.findLiveTokenSet(theirs.accessHash, at(21))).toEqual(theirs);
      expect(await store().clients.revokeTokenSets(client.id, at(30))).toBe(0);
    });

    it('revokes one token set (a sign-out), true once, leaving the client’s others live', async () => {
      const client = await seedClient(store());
      const mine = tokenSetRecord(client.id);
      const other = tokenSetRecord(client.id);
      for (const tokens of [mine, other]) await store().clients.insertTokenSet(tokens);
      expect(await store().clients.revokeTokenSet(mine.id, at(20))).toBe(true);
      expect(await store().clients.findLiveTokenSet(mine.accessHash, at(21))).toBeUndefined();
      expect(await store().clients.findLiveTokenSet(other.accessHash, at(21))).toEqual(other);
      expect(await store().clients.revokeTokenSet(mine.id, at(30))).toBe(false);
      expect(await store().clients.revokeTokenSet('no-such-token-set', at(30))).toBe(false);
    });

    it('refuses a second token set with the same access hash', async () => {
      const client = await seedClient(store());
      const tokens = tokenSetRecord(client.id);
      await store().clients.insertTokenSet(tokens);
      await expect(
        store().clients.insertTokenSet(tokenSetRecord(client.id, { accessHash: tokens.accessHash })),
      ).rejects.toThrow();
    });
  });
}
