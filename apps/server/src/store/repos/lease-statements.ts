import type { Exec } from '../dialect/exec.ts';
import { statement } from '../dialect/statement.ts';

/** A lease table: one row per leased thing, naming its owner and when the lease runs out. */
export interface LeaseTable {
  table: 'webhook_leases' | 'audit_leases';
  key: 'webhook_id' | 'client_id';
}

/**
 * One process at a time per key, whatever the number of instances. The claim is one upsert: a second
 * claimer at once waits on the row lock (PostgreSQL; SQLite's batch holds the database), then sees the
 * lease the first one took and changes nothing (0 rows). The owner renews by claiming again.
 */
export function leaseStatements({ table, key }: LeaseTable) {
  const claim = statement<{ key: string; owner: string; now: string; until: string }>(
    `INSERT INTO ${table} (${key}, owner, expires_at) VALUES (:key, :owner, :until)
     ON CONFLICT (${key}) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
     WHERE ${table}.owner = excluded.owner OR ${table}.expires_at <= :now`,
  );
  const release = statement<{ key: string; owner: string }>(
    `DELETE FROM ${table} WHERE ${key} = :key AND owner = :owner`,
  );
  return (x: Exec) => ({
    claim: async (leased: string, owner: string, now: string, until: string) =>
      (await x.run(claim, { key: leased, owner, now, until })) === 1,
    release: async (leased: string, owner: string) => void (await x.run(release, { key: leased, owner })),
  });
}
