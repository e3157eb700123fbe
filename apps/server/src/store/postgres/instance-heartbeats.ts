import type pg from 'pg';
import { decideWriteGeneration, type GenerationDecision, HEARTBEAT_TTL_MS } from '../write-generation.ts';

/** An instance as the database knows it: its id (random per process) and its build's generation. */
export interface InstanceIdentity {
  id: string;
  generation: number;
}

/** The database's clock, in epoch milliseconds: instances on several machines compare one clock. */
const DB_NOW_MS = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

/**
 * What an instance does on this database (store/write-generation.ts), read under the migration
 * lock so that two instances starting together decide one after the other. A database before
 * migration 024 has no minimum and no heartbeats.
 */
export async function decideOnDatabase(
  client: pg.PoolClient,
  instance: InstanceIdentity,
): Promise<GenerationDecision> {
  const { rows } = await client.query<{ found: boolean }>(
    "SELECT to_regclass('write_generation') IS NOT NULL AS found",
  );
  if (!rows[0]?.found) return decideWriteGeneration({ code: instance.generation, minimum: null, live: [] });
  const minimum = await client.query<{ minimum: number }>(
    'SELECT minimum FROM write_generation WHERE id = 1',
  );
  const live = await client.query<{ generation: number }>(
    `SELECT generation FROM instance_heartbeats WHERE instance_id <> $1 AND seen_at > ${DB_NOW_MS} - $2`,
    [instance.id, HEARTBEAT_TTL_MS],
  );
  return decideWriteGeneration({
    code: instance.generation,
    minimum: minimum.rows[0]?.minimum ?? null,
    live: live.rows.map((row) => row.generation),
  });
}

/**
 * Writes the instance's heartbeat (its row, made at the first) and answers the database's minimum:
 * one statement, outside any round's unit.
 */
export async function beatInstance(
  on: pg.Pool | pg.PoolClient,
  instance: InstanceIdentity,
): Promise<{ minimum: number; code: number }> {
  const { rows } = await on.query<{ minimum: number | null }>(
    `INSERT INTO instance_heartbeats (instance_id, generation, started_at, seen_at)
     VALUES ($1, $2, ${DB_NOW_MS}, ${DB_NOW_MS})
     ON CONFLICT (instance_id) DO UPDATE SET seen_at = EXCLUDED.seen_at
     RETURNING (SELECT minimum FROM write_generation WHERE id = 1) AS minimum`,
    [instance.id, instance.generation],
  );
  return { minimum: rows[0]?.minimum ?? 0, code: instance.generation };
}

/** The instance stops (or is refused): a newer one waiting for it need not wait for the heartbeat to age. */
export async function forgetInstance(pool: pg.Pool, instance: InstanceIdentity): Promise<void> {
  await pool.query('DELETE FROM instance_heartbeats WHERE instance_id = $1', [instance.id]);
}
