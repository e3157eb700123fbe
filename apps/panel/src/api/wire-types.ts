// The shapes the panel reads and sends, as the OpenAPI document at /v1/openapi.json describes them
// (apps/server/src/http/routes/*). Written as types only, so no schema library ships to the browser;
// api-client.test.ts checks them against a real service. Money is in major units, as on the wire.

export interface TokenSet {
  accessToken: string;
  signatureToken: string;
  expireAt: string;
}

export interface Pagination {
  pageIndex: number;
  pageSize: number;
  totalCount: number;
}

export interface Page<T, P extends Pagination = Pagination> {
  items: T[];
  pagination: P;
}

export interface Captcha {
  captchaId: string;
  /** data: URL of an SVG. */
  image: string;
}

export type Lang = 'pt' | 'en' | 'es';
export type ProfileType = 'operator' | 'integrator' | 'demo';

export interface Profile {
  profileId: string;
  name: string;
  type: ProfileType;
  currency: string;
  currencies: string[] | null;
  walletUrl: string | null;
  hasWalletSignatureToken: boolean;
  allowedOrigins: string[];
  createdAt: string;
  updatedAt: string;
}

export interface ProfileInput {
  name: string;
  type: ProfileType;
  currency?: string;
  currencies?: string[] | null;
  walletUrl?: string;
  walletSignatureToken?: string;
  allowedOrigins?: string[];
}

export interface Level {
  level: number;
  winners: number;
  totalPrize: number;
  prize: number;
  percentage: number;
}

export interface Game {
  id: string;
  gameModel: string;
  lang: string;
  currency: string;
  rtp: number;
  maxBetPrize: number;
  sampling: number;
  prizedPercent: number;
  betPrice: number;
  version: number;
  active: boolean;
  mediaUrl: string;
  levels: Level[];
}

export interface GameInput {
  profileId: string;
  gameModel: string;
  lang: Lang;
  currency: string;
  rtp: number;
  sampling: number;
  prizedPercent: number;
  betPrice: number;
  replacePreviousVersion: boolean;
}

export interface GameCreated {
  id: string | null;
  version: number | null;
  gameModel: string;
  active: boolean;
  totalAmount: number;
  totalDistribuitionAmount: number;
  totalPrized: number;
  totalLevels: number;
  levels: Level[];
}

export interface Player {
  _id: string;
  credential: string;
  credentialType: string;
  balance: number;
  balances: Record<string, number>;
  betWins: number;
  totalBets: number;
  createdAt: string;
}

export type TransactionType = 'bet' | 'prize' | 'rollback' | 'deposit';
export type TransactionStatus = 'pending' | 'completed' | 'declined' | 'failed';
export type RoundStatus = 'pending' | 'open' | 'closing' | 'closed' | 'declined' | 'voided';

export interface Transaction {
  _id: string;
  amount: number;
  type: TransactionType;
  currency: string;
  balanceBefore: number | null;
  balanceAfter: number | null;
  status: string;
}

export interface ListedTransaction extends Transaction {
  roundId: string;
  userId: string;
  profileId: string;
  createdAt: string;
}

export interface Round {
  _id: string;
  user: { _id: string; credential: string; credentialType: string; balance: number };
  prize: number;
  paidPrice: number;
  status: string;
  transactions: Transaction[];
  createdAt: string;
  endAt: string | null;
  profileId: string;
  gameId: string;
}

/** Filters of the round and transaction lists (all optional; dates are whole UTC days). */
export interface LedgerQuery {
  profileId?: string;
  userId?: string;
  roundId?: string;
  type?: TransactionType;
  /** A round's status on the round list, a transaction's on the transaction list. */
  status?: RoundStatus | TransactionStatus;
  dateStart?: string;
  dateEnd?: string;
  pageIndex?: number;
  pageSize?: number;
}

export type WebhookEvent = 'open-round' | 'close-round';

export interface Webhook {
  id: string;
  url: string;
  eventTriggers: WebhookEvent[];
  signatureToken: string;
  status: 'active' | 'disabled';
  createdAt: string;
  lastTriggered: string | null;
  failureCount: number;
  successCount: number;
}

export interface Delivery {
  id: string;
  webhookId: string;
  /** The event's id (its webhook-id header), the same on every attempt: what redeliver takes. */
  eventId: string;
  eventType: WebhookEvent;
  payload: Omit<Round, 'profileId' | 'gameId'>;
  responseCode: number | null;
  responseBody: string;
  success: boolean;
  duration: number;
  timestamp: string;
  retryCount: number;
  errorMessage: string | null;
}

export interface DeliveryPagination extends Pagination {
  successCount: number;
  failureCount: number;
}

export interface DeliveryQuery {
  status?: 'success' | 'failed' | 'pending';
  dateStart?: string;
  dateEnd?: string;
  pageIndex?: number;
  pageSize?: number;
}

/** One row of GET /v1/report: sums of the completed transactions of a day, game, currency or player. */
export interface ReportRow {
  key: string;
  currency: string;
  rounds: number;
  players: number;
  bets: number;
  prizes: number;
  rollbacks: number;
  ggr: number;
  /** prizes / bets; null without bets. */
  rtp: number | null;
}

export type ReportGroup = 'day' | 'game' | 'currency' | 'player';

export interface ReportQuery {
  profileId?: string;
  groupBy?: ReportGroup;
  dateStart?: string;
  dateEnd?: string;
}

export interface RoundResolution {
  resolution: 'paid' | 'written-off';
  note: string;
  resolvedAt: string;
}

export interface WalletCallAttempt {
  transactionId: string;
  type: string;
  attempt: number;
  sentAt: string;
  duration: number;
  outcome: 'ok' | 'declined' | 'unknown';
  httpStatus: number | null;
  balance: number | null;
  detail: string | null;
}

export interface RoundTicket {
  poolId: string;
  poolNumber: number | null;
  commitment: string | null;
  seed: string | null;
  drawIndex: number | null;
  level: number | null;
}

/** GET /v1/round/{roundId} (and a replay link): the round with everything support needs. */
export interface RoundDetail extends Round {
  gameModel: string | null;
  currency: string;
  flagged: boolean;
  resolution: RoundResolution | null;
  /** The card as the game page draws it (@raspa/core's layout); null before a ticket. */
  card: unknown;
  ticket: RoundTicket | null;
  /** Each level's prize of the game's ladder (major units): what the card's prize spots stand for. */
  prizeLevels: Array<{ level: number; prize: number }>;
  walletCalls: WalletCallAttempt[];
  deliveries: Delivery[];
}

export interface ReplayLink {
  /** The read-only page that draws the round's card. */
  url: string;
  /** The same round as JSON. */
  dataUrl: string;
  expireAt: string;
}

/** GET /v1/game/{id}/pools: one ticket pool of a game version. */
export interface Pool {
  poolId: string;
  number: number;
  sampling: number;
  commitment: string;
  draws: number;
  startedAt: string;
  endedAt: string | null;
  /** Published once the pool ended. */
  seed: string | null;
}

export interface AuditEntry {
  id: string;
  actor: 'apiKey' | 'panel';
  operation: string;
  targetId: string | null;
  ip: string;
  at: string;
}
