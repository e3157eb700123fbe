import type { GameModel, LimitPeriod, PeriodTotals, SessionEndCode, SummaryRound } from '@raspa/core';
import type { LiveRoundGuards } from './live-round-guards.ts';
import type { Page, PageRequest } from './paging.ts';
import type {
  ApiClientRecord,
  AuditRecord,
  BuyProtectionRecord,
  CaptchaRecord,
  CredentialType,
  DeliveryAttempt,
  DeliveryFilter,
  DeliveryPage,
  DeliveryRecord,
  DemoWalletCallKind,
  DemoWalletCallRecord,
  ExclusionRecord,
  GameRecord,
  GameSessionRecord,
  HeldRound,
  HistoryRoundRow,
  IdempotencyRecord,
  LedgerFilter,
  LedgerTransaction,
  ListCursor,
  LiveSessionRow,
  LoggedDelivery,
  NewOutboxEvent,
  OutboxEvent,
  OutboxHead,
  OwnerRef,
  PlayerGrant,
  PlayerRecord,
  PoolBlockRecord,
  PoolDrawRecord,
  PoolRecord,
  ProfileRecord,
  PromotionEntry,
  PromotionFigures,
  PromotionFilter,
  PromotionRecord,
  QueuedAttempt,
  ReportGroup,
  ReportRow,
  ResetTokenRecord,
  RoundDetail,
  RoundPlayer,
  RoundRecord,
  RoundResolutionRecord,
  StoredLimitRecord,
  StoreHealth,
  SubscribersEvent,
  TestCardRecord,
  TokenOrigin,
  TokenSetRecord,
  TransactionRecord,
  UserTokenRecord,
  WalletAttemptRecord,
  WebhookRecord,
  WebhookStatus,
} from './records.ts';

/**
 * What the services ask of the database, one repository per kind of record. Every method is
 * async and backend-neutral: the SQLite adapter (store/sqlite/) answers at once, a server
 * database over the network. Called on `Store` each call is its own unit; called on the `tx` a
 * `Store.transaction` hands out, they commit or roll back together.
 */
/** API clients and their token sets. */
export interface ClientsRepo {
  insertClient(client: ApiClientRecord): Promise<void>;
  findClientById(id: string): Promise<ApiClientRecord | undefined>;
  findClientByApiKeyHash(hash: string): Promise<ApiClientRecord | undefined>;
  findClientByEmail(email: string): Promise<ApiClientRecord | undefined>;
  countClients(): Promise<number>;
  setPasswordHash(clientId: string, passwordHash: string): Promise<void>;
  /** Replaces the client's api-key hash (rotate-key): the old key finds no client from then on. */
  setApiKeyHash(clientId: string, apiKeyHash: string): Promise<void>;
  insertTokenSet(tokenSet: TokenSetRecord): Promise<void>;
  /** A token set that is neither revoked nor expired at `now`. */
  findLiveTokenSet(accessHash: string, now: string): Promise<TokenSetRecord | undefined>;
  /** Revokes one token set (a sign-out); false if it was not live. */
  revokeTokenSet(id: string, now: string): Promise<boolean>;
  /** Revokes the client's live token sets (only those of one login when `via` is given); returns how many. */
  revokeTokenSets(clientId: string, now: string, via?: TokenOrigin): Promise<number>;
}

export interface ProfilesRepo {
  insert(profile: ProfileRecord): Promise<void>;
  update(profile: ProfileRecord): Promise<void>;
  findById(id: string): Promise<ProfileRecord | undefined>;
  listByClient(clientId: string, page: PageRequest): Promise<Page<ProfileRecord>>;
}

/** Game versions. At most one active per (profile, model): a partial unique index enforces it. */
export interface GamesRepo {
  insert(game: GameRecord): Promise<void>;
  findById(id: string): Promise<GameRecord | undefined>;
  findActive(profileId: string, gameModel: GameModel): Promise<GameRecord | undefined>;
  /** The highest version of (profile, model), 0 when there is none. */
  lastVersion(profileId: string, gameModel: GameModel): Promise<number>;
  /** Every version of every model of a profile, by model then version. */
  listByProfile(profileId: string): Promise<GameRecord[]>;
  setActive(id: string, active: boolean): Promise<void>;
  /** Deactivates the active version of (profile, model), if any, except `keepId`. */
  deactivateOthers(profileId: string, gameModel: GameModel, keepId: string): Promise<number>;
}

export interface PlayersRepo {
  insert(player: PlayerRecord): Promise<void>;
  findById(id: string): Promise<PlayerRecord | undefined>;
  findByCredential(
    profileId: string,
    credentialType: CredentialType,
    credential: string,
  ): Promise<PlayerRecord | undefined>;
  /** A profile's players by creation; `search` keeps those whose credential contains it, ignoring case. */
  listByProfile(profileId: string, page: PageRequest, search?: string): Promise<Page<PlayerRecord>>;
  insertUserToken(token: UserTokenRecord): Promise<void>;
  /** The player behind a userToken that has not expired at `now`. */
  findByLiveUserToken(tokenHash: string, now: string): Promise<PlayerRecord | undefined>;
  /** The last balance the wallet reported in `currency`, if it ever did. */
  balanceIn(playerId: string, currency: string): Promise<number | undefined>;
  /** Every currency's last reported balance of each player (minor units), for a page of players. */
  balancesOf(playerIds: readonly string[]): Promise<Map<string, Record<string, number>>>;
}

export interface SessionsRepo {
  insert(session: GameSessionRecord): Promise<void>;
  findById(id: string): Promise<GameSessionRecord | undefined>;
  /** The session of a token that has not expired at `now`; it may have been ended (`endedAt`). */
  findLiveByTokenHash(tokenHash: string, now: string): Promise<GameSessionRecord | undefined>;
  /** Ends a session not ended yet; false when it already was (its first end stands). */
  end(id: string, code: SessionEndCode, now: string): Promise<boolean>;
  /** Ends every live session of a player in one statement: the ids it ended. */
  endLiveOfPlayer(playerId: string, code: SessionEndCode, now: string): Promise<string[]>;
  /** A player's live sessions (neither ended nor expired at `now`), newest first. */
  liveOfPlayer(playerId: string, now: string, page: PageRequest): Promise<Page<LiveSessionRow>>;
}

/** The queues of forced cards of test sessions (docs/certification.md). */
export interface TestCardsRepo {
  /** Adds `levels` at the end of the session's queue, in a unit: how many wait now. */
  queue(sessionId: string, levels: readonly number[], createdAt: string): Promise<number>;
  /** The session's next forced card, if any. */
  next(sessionId: string): Promise<TestCardRecord | undefined>;
  /** Takes that card out of the queue, in the unit that opens its round: false when it was taken already. */
  take(sessionId: string, position: number): Promise<boolean>;
}

/** The player's history in the page (the `history` socket request). */
export interface HistoryRepo {
  /** The player's last `limit` rounds of a game that have a card, newest first. */
  recentRounds(playerId: string, gameId: string, limit: number): Promise<HistoryRoundRow[]>;
}

/** Reads the round/transaction ledger for the lists; the play loop writes it. */
export interface LedgerRepo {
  /** Newest first. */
  listRounds(filter: LedgerFilter, page: PageRequest): Promise<Page<RoundDetail>>;
  /** Newest first. */
  listTransactions(filter: LedgerFilter, page: PageRequest): Promise<Page<TransactionRecord>>;
  /**
   * A whole list in batches, for the CSV export: at most `limit` records matching `filter` that come
   * after `after` in the list's order (newest first: created_at, then id, descending), without a
   * count. `after` null starts at the newest; the last record of a batch is the next `after`.
   */
  roundsAfter(filter: LedgerFilter, after: ListCursor | null, limit: number): Promise<RoundDetail[]>;
  transactionsAfter(
    filter: LedgerFilter,
    after: ListCursor | null,
    limit: number,
  ): Promise<TransactionRecord[]>;
  /** One round as the lists show it (a webhook event's payload): two reads, no count. */
  findRoundDetail(roundId: string): Promise<RoundDetail | undefined>;
  findRoundRef(roundId: string): Promise<OwnerRef | undefined>;
  /** The client's rounds flagged for reconciliation (not yet resolved), newest first. */
  listFlaggedRounds(clientId: string, page: PageRequest): Promise<Page<RoundDetail>>;
  /**
   * The GGR report: the `completed` bet, prize and rollback transactions matching `filter` (its
   * `type` must be null), summed per (group key, currency), by key then currency. Keys: day = the
   * transaction's UTC date (YYYY-MM-DD), game = its round's game id, currency, player = player id.
   */
  report(filter: LedgerFilter, groupBy: ReportGroup): Promise<ReportRow[]>;
  findPlayerRef(playerId: string): Promise<OwnerRef | undefined>;
}

export interface RoundsRepo {
  insertRound(round: RoundRecord): Promise<void>;
  /**
   * A buy's new round, in one statement (issue 23: no read before the write): inserted only if
   * its game is active and its player has no live round (the unique index decides, so two buys at
   * once cannot both pass) and, for a bought round (`promotionId` null), holds no usable free card
   * of the game (repos/free-cards-repo.ts `noUsableFreeCard`). False, with nothing written, otherwise. With `bet`, the round's bet is
   * inserted with it, or not at all (one statement on PostgreSQL: a buy's unit is one round trip).
   * `guards`: player protection's conditions, refused the same way (live-round-guards.ts).
   */
  insertLiveRound(round: RoundRecord, bet?: LedgerTransaction, guards?: LiveRoundGuards): Promise<boolean>;
  findRound(id: string): Promise<RoundRecord | undefined>;
  /**
   * The round with its calls and its player as its webhook event shows them (HeldRound), in one
   * statement: what a unit that may queue the round's event reads instead of `findRound`. In a
   * unit on PostgreSQL the round is locked, as `findRound` locks it.
   */
  findHeldRound(id: string): Promise<HeldRound | undefined>;
  /** The player's round that waits on the wallet or is in play. */
  findLiveRound(playerId: string): Promise<RoundRecord | undefined>;
  updateRound(id: string, change: Partial<Omit<RoundRecord, 'id'>>): Promise<void>;
  /**
   * Changes the round only while its status is `status` (a unit that holds the round it wrote
   * need not read it again, issue 23): false, with nothing changed, once another unit moved it on.
   * On PostgreSQL the row stays locked to the unit, as a read in a unit would lock it.
   */
  updateRoundWhile(
    id: string,
    status: RoundRecord['status'],
    change: Partial<Omit<RoundRecord, 'id'>>,
  ): Promise<boolean>;
  insertTransaction(transaction: LedgerTransaction): Promise<void>;
  findTransaction(id: string): Promise<LedgerTransaction | undefined>;
  transactionsOfRound(roundId: string): Promise<LedgerTransaction[]>;
  updateTransaction(id: string, change: Partial<Omit<LedgerTransaction, 'id'>>): Promise<void>;
  /** Pending wallet calls whose time has come, oldest first. */
  dueTransactions(now: string, limit: number): Promise<LedgerTransaction[]>;
  /** Open rounds whose last action was before `before`. */
  idleOpenRounds(before: string, limit: number): Promise<RoundRecord[]>;
  /**
   * Takes the lease of a pending wallet call whose time has come: it is left to `owner` until
   * `until` (its next_attempt_at). Undefined when the call is not pending or another process
   * holds it: one statement, so two processes never both take it.
   */
  claimDue(id: string, owner: string, now: string, until: string): Promise<LedgerTransaction | undefined>;
  /**
   * Makes every pending wallet call due now. Only for a start in which this process is the whole
   * installation (no other process can be holding one of them in flight).
   */
  releasePending(now: string): Promise<number>;
  /**
   * Records the balance the wallet reported in `currency` and the player's counters (the
   * player's own balance column only when it is the profile's default currency). Returns the
   * player as a round in `currency` shows it after the change (its event's `user`).
   */
  updatePlayer(
    playerId: string,
    currency: string,
    balanceMinor: number,
    betsAdded: number,
    winsAdded: number,
  ): Promise<RoundPlayer>;
  /** The rounds that drew from a pool after `afterDrawIndex`, by draw index: a pool may hold millions. */
  poolDraws(poolId: string, afterDrawIndex: number, limit: number): Promise<PoolDrawRecord[]>;
  /** Inserts rounds in bulk, as insertRound does one by one (test fixtures, tools): all or none. */
  insertRounds(rounds: RoundRecord[]): Promise<void>;
  /** The round that drew `drawIndex` of a pool. */
  findPoolDraw(poolId: string, drawIndex: number): Promise<PoolDrawRecord | undefined>;
  /** Logs one attempt of a wallet call, written with the answer it records. */
  insertWalletAttempt(attempt: WalletAttemptRecord): Promise<void>;
  /** Every wallet call attempt of a round, oldest first. */
  walletAttemptsOfRound(roundId: string): Promise<WalletAttemptRecord[]>;
  /**
   * Settles a flagged round: clears its flag and keeps the resolution, in one unit. False (nothing
   * written) when the round is not flagged (never was, or already resolved).
   */
  resolveFlagged(resolution: RoundResolutionRecord): Promise<boolean>;
  findResolution(roundId: string): Promise<RoundResolutionRecord | undefined>;
}

/** A game version's ticket pools (docs/contract.md §5). */
export interface PoolsRepo {
  insert(pool: PoolRecord): Promise<void>;
  findCurrent(gameId: string): Promise<PoolRecord | undefined>;
  findById(id: string): Promise<PoolRecord | undefined>;
  lastNumber(gameId: string): Promise<number>;
  /**
   * A block of the pool's draw indexes for `owner`, leased until `expiresAt` (docs/store.md, "Ticket
   * draws by blocks"): the lowest block whose lease had expired at `now`, taken over with the
   * indexes rounds already drew from it; else the next `size` indexes in no block (fewer at the
   * pool's end). Undefined when the pool ended or every index is in a live block.
   */
  takeBlock(
    poolId: string,
    owner: string,
    size: number,
    now: string,
    expiresAt: string,
  ): Promise<(PoolBlockRecord & { drawn: number[] }) | undefined>;
  /** Whether `owner` still holds the block at `first`; moves its lease to `renewTo` when given. */
  holdBlock(poolId: string, first: number, owner: string, renewTo: string | null): Promise<boolean>;
  /**
   * Closes `owner`'s block at `first` if a round drew each of its indexes: removes it and adds its
   * size to the pool's draws. Answers the indexes no round drew (the block stays then), and
   * whether every index of the pool is now drawn (the pool is to end).
   */
  closeBlock(poolId: string, first: number, owner: string): Promise<{ undrawn: number[]; poolDone: boolean }>;
  /** The pool's open blocks, by first index. */
  listBlocks(poolId: string): Promise<PoolBlockRecord[]>;
  end(poolId: string, seedHex: string, endedAt: string): Promise<void>;
  listByGame(gameId: string): Promise<PoolRecord[]>;
}

export interface WebhooksRepo {
  insert(webhook: WebhookRecord): Promise<void>;
  /** A webhook, deleted or not. */
  findById(id: string): Promise<WebhookRecord | undefined>;
  findLiveByUrl(clientId: string, url: string): Promise<WebhookRecord | undefined>;
  /** The client's webhooks that are not deleted, oldest first. */
  listLiveByClient(clientId: string): Promise<WebhookRecord[]>;
  /** Marks it deleted; false if it was not live. */
  softDelete(id: string, at: string): Promise<boolean>;
  setStatus(id: string, status: WebhookStatus): Promise<void>;
  /** Writes a log row as given, counters untouched: attempts go through recordAttempt. */
  insertDelivery(delivery: LoggedDelivery): Promise<void>;
  /**
   * Logs one attempt and, in the same transaction, closes the event's earlier pending row (when
   * it had one: retryCount > 0), bumps the webhook's success or failure counter and its
   * lastTriggered, so they always agree with the log (docs/contract.md §7).
   */
  recordAttempt(attempt: DeliveryAttempt): Promise<LoggedDelivery>;
  /**
   * Logs a batch of queue attempts (each with its retryCount) with multi-row statements: the
   * rows, the events' earlier pending rows closed, one counter bump per webhook. The same log and
   * counters as one recordAttempt each; the caller's unit moves the events on.
   */
  recordAttempts(attempts: readonly QueuedAttempt[]): Promise<void>;
  listDeliveries(webhookId: string, filter: DeliveryFilter, page: PageRequest): Promise<DeliveryPage>;
  /** Every delivery attempt of a round's events, at any webhook (deleted ones too), oldest first. */
  deliveriesOfRound(roundId: string): Promise<DeliveryRecord[]>;
  /** Time of its first failed attempt since its last success; null when its last attempt succeeded (or none). */
  failingSince(webhookId: string): Promise<string | null>;
}

export interface OutboxRepo {
  insert(event: NewOutboxEvent): Promise<void>;
  /**
   * Queues a round's event for every live, active webhook of the client subscribed to its type,
   * in one statement (issue 23: no read of the webhooks first). The first webhook (by creation)
   * gets the event id `id`, the n-th `id.n`. Returns the ids queued, in that order.
   */
  insertForSubscribers(event: SubscribersEvent): Promise<string[]>;
  findById(id: string): Promise<OutboxEvent | undefined>;
  /** One head per webhook that has queued events, due or not. */
  heads(): Promise<OutboxHead[]>;
  /**
   * A webhook's queued events from the head of its queue, oldest first, up to `limit`, leaving out
   * those whose seq is in `skip` (a drain's own events: held or in flight). From the
   * head, not after a seq: on PostgreSQL an event can commit after events with higher seqs.
   */
  queuedHead(webhookId: string, skip: readonly number[], limit: number): Promise<OutboxEvent[]>;
  markDelivered(id: string, attempts: number): Promise<void>;
  /** markDelivered of many events in one statement. */
  markDeliveredMany(events: readonly { id: string; attempts: number }[]): Promise<void>;
  /**
   * Failed events (a batch's, or one) in one statement: each scheduled again at its
   * `nextAttemptAt`, or marked failed (out of the queue) when that is null. Only queued events move.
   */
  failMany(
    events: readonly { id: string; attempts: number; firstFailureAt: string; nextAttemptAt: string | null }[],
  ): Promise<void>;
  /** Drops every queued event of a webhook; returns how many. */
  dropQueued(webhookId: string): Promise<number>;
  /**
   * Takes (or renews) the lease of draining a webhook's queue until `until`: true when `owner`
   * holds it now, false while another owner's lease runs.
   */
  claimWebhook(webhookId: string, owner: string, now: string, until: string): Promise<boolean>;
  /** Gives the lease back (only the owner's). */
  releaseWebhook(webhookId: string, owner: string): Promise<void>;
  /**
   * Ends every webhook's lease; returns how many. Only for a start on a database no other process
   * is using (one process, or the primary before its workers), as `rounds.releasePending`.
   */
  releaseAllWebhooks(): Promise<number>;
}

/** Password-reset tokens and the issued captcha challenges: both single use, both short-lived. */
export interface ResetsRepo {
  insertResetToken(token: ResetTokenRecord): Promise<void>;
  /** A token that is unused and not expired at `now`. */
  findLiveResetToken(tokenHash: string, now: string): Promise<ResetTokenRecord | undefined>;
  /** Marks a live token used; returns it, or undefined when it was not live (used, expired, unknown). */
  useResetToken(tokenHash: string, now: string): Promise<ResetTokenRecord | undefined>;
  /** Forgets the client's unused tokens, so only the newest link works. */
  deleteUnusedResetTokens(clientId: string): Promise<number>;

  insertCaptcha(captcha: CaptchaRecord): Promise<void>;
  /** Marks a live captcha used (one solution per challenge); returns it, or undefined when it was not live. */
  useCaptcha(id: string, now: string): Promise<CaptchaRecord | undefined>;
  deleteExpiredCaptchas(now: string): Promise<number>;
}

/** The built-in demo wallet's balances, one per player and currency, and calls (002_play.sql, 005). */
export interface DemoWalletRepo {
  findBalance(playerId: string, currency: string): Promise<number | undefined>;
  insertAccount(playerId: string, currency: string, balanceMinor: number): Promise<void>;
  setBalance(playerId: string, currency: string, balanceMinor: number): Promise<void>;
  findCall(transactionId: string): Promise<DemoWalletCallRecord | undefined>;
  insertCall(call: DemoWalletCallRecord): Promise<void>;
  setCallKind(transactionId: string, kind: DemoWalletCallKind): Promise<void>;
}

/** Idempotency keys of the API's writes, per API client (migration 006). */
export interface IdempotencyRepo {
  /** Deletes every key that expired at `now`; returns how many. */
  deleteExpired(now: string): Promise<number>;
  /** Inserts an in_progress claim; false (nothing written) when the client already holds that key. */
  insertClaim(claim: {
    clientId: string;
    key: string;
    fingerprint: string;
    createdAt: string;
    expiresAt: string;
  }): Promise<boolean>;
  find(clientId: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** Stores the answer of an in_progress claim; false if there was none. */
  complete(
    clientId: string,
    key: string,
    answer: { status: number; body: string; completedAt: string },
  ): Promise<boolean>;
  /** Deletes an in_progress claim (its request ended without an answer worth replaying). */
  release(clientId: string, key: string): Promise<boolean>;
}

/**
 * Rate-limit counters (docs/contract.md §2), shared by every process. Times are milliseconds on
 * the service clock; a counter whose `resetAt` has passed counts as absent.
 */
export interface RateLimitsRepo {
  /**
   * Counts one hit and returns the counter: a new window of `windowMs` when there was none or it
   * expired. With `slideUpTo`, every hit up to that many also restarts the window (a lock-out
   * then lasts a full window after the hit that reached the limit).
   */
  hit(
    key: string,
    now: number,
    windowMs: number,
    slideUpTo?: number,
  ): Promise<{ hits: number; resetAt: number }>;
  find(key: string, now: number): Promise<{ hits: number; resetAt: number } | undefined>;
  /** Takes one hit back (never below zero). */
  decrement(key: string): Promise<void>;
  reset(key: string): Promise<void>;
  /** Forgets every counter whose key starts with `prefix` (one limiter's). */
  resetPrefix(prefix: string): Promise<void>;
  deleteExpired(now: number): Promise<number>;
}

/** The audit log of the API's writes (docs/contract.md §11). */
export interface AuditRepo {
  insert(entry: AuditRecord): Promise<void>;
  /** The client's entries, newest first. */
  listByClient(clientId: string, page: PageRequest): Promise<Page<AuditRecord>>;
}

/** Free cards: promotions and their grants per player (docs/promotions.md). */
export interface PromotionsRepo {
  insert(promotion: PromotionRecord): Promise<void>;
  findById(id: string): Promise<PromotionEntry | undefined>;
  /** Newest first (created_at, then id). */
  list(filter: PromotionFilter, page: PageRequest): Promise<Page<PromotionEntry>>;
  /** The figures of each promotion of `ids` (zeros for one with no grants), in one statement. */
  figuresOf(ids: readonly string[]): Promise<Map<string, PromotionFigures>>;
  /** Those of `playerIds` that are not players of the profile (unknown, or another profile's), in one statement. */
  notPlayersOf(profileId: string, playerIds: readonly string[]): Promise<string[]>;
  /**
   * Grants `cards` cards to each of `playerIds` that is a player of `profileId` and not yet in the
   * promotion, in one statement whatever their number (a player already in it keeps what they
   * have). Returns how many were added.
   */
  grant(promotionId: string, profileId: string, playerIds: readonly string[], cards: number): Promise<number>;
  /** How many of the profile's promotions are scheduled or active at `now` (not cancelled, not expired). */
  countOpen(profileId: string, now: string): Promise<number>;
  /** Sets cancelled_at once; false (nothing changed) when it was already cancelled. */
  cancel(id: string, at: string): Promise<boolean>;
  /** Every grant of a player, in any state, with its promotion's game, name and times. */
  grantsOfPlayer(playerId: string): Promise<PlayerGrant[]>;
}

/** The play of free cards (docs/promotions.md, "A card used exactly once"). */
export interface FreeCardsRepo {
  /**
   * The player's grants that may be played in a session of `gameId` (its own, and those of another
   * version of its model at the same card price: docs/contract.md §14), in any state, the first to
   * expire first.
   */
  grantsOfGame(playerId: string, gameId: string): Promise<PlayerGrant[]>;
  /**
   * Uses one card of the player's grant, only while one is left and the promotion is active at
   * `now` for a session of `gameId` (as grantsOfGame): true when it did. Call it in the unit that
   * inserts the card's round.
   */
  useCard(card: { promotionId: string; playerId: string; gameId: string; now: string }): Promise<boolean>;
}

/** A player's limits and exclusion (docs/player-protection.md, 015_player_protection.sql). */
export interface ProtectionRepo {
  /** The player's stored limits, by key. */
  limitsOf(playerId: string): Promise<StoredLimitRecord[]>;
  /** Replaces every stored limit of the player with `limits` (call it in a unit). */
  replaceLimits(playerId: string, limits: readonly StoredLimitRecord[]): Promise<void>;
  /**
   * The player's `completed` bets, prizes and rollbacks in `currency` whose transaction was created
   * at or after `since` (an ISO time), each summed as a positive number of minor units. One statement.
   */
  periodTotals(playerId: string, currency: string, since: string): Promise<PeriodTotals>;
  findExclusion(playerId: string): Promise<ExclusionRecord | undefined>;
  /** Stores the player's exclusion, replacing any earlier one. */
  setExclusion(exclusion: ExclusionRecord): Promise<void>;
  /** False when the player had none. */
  deleteExclusion(playerId: string): Promise<boolean>;
  /**
   * What a protected player's buy decides on (records.ts BuyProtectionRecord), one statement. The
   * period starts are ISO times in the profile's zone (core limitPeriodBounds), `now` ISO.
   */
  buyProtection(input: {
    playerId: string;
    currency: string;
    periodStarts: Record<LimitPeriod, string>;
    now: string;
  }): Promise<BuyProtectionRecord>;
  /** The session's rounds (status, price paid, prize) created at or after `since`: a reality check's figures. */
  sessionRounds(playerId: string, sessionId: string, since: string): Promise<SummaryRound[]>;
  /** Records the session's last "Keep playing" at `at` (ISO); false when no such session. */
  acknowledgeRealityCheck(sessionId: string, at: string): Promise<boolean>;
}

/** What operations ask of the store: readiness and the scrape-time metrics. Read-only. */
export interface OpsRepo {
  /** One cheap query: the database answers and every migration shipped has been applied. */
  health(): Promise<StoreHealth>;
  webhookBacklog(): Promise<{ queued: number; oldestCreatedAt: string | null }>;
  currentPools(): Promise<{ gameId: string; gameModel: string; ticketsLeft: number; tickets: number }[]>;
}
