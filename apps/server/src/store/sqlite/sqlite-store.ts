import type { Logger } from '../../logger.ts';
import type { Exec } from '../dialect/exec.ts';
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
import { decideWriteGeneration } from '../write-generation.ts';
import {
  createWriteGuard,
  type WriteGuard,
  type WriteGuardControl,
  WriteRefusedError,
} from '../write-guard.ts';
import { type Db, openDatabase, shippedMigrations } from './database.ts';
import { createSqliteExec } from './exec.ts';
import { createGroupCommit } from './group-commit.ts';
import { type Background, createLedgerCounts } from './ledger-counts.ts';
import { type CallRunner, liftAsync } from './sync.ts';

function liftAll(repos: object, lifter: (repo: object) => object): object {
  const lifted: Record<string, unknown> = {};
  for (const [name, repo] of Object.entries(repos)) lifted[name] = lifter(repo as object);
  return lifted;
}

/** Why an ops health check fails before it reads anything: the connection is closed. */
export const closedHealth = (db: Db) => (): StoreHealth | undefined =>
  db.open ? undefined : { ok: false, reason: 'the database is closed' };

/** Why an ops health check fails first: this process may not write (write-generation.ts). */
const blockedHealth = (writer: WriteGuard): StoreHealth | undefined => {
  const blocked = writer.blocked();
  return blocked ? { ok: false, reason: blocked } : undefined;
};

/**
 * The repositories (all written once, store/repos/), over this connection's executor.
 * `background`: how the lists' readers start a fold of their counts.
 */
function repositories(x: Exec, db: Db, background: Background, writer: WriteGuard): Repositories {
  return {
    rounds: createRoundsRepo(x),
    pools: createPoolsRepo(x),
    outbox: createOutboxRepo(x),
    ledger: createLedgerRepo(x, createLedgerCounts(db, background)),
    webhooks: createWebhooksRepo(x),
    clients: createClientsRepo(x),
    profiles: createProfilesRepo(x),
    games: createGamesRepo(x),
    players: createPlayersRepo(x),
    sessions: createSessionsRepo(x),
    resets: createResetsRepo(x),
    demoWallet: createDemoWalletRepo(x),
    idempotency: createIdempotencyRepo(x),
    rateLimits: createRateLimitsRepo(x),
    ops: createOpsRepo(x, shippedMigrations(), () => blockedHealth(writer) ?? closedHealth(db)()),
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
 * Whether this process's generation may write to the file (store/write-generation.ts), decided at
 * open from its minimum; the file has no heartbeats (its processes are one service's, stopped and
 * started together), so a process never waits here. A heartbeat reads the minimum again.
 */
function sqliteWriteGuard(
  db: Db,
  instance: { generation: number } | undefined,
  logger?: Logger,
): WriteGuardControl {
  const minimum = () =>
    db.prepare<[], { minimum: number }>('SELECT minimum FROM write_generation WHERE id = 1').get()?.minimum ??
    0;
  const writer = createWriteGuard({
    logger,
    ...(instance && { beat: async () => ({ minimum: minimum(), code: instance.generation }) }),
  });
  const decision = instance
    ? decideWriteGeneration({ code: instance.generation, minimum: minimum(), live: [] })
    : ({ action: 'write' } as const);
  if (decision.action === 'refuse') writer.refuse(decision.reason);
  else writer.writing();
  return writer;
}

/** The Store over one SQLite connection (better-sqlite3, synchronous underneath). */
export function createSqliteStore(
  db: Db,
  options: { instance?: { generation: number } | undefined; logger?: Logger | undefined } = {},
): Store {
  const writer = sqliteWriteGuard(db, options.instance, options.logger);
  // Refused: every call fails before it reaches the file (no statement is added to any unit).
  const refusal = () => {
    const refused = writer.refused();
    return refused ? new WriteRefusedError(refused) : undefined;
  };
  const commits = createGroupCommit(db);
  // A fold of the lists' counts: units of its own, one batch each while it says more are left;
  // never part of the reader's unit (nor a round's).
  const background = (work: () => boolean) => {
    if (commits.inUnit) return;
    const run = (): void =>
      // A failed fold leaves more rows past the watermark; the next one takes them.
      void commits
        .unit(async () => work())
        .then(
          (more) => more && run(),
          () => {},
        );
    run();
  };
  const repos = repositories(createSqliteExec(db, commits), db, background, writer);
  // Inside a unit a method runs as it is: its statements answer at once, on the unit's open
  // transaction. Outside, each call waits for the running batch first.
  const outside: CallRunner = (call) => {
    const refused = refusal();
    return refused ? Promise.reject(refused) : commits.outside(call);
  };
  return {
    ...(liftAll(repos, (repo) => liftAsync(repo, outside)) as Repositories),
    transaction: (work) => {
      const refused = refusal();
      if (refused) return Promise.reject(refused);
      return commits.unit(({ afterCommit }) => work({ ...repos, afterCommit, lastStatement: () => {} }));
    },
    writer,
    close: async () => {
      writer.closing();
      db.close();
    },
  };
}

/**
 * Opens (creating and migrating) the SQLite file, `:memory:` for a throwaway one, as a Store.
 * `readonly` opens an existing file without migrating it; every write then fails.
 */
export const openSqliteStore = (
  file: string,
  options: {
    readonly?: boolean;
    statementStats?: string | undefined;
    /** A serving process (main.ts): refused when its generation is below the file's minimum. */
    instance?: { generation: number } | undefined;
    logger?: Logger | undefined;
  } = {},
): Store =>
  createSqliteStore(openDatabase(file, options), {
    ...(options.instance && { instance: options.instance }),
    ...(options.logger && { logger: options.logger }),
  });
