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
import { type Db, openDatabase, shippedMigrations } from './database.ts';
import { createSqliteExec } from './exec.ts';
import { createGroupCommit } from './group-commit.ts';
import { type Background, createLedgerCounts } from './ledger-counts.ts';
import { liftAsync } from './sync.ts';

function liftAll(repos: object, lifter: (repo: object) => object): object {
  const lifted: Record<string, unknown> = {};
  for (const [name, repo] of Object.entries(repos)) lifted[name] = lifter(repo as object);
  return lifted;
}

/** Why an ops health check fails before it reads anything: the connection is closed. */
export const closedHealth = (db: Db) => (): StoreHealth | undefined =>
  db.open ? undefined : { ok: false, reason: 'the database is closed' };

/**
 * The repositories (all written once, store/repos/), over this connection's executor.
 * `background`: how the lists' readers start a fold of their counts.
 */
function repositories(x: Exec, db: Db, background: Background): Repositories {
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
    ops: createOpsRepo(x, shippedMigrations(), closedHealth(db)),
    audit: createAuditRepo(x),
    auditAnchors: createAuditAnchorsRepo(x),
    promotions: createPromotionsRepo(x),
    freeCards: createFreeCardsRepo(x),
    protection: createProtectionRepo(x),
    history: createHistoryRepo(x),
    testCards: createTestCardsRepo(x),
  };
}

/** The Store over one SQLite connection (better-sqlite3, synchronous underneath). */
export function createSqliteStore(db: Db): Store {
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
  const repos = repositories(createSqliteExec(db, commits), db, background);
  // Inside a unit a method runs as it is: its statements answer at once, on the unit's open
  // transaction. Outside, each call waits for the running batch first.
  return {
    ...(liftAll(repos, (repo) => liftAsync(repo, commits.outside)) as Repositories),
    transaction: (work) =>
      commits.unit(({ afterCommit }) => work({ ...repos, afterCommit, lastStatement: () => {} })),
    close: async () => {
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
  options: { readonly?: boolean; statementStats?: string | undefined } = {},
): Store => createSqliteStore(openDatabase(file, options));
