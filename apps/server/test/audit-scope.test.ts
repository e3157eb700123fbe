import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditScope, type PendingAudit } from '../src/services/audit-scope.ts';
import type { ProfileRecord } from '../src/store/records.ts';
import { PROFILE_PROTECTION_DEFAULTS } from '../src/store/records.ts';
import type { Store } from '../src/store/store.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * services/audit-scope.ts on the real store (both adapters): a write's audit entry commits in the
 * write's own transaction, or not at all.
 */

let server: TestServer;
let raw: Store;
let audited: Store;
let scope: ReturnType<typeof createAuditScope>;
let clientId: string;

beforeAll(async () => {
  server = await startTestServer();
  raw = server.deps.store;
  scope = createAuditScope(server.deps);
  audited = scope.store(raw);
  clientId = (await server.newClient()).clientId;
});
afterAll(async () => {
  await server?.close();
});

const entry = (operation: string, targetId: string | null = null): PendingAudit => ({
  clientId,
  actor: 'api-key',
  operation,
  ip: '127.0.0.1',
  targetId,
});

function profile(): ProfileRecord {
  const now = server.clock().toISOString();
  return {
    id: server.deps.newId(),
    clientId,
    name: 'Audited',
    type: 'demo',
    currency: 'BRL',
    currencies: null,
    walletUrl: null,
    walletTokenSealed: null,
    allowedOrigins: [],
    ...PROFILE_PROTECTION_DEFAULTS,
    createdAt: now,
    updatedAt: now,
  };
}

const insertProfile = (record: ProfileRecord) =>
  audited.transaction(async (tx) => {
    await tx.profiles.insert(record);
    return record;
  });

const entriesOf = async (operation: string) =>
  (await raw.audit.listByClient(clientId, { pageIndex: 1, pageSize: 100 })).items.filter(
    (row) => row.operation === operation,
  );

describe('the audit scope', () => {
  it('commits the entry with the write’s unit, naming the record the unit created', async () => {
    const record = profile();
    const { result, written } = await scope.run(entry('create'), () => insertProfile(record));
    expect(written).toBe(true);
    expect(result.id).toBe(record.id);
    expect(await raw.profiles.findById(record.id)).toBeDefined();
    expect(await entriesOf('create')).toEqual([
      expect.objectContaining({ clientId, actor: 'api-key', targetId: record.id, ip: '127.0.0.1' }),
    ]);
  });

  it('leaves neither the write nor the entry when the unit fails; a later unit of the write carries it', async () => {
    const lost = profile();
    const kept = profile();
    const { written } = await scope.run(entry('retried', 'path-id'), async () => {
      await expect(
        audited.transaction(async (tx) => {
          await tx.profiles.insert(lost);
          throw new Error('refused inside the unit');
        }),
      ).rejects.toThrow('refused inside the unit');
      await insertProfile(kept);
      // Only the first unit that commits carries it: this one writes no second entry.
      await insertProfile(profile());
    });
    expect(written).toBe(true);
    expect(await raw.profiles.findById(lost.id)).toBeUndefined();
    expect(await raw.profiles.findById(kept.id)).toBeDefined();
    expect((await entriesOf('retried')).map((row) => row.targetId)).toEqual(['path-id']);
  });

  it('takes the write down with it when the entry cannot be written', async () => {
    const record = profile();
    const broken = { ...entry('broken'), actor: 'nobody' as PendingAudit['actor'] };
    await expect(scope.run(broken, () => insertProfile(record))).rejects.toThrow();
    expect(await raw.profiles.findById(record.id)).toBeUndefined();
    expect(await entriesOf('broken')).toEqual([]);
  });

  it('says when no unit carried it, and units after the write or outside any write carry nothing', async () => {
    const late: Array<Promise<unknown>> = [];
    const { written } = await scope.run(entry('no-unit'), async () => {
      // A unit the write leaves behind (a timer) runs after it ended.
      late.push(new Promise((resolve) => setImmediate(resolve)).then(() => insertProfile(profile())));
    });
    expect(written).toBe(false);
    await Promise.all(late);
    await insertProfile(profile());
    expect(await entriesOf('no-unit')).toEqual([]);
  });
});
