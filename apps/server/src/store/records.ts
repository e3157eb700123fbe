/**
 * The records the store keeps and hands back, independent of any database: the repositories
 * (repositories.ts) take and return these shapes. Money is integer minor units throughout.
 */
import {
  type GameModel,
  type Jurisdiction,
  type Ladder,
  type LimitPeriod,
  type PeriodTotals,
  type PromotionStatus,
  roundStatusSchema,
  type SessionEndCode,
} from '@raspa/core';
import type { Page } from './paging.ts';

// ---- clients

export interface ApiClientRecord {
  id: string;
  name: string;
  email: string;
  apiKeyHash: string;
  passwordHash: string | null;
  lang: string;
  createdAt: string;
}

/** Which login a token set came from: the API key's, or the panel's e-mail and password. */
export type TokenOrigin = 'api-key' | 'panel';

export interface TokenSetRecord {
  id: string;
  clientId: string;
  accessHash: string;
  expireAt: string;
  revokedAt: string | null;
  createdAt: string;
  via: TokenOrigin;
}

// ---- profiles

export type ProfileType = 'operator' | 'integrator' | 'demo' | 'test';

export interface ProfileRecord {
  id: string;
  clientId: string;
  name: string;
  type: ProfileType;
  /** The default currency: what the player list's balance is in. */
  currency: string;
  /** The currencies its games may be priced in (its wallet takes them); null = any ISO 4217 code. */
  currencies: string[] | null;
  walletUrl: string | null;
  /** The operator's wallet signature token, sealed with the server key. */
  walletTokenSealed: string | null;
  allowedOrigins: string[];
  /** Player protection (docs/player-protection.md): a preset of page and play rules; null: none. */
  jurisdiction: Jurisdiction | null;
  /** IANA time zone the players' limit periods are counted in (default UTC). */
  timezone: string;
  /** Minutes between reality checks for players without their own; null: the jurisdiction's, if any. */
  realityCheckMinutes: number | null;
  responsibleGamingUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A profile's protection fields when none are given: no jurisdiction, limits counted in UTC. */
export const PROFILE_PROTECTION_DEFAULTS = {
  jurisdiction: null,
  timezone: 'UTC',
  realityCheckMinutes: null,
  responsibleGamingUrl: null,
} as const satisfies Pick<
  ProfileRecord,
  'jurisdiction' | 'timezone' | 'realityCheckMinutes' | 'responsibleGamingUrl'
>;

// ---- games

/** One stored version of a game configuration; the ladder is kept as computed (minor units). */
export interface GameRecord {
  id: string;
  clientId: string;
  profileId: string;
  gameModel: GameModel;
  version: number;
  active: boolean;
  lang: string;
  currency: string;
  rtpPpm: number;
  sampling: number;
  prizedPpm: number;
  betMinor: number;
  ladder: Ladder;
  createdAt: string;
}

// ---- players

export const CREDENTIAL_TYPES = ['email', 'username', 'phone', 'external'] as const;

export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

/** A player of one profile, known by the integrator's credential; one per (profile, type, credential). */
export interface PlayerRecord {
  id: string;
  clientId: string;
  profileId: string;
  credential: string;
  credentialType: CredentialType;
  /** The last balance the wallet reported in the profile's (default) currency, minor units. */
  balanceMinor: number;
  betWins: number;
  totalBets: number;
  createdAt: string;
}

export interface UserTokenRecord {
  tokenHash: string;
  playerId: string;
  expireAt: string;
  createdAt: string;
}

// ---- sessions

/** A player's session on one game version; its token is kept only as a digest. */
export interface GameSessionRecord {
  id: string;
  clientId: string;
  profileId: string;
  playerId: string;
  gameId: string;
  tokenHash: string;
  lang: string;
  returnUrl: string | null;
  expireAt: string;
  createdAt: string;
  /** When the player last chose "Keep playing" at a reality check (issue 25); null: never. */
  realityCheckAckedAt: string | null;
  /** When an operator's DELETE or an exclusion ended it (null: not ended; it still expires). */
  endedAt: string | null;
  /** The play error its requests answer once ended. */
  endCode: SessionEndCode | null;
}

/** A live session of a player as GET /v1/user/{userId}/sessions lists it. */
export interface LiveSessionRow {
  id: string;
  gameId: string;
  createdAt: string;
  expireAt: string;
}

/** A round as the `history` socket request reads it: what the page draws, no more. */
export interface HistoryRoundRow {
  id: string;
  status: RoundStatus;
  cardJson: string;
  level: number;
  prizeMinor: number;
  paidMinor: number;
  createdAt: string;
  endAt: string | null;
}

// ---- ledger

export const TRANSACTION_TYPES = ['bet', 'prize', 'rollback', 'deposit'] as const;

export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/**
 * One wallet movement of a round. `amountMinor` is signed: the change to the player's balance
 * (a bet is negative, a prize or a rollback positive), in minor units of `currency`.
 */
export interface TransactionRecord {
  id: string;
  roundId: string;
  clientId: string;
  profileId: string;
  playerId: string;
  type: TransactionType;
  amountMinor: number;
  currency: string;
  /** null until the wallet has answered. */
  balanceBeforeMinor: number | null;
  balanceAfterMinor: number | null;
  status: TransactionStatus;
  createdAt: string;
}

/** The player as a round shows it: its current figures, its last balance in the round's currency. */
export interface RoundPlayer {
  id: string;
  credential: string;
  credentialType: 'email' | 'username' | 'phone' | 'external';
  balanceMinor: number;
  balanceCurrency: string;
  betWins: number;
  totalBets: number;
}

/**
 * What a unit that changes a round holds of it for the round's webhook event (issue 23: the event
 * is built from this, not read): the round, its wallet calls (oldest first) and its player.
 */
export interface HeldRound {
  round: RoundRecord;
  calls: TransactionRecord[];
  player: RoundPlayer;
}

/** A round with its player and its transactions (oldest first). */
export interface RoundDetail {
  id: string;
  clientId: string;
  profileId: string;
  gameId: string;
  sessionId: string;
  status: RoundStatus;
  currency: string;
  paidMinor: number;
  prizeMinor: number;
  createdAt: string;
  endAt: string | null;
  /** The promotion whose free card played the round; null for a bought card. */
  promotionId: string | null;
  /** A round of a test profile (docs/certification.md). */
  test: boolean;
  player: RoundPlayer;
  transactions: TransactionRecord[];
}

/** The filters of both lists; null = not filtered. Always limited to one API client. */
export interface LedgerFilter {
  clientId: string;
  profileId: string | null;
  playerId: string | null;
  roundId: string | null;
  /** Transactions of this type; rounds having a transaction of this type. */
  type: TransactionType | null;
  /** The record's own status: a round's (RoundStatus) on the round list, a transaction's on the other. */
  status: RoundStatus | TransactionStatus | null;
  /** Inclusive lower bound of `createdAt` (ISO). */
  from: string | null;
  /** Exclusive upper bound of `createdAt` (ISO). */
  before: string | null;
}

/** Where a batch of a list export stopped: its last record's createdAt and id. */
export interface ListCursor {
  createdAt: string;
  id: string;
}

/** Who owns a record a filter names. */
export interface OwnerRef {
  id: string;
  clientId: string;
}

// ---- rounds

/**
 * A round's life: `pending` (bet sent), `open` (card bought), `closing` (prize sent), `closed`;
 * or `declined` (the wallet said no) and `voided` (the bet had no answer and was rolled back).
 */
export const ROUND_STATUSES = roundStatusSchema.options; // the play protocol's

export type RoundStatus = (typeof ROUND_STATUSES)[number];

export const TRANSACTION_STATUSES = ['pending', 'completed', 'declined', 'failed'] as const;

export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** A round as the play loop writes it (the lists read it through the ledger repo). */
export interface RoundRecord {
  id: string;
  clientId: string;
  profileId: string;
  gameId: string;
  playerId: string;
  sessionId: string;
  status: RoundStatus;
  currency: string;
  paidMinor: number;
  prizeMinor: number;
  createdAt: string;
  endAt: string | null;
  poolId: string | null;
  drawIndex: number | null;
  level: number | null;
  /** The card as JSON (CardOfModel), once the ticket is drawn. */
  cardJson: string | null;
  lastActionAt: string;
  /** Set when a prize or rollback could not be settled automatically. */
  reconciliation: boolean;
  /**
   * A won round's prize transactionId, fixed when it opens: the reveal sends the prize before it
   * writes anything, so every sender uses this one id (docs/store.md, cut 6). Null otherwise.
   */
  prizeTransactionId: string | null;
  /** The promotion whose free card this round plays; null for a bought card. */
  promotionId: string | null;
  /** A round of a test profile (docs/certification.md): left out of the report. */
  test: boolean;
}

/**
 * A wallet movement as the play loop keeps it: the listed transaction plus the state of the wallet
 * call that carries it (its id is the transactionId).
 */
export interface LedgerTransaction extends TransactionRecord {
  status: TransactionStatus;
  originalTransactionId: string | null;
  attempts: number;
  /** When the retrier may pick it up (an in-flight call holds it off until its time-out has passed). */
  nextAttemptAt: string | null;
  lastError: string | null;
  completedAt: string | null;
}

/** What the fairness check reads of a round that drew a ticket from a pool. */
export interface PoolDrawRecord {
  roundId: string;
  drawIndex: number | null;
  level: number | null;
  cardJson: string | null;
  prizeMinor: number;
}

// ---- pools

export interface PoolRecord {
  id: string;
  gameId: string;
  number: number;
  sampling: number;
  /** The 32-byte seed as hex, sealed with the server key until the pool ends. */
  seedSealed: string;
  commitment: string;
  /**
   * Tickets drawn: those of its closed blocks of draw indexes (stored) and the rounds drawn from
   * its open ones; `sampling` once it ended.
   */
  draws: number;
  /** Draw indexes below this are in blocks (handed to processes, docs/store.md); the rest in none yet. */
  allocated: number;
  /** Published when the pool ends. */
  seedHex: string | null;
  startedAt: string;
  endedAt: string | null;
}

/** A block of a pool's draw indexes [first, end), held by one process until its lease expires. */
export interface PoolBlockRecord {
  poolId: string;
  first: number;
  end: number;
  owner: string;
  expiresAt: string;
}

// ---- webhooks

/** A round's two events, and `anchor` (opt-in: each signed audit anchor, docs/audit.md). */
export const WEBHOOK_EVENTS = ['open-round', 'close-round', 'anchor'] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export type WebhookStatus = 'active' | 'disabled';

/** success; pending = failed and a retry is scheduled; failed = failed and no retry is coming. */
export type DeliveryStatus = 'success' | 'failed' | 'pending';

/**
 * How a webhook receives its events (docs/webhooks.md, "Batches"): `single`, one event per request
 * (§7); `batch`, while deliveries are in flight the events waiting go together, up to `maxEvents`
 * per request and at most `maxWaitMs` late. Set at registration, never changed.
 */
export interface WebhookDelivery {
  mode: 'single' | 'batch';
  maxEvents: number;
  maxWaitMs: number;
}

export interface WebhookRecord {
  id: string;
  clientId: string;
  /** As `new URL(url).href` writes it, so two spellings of one address count as the same. */
  url: string;
  eventTriggers: WebhookEvent[];
  /** The integrator's signatureToken, sealed with the server key (the list shows it back). */
  tokenSealed: string;
  status: WebhookStatus;
  createdAt: string;
  lastTriggered: string | null;
  successCount: number;
  failureCount: number;
  delivery: WebhookDelivery;
  /** Soft delete: the webhook leaves the API, its delivery log stays for audit. */
  deletedAt: string | null;
}

/** One delivery attempt, as the log keeps it. */
export interface DeliveryRecord {
  id: string;
  webhookId: string;
  /** The event's id: the same on every retry (the `webhook-id` header receivers deduplicate on). */
  eventId: string;
  eventType: WebhookEvent;
  /** The event's body, read from the outbox (stored once, not per attempt). */
  payload: unknown;
  /** null when no answer came back (time-out, refused connection, DNS failure). */
  responseCode: number | null;
  responseBody: string;
  success: boolean;
  status: DeliveryStatus;
  /** Milliseconds from sending the request to the end of the answer (or the failure). */
  durationMs: number;
  timestamp: string;
  /** How many earlier attempts this event had at this webhook: 0 for the first. */
  retryCount: number;
  errorMessage: string | null;
  /** The request's own webhook-id when the event went in a batch; null for a single delivery. */
  batchId: string | null;
}

/** A delivery-log row as written: its payload is its event's. */
export type LoggedDelivery = Omit<DeliveryRecord, 'payload' | 'batchId'> & { batchId?: string | null };

/** What the dispatcher knows after one attempt; the repo works out the status. */
export interface DeliveryAttempt {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: WebhookEvent;
  /**
   * The event's earlier attempts (its `attempts`): 0 for the first, which has no row to close.
   * Omitted (a manual re-send, outside the queue's count), the repo counts the earlier rows.
   */
  retryCount?: number;
  responseCode: number | null;
  responseBody: string;
  success: boolean;
  durationMs: number;
  timestamp: string;
  errorMessage: string | null;
  /** The batch's id (its webhook-id) when the event went in one; null or absent for a single delivery. */
  batchId?: string | null;
  /** For a failure: whether another attempt is scheduled (the row is then `pending`). */
  willRetry: boolean;
}

/** An attempt of a queued event, as a drain records it: its earlier attempts known. */
export type QueuedAttempt = Omit<DeliveryAttempt, 'retryCount'> & { retryCount: number };

export interface DeliveryFilter {
  status: DeliveryStatus | null;
  /** Inclusive lower bound of `timestamp` (ISO). */
  from: string | null;
  /** Exclusive upper bound of `timestamp` (ISO). */
  before: string | null;
}

export interface DeliveryPage extends Page<DeliveryRecord> {
  /** Successful attempts among the filtered rows. */
  successCount: number;
  /** Failed attempts among the filtered rows, those waiting for a retry included. */
  failureCount: number;
}

// ---- outbox

/**
 * The webhook outbox (docs/contract.md §7): one row per (event, subscribed webhook), written in the
 * round's transaction and sent in `seq` order per webhook by the dispatcher.
 *
 * queued → delivered (a 2xx came back) | failed (gave up) | dropped (the webhook was disabled or
 * deleted before it could be sent).
 */
export type OutboxStatus = 'queued' | 'delivered' | 'failed' | 'dropped';

export interface OutboxEvent {
  /** Insertion order: the order a webhook receives its events in. */
  seq: number;
  /** The event id: the `webhook-id` header, the same on every retry. */
  id: string;
  webhookId: string;
  /** The round of a round's event; null for an `anchor` event (no round). */
  roundId: string | null;
  eventType: WebhookEvent;
  /** The round (or the anchor) as the event carries it. */
  payload: unknown;
  status: OutboxStatus;
  /** Attempts made so far. */
  attempts: number;
  nextAttemptAt: string;
  /** When its first attempt failed; null while none has. */
  firstFailureAt: string | null;
  createdAt: string;
}

export type NewOutboxEvent = Omit<OutboxEvent, 'seq' | 'status' | 'attempts' | 'firstFailureAt'>;

/** An event to queue for each webhook subscribed to it (`outbox.insertForSubscribers`). */
export interface SubscribersEvent {
  /** The first webhook's event id; the n-th webhook's is `${id}.${n}`. */
  id: string;
  clientId: string;
  /** null for an `anchor` event. */
  roundId: string | null;
  eventType: WebhookEvent;
  payload: unknown;
  /** Its creation time, and the time it is due. */
  at: string;
}

/** The oldest queued event of one webhook: the only one of that webhook that may be sent now. */
export interface OutboxHead {
  webhookId: string;
  eventId: string;
  nextAttemptAt: string;
}

// ---- resets

export interface ResetTokenRecord {
  id: string;
  clientId: string;
  /** SHA-256 of the token sent by e-mail; the token itself is never stored. */
  tokenHash: string;
  expireAt: string;
  usedAt: string | null;
  createdAt: string;
}

export interface CaptchaRecord {
  id: string;
  /** SHA-256 of the issued ALTCHA challenge's signature (`id` is its nonce). */
  answerHash: string;
  expireAt: string;
  usedAt: string | null;
}

// ---- demo-wallet

/**
 * What a call of the demo wallet is, now: `bet`, `prize`, `rollback`; a bet that a later rollback
 * re-credited becomes `bet-rolled-back`; `voided` marks the id of a transaction that was rolled
 * back before the demo wallet ever saw it, so a late bet with that id cannot debit.
 */
export type DemoWalletCallKind = 'bet' | 'bet-rolled-back' | 'prize' | 'rollback' | 'voided';

export interface DemoWalletCallRecord {
  transactionId: string;
  playerId: string;
  kind: DemoWalletCallKind;
  amountMinor: number;
  /** The first answer, as JSON: a repeat of the transactionId gets it back verbatim. */
  answer: string;
  createdAt: string;
}

// ---- idempotency

export interface IdempotencyRecord {
  clientId: string;
  key: string;
  fingerprint: string;
  state: 'in_progress' | 'completed';
  responseStatus: number | null;
  responseBody: string | null;
  createdAt: string;
  expiresAt: string;
  completedAt: string | null;
}

// ---- back office (docs/contract.md §11)

/** One write through the API that changed something. */
export interface AuditRecord {
  id: string;
  clientId: string;
  /** Whose token set made it: the API key's or the panel user's. */
  actor: TokenOrigin;
  /** Method and route, e.g. `POST /v1/webhook/:webhookId/redeliver`. */
  operation: string;
  /** The record it changed, when one is named (a path id or the id it created). */
  targetId: string | null;
  ip: string;
  at: string;
}

/** ok: a definite yes; declined: a definite no (a 4xx with a code); unknown: no definite answer. */
export type WalletCallOutcome = 'ok' | 'declined' | 'unknown';

/** One attempt of a wallet call (the transaction it carries), with what came back. */
export interface WalletAttemptRecord {
  id: string;
  transactionId: string;
  roundId: string;
  /** 1 for the first attempt of the call. */
  attempt: number;
  sentAt: string;
  durationMs: number;
  outcome: WalletCallOutcome;
  /** The HTTP status of a declined call; null otherwise (or unknown). */
  httpStatus: number | null;
  /** The balance a yes reported; null otherwise. */
  balanceMinor: number | null;
  /** The decline's code and message, or why no definite answer came; null for a yes. */
  detail: string | null;
}

export type Resolution = 'paid' | 'written-off';

/** How a person settled a round flagged for reconciliation. */
export interface RoundResolutionRecord {
  roundId: string;
  resolution: Resolution;
  note: string;
  resolvedAt: string;
}

export const REPORT_GROUPS = ['day', 'game', 'currency', 'player'] as const;

export type ReportGroup = (typeof REPORT_GROUPS)[number];

/**
 * One row of the GGR report: the `completed` bets, prizes and rollbacks of a group (a UTC day, a
 * game id, a currency, a player id) in one currency, minor units, each a positive sum.
 */
export interface ReportRow {
  key: string;
  currency: string;
  /** Rounds whose completed bet is in the row. */
  rounds: number;
  /** Players who placed those bets. */
  players: number;
  betsMinor: number;
  /** Prizes of bought cards. */
  prizesMinor: number;
  rollbacksMinor: number;
  /** Free cards played: rounds opened with a free card (docs/promotions.md), by the round's day. */
  promoRounds: number;
  /** Prizes of free cards: the promotions' cost. */
  promoPrizesMinor: number;
}

// ---- free cards (docs/contract.md §14, docs/promotions.md)

/** A promotion as stored. Its status is not stored: core's promotionStatus derives it from the times. */
export interface PromotionRecord {
  id: string;
  clientId: string;
  profileId: string;
  gameId: string;
  name: string;
  cardsPerPlayer: number;
  startAt: string;
  expireAt: string;
  /** When it was cancelled; null while it is not. */
  cancelledAt: string | null;
  createdAt: string;
}

/** A promotion as read back: with what one card is worth (its game's bet price, minor units) and in which currency. */
export interface PromotionEntry extends PromotionRecord {
  cardMinor: number;
  currency: string;
}

/** A promotion's figures, summed over its grants. */
export interface PromotionFigures {
  /** Players granted cards. */
  players: number;
  /** Cards granted. */
  granted: number;
  /** Cards a round opened with. */
  used: number;
  /** The completed prizes of its rounds, in the game's minor units. */
  prizesMinor: number;
}

/** Which promotions a list shows; `status` is computed at `now`, as promotionStatus computes it. */
export interface PromotionFilter {
  clientId: string;
  profileId: string | null;
  gameId: string | null;
  status: PromotionStatus | null;
  now: string;
}

/** A player's cards of one promotion, with that promotion's game, name and times. */
export interface PlayerGrant {
  promotionId: string;
  gameId: string;
  name: string;
  cards: number;
  used: number;
  startAt: string;
  expireAt: string;
  cancelledAt: string | null;
}

// ---- player protection (docs/player-protection.md, 015_player_protection.sql)

/**
 * One stored limit of a player. `key`: a money limit's `loss:day:BRL` (core limitKeyOf; minor
 * units), or SESSION_MINUTES_KEY / REALITY_CHECK_MINUTES_KEY (minutes). `pendingAppliesAt` set:
 * a looser value waits (`pendingValue` null: the limit is to be removed).
 */
export interface StoredLimitRecord {
  key: string;
  value: number | null;
  pendingValue: number | null;
  pendingAppliesAt: string | null;
}

/**
 * What a protected player's buy reads in one statement (protection-repo.ts `buyProtection`): the
 * stored limits, the exclusion (held or not: the rule decides), when the player last bought a
 * round (not declined or voided), and the completed sums in the card's currency since each
 * period's start.
 */
export interface BuyProtectionRecord {
  limits: StoredLimitRecord[];
  exclusion: Pick<ExclusionRecord, 'reason' | 'endsAt'> | null;
  lastBuyAt: string | null;
  totals: Record<LimitPeriod, PeriodTotals>;
}

export const SESSION_MINUTES_KEY = 'session-minutes';
export const REALITY_CHECK_MINUTES_KEY = 'reality-check-minutes';

export interface ExclusionRecord {
  playerId: string;
  reason: 'self' | 'operator';
  /** null: indefinite. */
  endsAt: string | null;
  createdAt: string;
}

// ---- ops

export type StoreHealth = { ok: true } | { ok: false; reason: string };

/** A forced card waiting in a test session's queue (docs/certification.md). */
export interface TestCardRecord {
  sessionId: string;
  /** Its place in the queue: the lowest is the next card. */
  position: number;
  /** The level the card is forced to; 0 = a losing card. */
  level: number;
}
