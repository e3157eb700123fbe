import type { PoolDrawRecord } from './records.ts';
import type { AuditAnchorsRepo } from './repos/audit-anchors-repo.ts';
import type {
  AuditRepo,
  ClientsRepo,
  DemoWalletRepo,
  FreeCardsRepo,
  GamesRepo,
  HistoryRepo,
  IdempotencyRepo,
  LedgerRepo,
  OpsRepo,
  OutboxRepo,
  PlayersRepo,
  PoolsRepo,
  ProfilesRepo,
  PromotionsRepo,
  ProtectionRepo,
  RateLimitsRepo,
  ResetsRepo,
  RoundsRepo,
  SessionsRepo,
  TestCardsRepo,
  WebhooksRepo,
} from './repositories.ts';
import type { WriteGuard } from './write-guard.ts';

/** Every repository; a transaction hands the same set out, bound to itself. */
export interface Repositories {
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
  rateLimits: RateLimitsRepo;
  ops: OpsRepo;
  audit: AuditRepo;
  auditAnchors: AuditAnchorsRepo;
  promotions: PromotionsRepo;
  freeCards: FreeCardsRepo;
  protection: ProtectionRepo;
  history: HistoryRepo;
  testCards: TestCardsRepo;
}

/** The repositories of one open unit, and what runs once it commits. */
export interface Transaction extends Repositories {
  /**
   * Runs `callback` after the unit is durably committed, never if it rolls back: how a unit
   * wakes whoever acts on what it wrote (the webhook dispatcher) without racing its commit.
   */
  afterCommit(callback: () => void): void;
  /**
   * Says that the next statement this unit sends is its last: PostgreSQL sends the COMMIT with it,
   * one round trip less (SQLite does nothing). After it the work sends nothing more (that throws)
   * and must not fail: a throw then no longer undoes the unit. In a nested unit it does nothing.
   */
  lastStatement(): void;
}

/**
 * How a unit keeps concurrent units from spoiling what it decided. By default a unit behaves as if
 * units ran one after another, whatever it read (PostgreSQL: SERIALIZABLE, which aborts and reruns
 * a unit that collided). `rowLocks` units promise to decide only on what the repositories lock as
 * they read it in a unit (a round, a pool's block of draw indexes) and on constraints (one live
 * round per player, one round per draw index): the adapter may then run them without serializable
 * checks (PostgreSQL: READ COMMITTED), where they wait on each other's locks instead of aborting.
 * The play loop and webhook delivery use them: they run several times per round.
 */
export interface UnitOptions {
  rowLocks?: boolean;
}

export const ROW_LOCKS: UnitOptions = { rowLocks: true };

/**
 * Everything the services persist, behind one async interface that any database can implement
 * (SQLite under store/sqlite/ today). Each call on a repository is its own unit.
 */
export interface Store extends Repositories {
  /**
   * Runs `work` as one all-or-nothing unit over the repositories it is handed, and resolves once
   * the unit is durably committed. `work` touches nothing but `tx`: no wallet call, no socket emit,
   * no timer, so no adapter ever holds a transaction open across the network. Called inside
   * another unit's `work`, it nests (its own savepoint). SQLite commits the units queued in one
   * turn of the event loop together (group commit); a unit that throws is undone alone. SQLite
   * runs its units one at a time, so `options` change nothing there; a nested unit runs as its
   * outer one does.
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>, options?: UnitOptions): Promise<T>;
  /**
   * Whether this instance's code generation may write here (issue 36, write-generation.ts): once
   * refused, every call fails without reaching the database.
   */
  writer: WriteGuard;
  close(): Promise<void>;
}

/** A pool's draws in draw order, read a page at a time: a pool may hold millions. */
export async function* eachPoolDraw(
  rounds: Pick<RoundsRepo, 'poolDraws'>,
  poolId: string,
  pageSize = 1000,
): AsyncGenerator<PoolDrawRecord> {
  let after = -1;
  for (;;) {
    const page = await rounds.poolDraws(poolId, after, pageSize);
    for (const draw of page) yield draw;
    const last = page.at(-1);
    if (page.length < pageSize || !last || last.drawIndex === null) return;
    after = last.drawIndex;
  }
}
