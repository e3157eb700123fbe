import type { Repositories, Store } from '../store.ts';
import { createAuditRepo } from './audit-repo.ts';
import { createClientsRepo } from './clients-repo.ts';
import { type Db, openDatabase, shippedMigrations } from './database.ts';
import { createDemoWalletRepo } from './demo-wallet-repo.ts';
import { createGamesRepo } from './games-repo.ts';
import { createGroupCommit } from './group-commit.ts';
import { createIdempotencyRepo } from './idempotency-repo.ts';
import { createLedgerRepo } from './ledger-repo.ts';
import { createOpsRepo } from './ops-repo.ts';
import { createOutboxRepo } from './outbox-repo.ts';
import { createPlayersRepo } from './players-repo.ts';
import { createPoolsRepo } from './pools-repo.ts';
import { createProfilesRepo } from './profiles-repo.ts';
import { createRateLimitsRepo } from './rate-limits-repo.ts';
import { createResetsRepo } from './resets-repo.ts';
import { createRoundsRepo } from './rounds-repo.ts';
import { createSessionsRepo } from './sessions-repo.ts';
import { type CallRunner, lift, type Sync } from './sync.ts';
import { createWebhooksRepo } from './webhooks-repo.ts';

type SyncRepositories = { [K in keyof Repositories]: Sync<Repositories[K]> };

function liftAll(repos: SyncRepositories, run: CallRunner): Repositories {
  const lifted: Record<string, unknown> = {};
  for (const [name, repo] of Object.entries(repos)) lifted[name] = lift(repo as Sync<object>, run);
  return lifted as unknown as Repositories;
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
  const repos: SyncRepositories = {
    clients: createClientsRepo(db),
    profiles: createProfilesRepo(db),
    games: createGamesRepo(db),
    players: createPlayersRepo(db),
    sessions: createSessionsRepo(db),
    ledger: createLedgerRepo(db, background),
    webhooks: createWebhooksRepo(db),
    resets: createResetsRepo(db),
    outbox: createOutboxRepo(db),
    pools: createPoolsRepo(db),
    rounds: createRoundsRepo(db),
    demoWallet: createDemoWalletRepo(db),
    idempotency: createIdempotencyRepo(db),
    rateLimits: createRateLimitsRepo(db),
    ops: createOpsRepo(db, shippedMigrations()),
    audit: createAuditRepo(db),
  };
  const tx = liftAll(repos, commits.inside);
  return {
    ...liftAll(repos, commits.outside),
    transaction: (work) =>
      commits.unit(({ afterCommit }) => work({ ...tx, afterCommit, lastStatement: () => {} })),
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
