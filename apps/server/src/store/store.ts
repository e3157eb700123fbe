import { type ClientsRepo, createClientsRepo } from './clients-repo.ts';
import { type Db, immediate, shippedMigrations } from './database.ts';
import { createDemoWalletRepo, type DemoWalletRepo } from './demo-wallet-repo.ts';
import { createGamesRepo, type GamesRepo } from './games-repo.ts';
import { createGroupCommit } from './group-commit.ts';
import { createIdempotencyRepo, type IdempotencyRepo } from './idempotency-repo.ts';
import { createLedgerRepo, type LedgerRepo } from './ledger-repo.ts';
import { createOpsRepo, type OpsRepo } from './ops-repo.ts';
import { createOutboxRepo, type OutboxRepo } from './outbox-repo.ts';
import { createPlayersRepo, type PlayersRepo } from './players-repo.ts';
import { createPoolsRepo, type PoolsRepo } from './pools-repo.ts';
import { createProfilesRepo, type ProfilesRepo } from './profiles-repo.ts';
import { createResetsRepo, type ResetsRepo } from './resets-repo.ts';
import { createRoundsRepo, type RoundsRepo } from './rounds-repo.ts';
import { createSessionsRepo, type SessionsRepo } from './sessions-repo.ts';
import { createWebhooksRepo, type WebhooksRepo } from './webhooks-repo.ts';

/**
 * Everything the services persist, as small synchronous repositories (better-sqlite3 is
 * synchronous). A server database can be added later by implementing these interfaces.
 */
export interface Store {
  clients: ClientsRepo;
  profiles: ProfilesRepo;
  games: GamesRepo;
  players: PlayersRepo;
  sessions: SessionsRepo;
  ledger: LedgerRepo;
  webhooks: WebhooksRepo;
  resets: ResetsRepo;
  outbox: OutboxRepo;
  pools: PoolsRepo;
  rounds: RoundsRepo;
  demoWallet: DemoWalletRepo;
  idempotency: IdempotencyRepo;
  ops: OpsRepo;
  /** Runs `work` as one write transaction (SQLite: BEGIN IMMEDIATE). */
  transaction<T>(work: () => T): T;
  /**
   * Runs `work` as its own all-or-nothing unit, committed together with the other units queued in
   * the same turn of the event loop (group commit): one durable commit for many rounds. Resolves
   * once the commit is on disk; a unit that throws is undone alone and rejects.
   */
  batch<T>(work: () => T): Promise<T>;
  close(): void;
}

export function createSqliteStore(db: Db): Store {
  return {
    clients: createClientsRepo(db),
    profiles: createProfilesRepo(db),
    games: createGamesRepo(db),
    players: createPlayersRepo(db),
    sessions: createSessionsRepo(db),
    ledger: createLedgerRepo(db),
    webhooks: createWebhooksRepo(db),
    resets: createResetsRepo(db),
    outbox: createOutboxRepo(db),
    pools: createPoolsRepo(db),
    rounds: createRoundsRepo(db),
    demoWallet: createDemoWalletRepo(db),
    idempotency: createIdempotencyRepo(db),
    ops: createOpsRepo(db, shippedMigrations()),
    transaction: (work) => immediate(db, work),
    batch: createGroupCommit(db),
    close: () => db.close(),
  };
}
