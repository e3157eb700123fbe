import type pg from 'pg';
import type { Logger } from '../../logger.ts';
import type { StoreHealth } from '../records.ts';
import { createAuditAnchorsRepo } from '../repos/audit-anchors-repo.ts';
import { createAuditRepo } from '../repos/audit-repo.ts';
import { createClientsRepo } from '../repos/clients-repo.ts';
import { createDemoWalletRepo } from '../repos/demo-wallet-repo.ts';
import { createFreeCardsRepo } from '../repos/free-cards-repo.ts';
import { createGamesRepo } from '../repos/games-repo.ts';
import { createHistoryRepo } from '../repos/history-repo.ts';
import { createIdempotencyRepo } from '../repos/idempotency-repo.ts';
import { createLedgerRepo } from '../repos/ledger-repo.ts';
import { createOpsRepo } from '../repos/ops-repo.ts';
import { createOutboxRepo } from '../repos/outbox-repo.ts';
import { createPlayersRepo } from '../repos/players-repo.ts';
import { createPoolsRepo } from '../repos/pools-repo.ts';
import { createProfilesRepo } from '../repos/profiles-repo.ts';
import { createPromotionsRepo } from '../repos/promotions-repo.ts';
import { createProtectionRepo } from '../repos/protection-repo.ts';
import { createRateLimitsRepo } from '../repos/rate-limits-repo.ts';
import { createResetsRepo } from '../repos/resets-repo.ts';
import { createRoundsRepo } from '../repos/rounds-repo.ts';
import { createSessionsRepo } from '../repos/sessions-repo.ts';
import { createTestCardsRepo } from '../repos/test-cards-repo.ts';
import { createWebhooksRepo } from '../repos/webhooks-repo.ts';
import type { Repositories, Store } from '../store.ts';
import { createWriteGuard, type WriteGuard, WriteRefusedError } from '../write-guard.ts';
import { createPool, type MigrationGate, migrate, shippedMigrations } from './database.ts';
import { createPostgresExec } from './exec.ts';
import { beatInstance, forgetInstance, type InstanceIdentity } from './instance-heartbeats.ts';
import { createLedgerCounts } from './ledger-counts.ts';
import { repairRestoredDatabase } from './restored-database.ts';
import { countRoundTrips, type RoundTrips } from './round-trips.ts';
import type { Sql } from './sql.ts';
import { createUnits } from './units.ts';

/** Every repository over one Sql, which runs each statement in the current unit or on the pool. */
function createRepos(sql: Sql, unready: () => StoreHealth | undefined, foldCounts: boolean): Repositories {
  const x = createPostgresExec(sql);
  return {
    clients: createClientsRepo(x),
    profiles: createProfilesRepo(x),
    games: createGamesRepo(x),
    players: createPlayersRepo(x),
    sessions: createSessionsRepo(x),
    ledger: createLedgerRepo(x, createLedgerCounts(sql, { foldCounts })),
    webhooks: createWebhooksRepo(x),
    resets: createResetsRepo(x),
    outbox: createOutboxRepo(x),
    pools: createPoolsRepo(x),
    rounds: createRoundsRepo(x),
    demoWallet: createDemoWalletRepo(x),
    idempotency: createIdempotencyRepo(x),
    rateLimits: createRateLimitsRepo(x),
    ops: createOpsRepo(x, shippedMigrations(), unready),
    audit: createAuditRepo(x),
    auditAnchors: createAuditAnchorsRepo(x),
    promotions: createPromotionsRepo(x),
    freeCards: createFreeCardsRepo(x),
    protection: createProtectionRepo(x),
    history: createHistoryRepo(x),
    testCards: createTestCardsRepo(x),
  };
}

/**
 * The migrations, then the repair of a database restored from another cluster (restored-database.ts),
 * before any call runs: the lists' totals are right from the first one. Logged once, by the
 * instance that repaired.
 */
async function migrateAndRepair(
  pool: pg.Pool,
  logger: Logger | undefined,
  gate: MigrationGate | undefined,
): Promise<void> {
  await migrate(pool, gate);
  const repair = await repairRestoredDatabase(pool);
  if (repair)
    logger?.warn(
      "restored database: its transaction ids come from another cluster's history; the lists' totals were rebuilt",
      { ...repair },
    );
}

/** Where the migrations applied at open stand: /ready says "not yet" or why they failed. */
type MigrationState = { state: 'running' } | { state: 'failed'; error: Error } | { state: 'done' };

/**
 * Why the ops health check fails before it reads anything: this instance may not write (it waits
 * for older instances, or its code is older than the database's), or the migrations are not done.
 */
const unreadyWhile =
  (migrations: () => MigrationState, writer: WriteGuard) => (): StoreHealth | undefined => {
    const blocked = writer.blocked();
    if (blocked) return { ok: false, reason: blocked };
    const state = migrations();
    if (state.state === 'running') return { ok: false, reason: 'migrations are being applied' };
    if (state.state === 'failed') return { ok: false, reason: state.error.message };
    return undefined;
  };

export interface PostgresStore extends Store {
  /** Settles once the migrations are applied (rejects with why they could not be). */
  ready: Promise<void>;
}

/**
 * The Store on a PostgreSQL database (issue 13), over a node-postgres pool. Each call on a
 * repository is one autocommitted statement (or, for the few that write several, a transaction
 * of its own); `transaction()` is a SERIALIZABLE transaction on one connection, or READ COMMITTED
 * with row locks for a `rowLocks` unit (units.ts).
 * Migrations are applied at open, one instance at a time; calls wait for them.
 */
export function createPostgresStore(
  pool: pg.Pool,
  options: {
    readonly?: boolean;
    statementStats?: string | undefined;
    foldCounts?: boolean;
    /** Counts round trips (a test's own counter); `statementStats` writes them to a file instead. */
    trips?: RoundTrips;
    /**
     * A serving instance (main.ts): decides at open whether its generation may write, writes a
     * heartbeat (WriteGuard.beat) and refuses every call once refused. Absent: no such check.
     */
    instance?: InstanceIdentity;
    /** Hears what the start did beyond the migrations (a restored database's repair). */
    logger?: Logger;
  } = {},
): PostgresStore {
  let migrations: MigrationState = { state: 'running' };
  const { instance } = options;
  const writer = createWriteGuard({
    logger: options.logger,
    ...(instance && { beat: () => beatInstance(pool, instance) }),
  });
  // A reader (verify-pool) never migrates nor repairs: /ready-style health then says what is missing.
  const ready = (
    options.readonly
      ? Promise.resolve()
      : migrateAndRepair(pool, options.logger, instance && { instance, guard: writer })
  ).then(
    () => {
      migrations = { state: 'done' };
      writer.writing();
    },
    (error: unknown) => {
      migrations = { state: 'failed', error: error as Error };
      if (error instanceof WriteRefusedError) writer.refuse(error.message);
      throw error;
    },
  );
  // Whoever calls the store hears the failure; nobody has to be listening for it at open.
  void ready.catch(() => {});
  // Refused later (a newer build raised the minimum): no statement more from this instance, and
  // its heartbeat goes, so a newer instance waiting for it goes on at once.
  writer.onRefused(() => {
    if (instance && migrations.state === 'done') void forgetInstance(pool, instance).catch(() => {});
  });
  const state = () => migrations;
  const refusedOrReady = () => {
    const refused = writer.refused();
    return refused ? Promise.reject(new WriteRefusedError(refused)) : ready;
  };
  const units = createUnits(pool, refusedOrReady, {
    pipelined: pool.options.pipeline === true,
    ...(options.trips && { trips: options.trips }),
    ...(options.statementStats && { trips: countRoundTrips(options.statementStats) }),
  });
  // One set of repositories: inside a unit's work, their statements run on its connection.
  const repos = createRepos(units.outside, unreadyWhile(state, writer), options.foldCounts !== false);
  return {
    ...repos,
    ready,
    writer,
    transaction: (work, options) =>
      units.unit(
        (_sql, control) =>
          work({ ...repos, afterCommit: control.afterCommit, lastStatement: control.lastStatement }),
        options,
      ),
    close: async () => {
      writer.closing();
      await ready.catch(() => {});
      if (instance && writer.refused() === undefined && migrations.state === 'done')
        await forgetInstance(pool, instance).catch(() => {});
      await pool.end();
    },
  };
}

/**
 * Opens the PostgreSQL database at `url` (postgres://…) as a Store, applying its migrations;
 * `readonly` applies none and refuses every write.
 */
export const openPostgresStore = (
  url: string,
  options: {
    maxConnections?: number;
    readonly?: boolean;
    statementStats?: string | undefined;
    /** false: the lists' totals count the rows instead of adding folded per-day counts (LEDGER_COUNT_FOLD, ledger-counts.ts). */
    foldCounts?: boolean;
    /** A serving instance: see createPostgresStore. */
    instance?: InstanceIdentity | undefined;
    logger?: Logger | undefined;
  } = {},
): PostgresStore => {
  const readonly = options.readonly ?? false;
  return createPostgresStore(
    createPool(url, {
      readonly,
      pipeline: true,
      ...(options.maxConnections && { max: options.maxConnections }),
    }),
    {
      readonly,
      statementStats: options.statementStats,
      foldCounts: options.foldCounts !== false,
      ...(options.instance && { instance: options.instance }),
      ...(options.logger && { logger: options.logger }),
    },
  );
};
