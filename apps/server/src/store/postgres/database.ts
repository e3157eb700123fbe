import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { WAIT_POLL_MS } from '../write-generation.ts';
import { type WriteGuardControl, WriteRefusedError } from '../write-guard.ts';
import { beatInstance, decideOnDatabase, type InstanceIdentity } from './instance-heartbeats.ts';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** The key of the advisory lock two instances starting together take, so only one migrates. */
const MIGRATION_LOCK = 7_261_736_172;

const INT8 = 20;
const NUMERIC = 1700;

/**
 * bigint (money, counts, epoch ms) and numeric (sum of bigints) come back as JS numbers: every
 * figure the store holds is a safe integer, and one that is not is refused rather than rounded.
 */
function safeInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`${text} is not a safe integer`);
  return value;
}

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 || oid === NUMERIC
      ? safeInteger
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/**
 * A pool of connections to `url`. Every connection commits synchronously (`synchronous_commit=on`
 * whatever the server's default: a unit answered is on disk, docs/contract.md §6); a read-only
 * pool's transactions refuse every write.
 */
export function createPool(
  url: string,
  options: { max?: number; readonly?: boolean; pipeline?: boolean } = {},
): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    // The pool hands this to each Client it makes (units.ts, UnitsOptions.pipelined).
    pipeline: options.pipeline ?? false,
    // A server that does not answer fails a call (and /ready) instead of hanging it. node-postgres
    // counts the wait for a free connection in this too, so it is long enough for a burst.
    connectionTimeoutMillis: 30_000,
    types,
    options: `-c synchronous_commit=on${options.readonly ? ' -c default_transaction_read_only=on' : ''}`,
  });
  // An idle connection that dies (server restart) is dropped by the pool; without a listener the
  // error would end the process.
  pool.on('error', () => {});
  return pool;
}

/** The migration files this build ships, in the order they apply. */
export function shippedMigrations(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((name) => /^\d{3}_[\w-]+\.sql$/.test(name))
    .sort();
}

/**
 * What migrate() checks first, for an instance that will serve (store/write-generation.ts): its
 * identity, and the guard it reports a wait to.
 */
export interface MigrationGate {
  instance: InstanceIdentity;
  guard: WriteGuardControl;
}

/**
 * Applies the numbered `migrations/NNN_name.sql` files not yet applied, each in its own
 * transaction, under an advisory lock: a second instance starting at the same time waits, then
 * finds them applied. With a `gate`, the instance first decides under the lock whether it may
 * write at all: refused (WriteRefusedError, nothing applied), waiting for older instances
 * to stop (the lock released meanwhile, looked at again every WAIT_POLL_MS), or on, its
 * heartbeat written before the lock is released so that any instance deciding after it sees it.
 */
export async function migrate(pool: pg.Pool, gate?: MigrationGate): Promise<string[]> {
  const client = await pool.connect();
  try {
    for (;;) {
      const outcome = await underMigrationLock(client, async () => {
        const decision = gate ? await decideOnDatabase(client, gate.instance) : undefined;
        if (decision && decision.action !== 'write') return decision;
        const ran = await applyMigrations(client);
        if (gate) await beatInstance(client, gate.instance);
        return { action: 'applied' as const, ran };
      });
      if (outcome.action === 'applied') return outcome.ran;
      if (outcome.action === 'refuse') throw new WriteRefusedError(outcome.reason);
      gate?.guard.waiting(outcome.reason);
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
      if (gate?.guard.isClosing) throw new Error('stopped while waiting for older instances');
    }
  } finally {
    client.release();
  }
}

async function underMigrationLock<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    return await work();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}

async function applyMigrations(client: pg.PoolClient): Promise<string[]> {
  await client.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT COLLATE "C" PRIMARY KEY, applied_at TEXT NOT NULL)',
  );
  const applied = new Set(
    (await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((row) => row.name),
  );
  const ran: string[] = [];
  for (const name of shippedMigrations()) {
    if (applied.has(name)) continue;
    const sql = readFileSync(join(MIGRATIONS_DIR, name), 'utf8');
    await client.query('BEGIN');
    try {
      await client.query(sql);
      await client.query('INSERT INTO schema_migrations (name, applied_at) VALUES ($1, $2)', [
        name,
        new Date().toISOString(),
      ]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw new Error(`migration ${name} failed: ${(error as Error).message}`);
    }
    ran.push(name);
  }
  return ran;
}
