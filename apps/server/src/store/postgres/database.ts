import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { WAIT_POLL_MS } from '../write-generation.ts';
import { type WriteGuardControl, WriteRefusedError } from '../write-guard.ts';
import { type DatabaseHosts, parseDatabaseHosts, type SessionAttrs } from './database-hosts.ts';
import { beatInstance, decideOnDatabase, type InstanceIdentity } from './instance-heartbeats.ts';
import { createServerChooser } from './server-chooser.ts';

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
  const hosts = parseDatabaseHosts(url);
  if ('error' in hosts) throw new Error(`DATABASE_URL ${hosts.error}`);
  const several = hosts.urls.length > 1 || hosts.sessionAttrs === 'read-write';
  const pool = new pg.Pool({
    connectionString: hosts.urls[0],
    ...(several && { Client: clientOfChosenServer(hosts) }),
    max: options.max ?? 10,
    // The pool hands this to each Client it makes (units.ts, UnitsOptions.pipelined).
    pipeline: options.pipeline ?? false,
    // A server that does not answer fails a call (and /ready) instead of hanging it. node-postgres
    // counts the wait for a free connection in this too, so it is long enough for a burst.
    connectionTimeoutMillis: 30_000,
    types,
    options: `-c synchronous_commit=on${options.readonly ? ' -c default_transaction_read_only=on' : ''}`,
  });
  // A connection that dies (a server restarted or lost) is dropped by the pool, and its queries
  // fail; the error it also emits would end the process without a listener: the pool listens only
  // while the connection is idle, so each gets its own for when it is checked out.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

const PROBE_TIMEOUT_MS = 5_000;

/** Whether the server at `url` is one to keep: it answers and, for read-write, is a primary. */
async function qualifies(url: string, sessionAttrs: SessionAttrs): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  client.on('error', () => {});
  await client.connect();
  try {
    return sessionAttrs === 'any' || (await inRecovery(client)) === false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * A standby (or a primary not yet promoted) is in recovery and takes no writes. Asked instead of
 * libpq's `SHOW transaction_read_only`, which a read-only pool's own setting turns on (a tool's
 * connections to the primary would all be refused).
 */
async function inRecovery(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ recovery: boolean }>('SELECT pg_is_in_recovery() AS recovery');
  return rows[0]?.recovery === true;
}

/**
 * The pool's connections for a URL of several servers: each connects to the server the chooser
 * holds (`pg` reads `host` and `port` only when it connects). A connection that fails, or that finds
 * its server is now a standby (a former primary), makes the chooser search again; the
 * pool's caller gets the error, as from any failed connection.
 */
function clientOfChosenServer(hosts: DatabaseHosts): new () => pg.Client {
  const chooser = createServerChooser(hosts, (url) => qualifies(url, hosts.sessionAttrs));
  class ChosenServerClient extends pg.Client {
    override connect(): Promise<pg.Client>;
    override connect(callback: (error: Error | null, client?: pg.Client) => void): void;
    override connect(
      callback?: (error: Error | null, client?: pg.Client) => void,
    ): Promise<pg.Client> | undefined {
      const connected = this.connectToChosen();
      if (!callback) return connected;
      void connected.then((client) => callback(null, client), callback);
      return undefined;
    }

    private async connectToChosen(): Promise<pg.Client> {
      const server = await chooser.choose();
      this.host = server.host;
      this.port = server.port;
      try {
        await super.connect();
        if (hosts.sessionAttrs === 'read-write' && (await inRecovery(this))) {
          throw new Error(`${server.host}:${server.port} takes no writes any more`);
        }
        return this;
      } catch (error) {
        chooser.forget(server.url);
        await this.end().catch(() => {});
        throw error;
      }
    }
  }
  return ChosenServerClient as unknown as new () => pg.Client;
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
