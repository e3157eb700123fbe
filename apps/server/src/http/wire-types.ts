// The service's wire shapes as TypeScript types, for clients in this workspace (the panel imports
// them as `@raspa/server/wire`, package.json `exports`). Each is inferred from the zod schema that
// validates the request or writes the answer and /v1/openapi.json, so a client's typecheck breaks
// when a shape changes. Types only: a client's `import type` is erased at build, and no server code
// or zod reaches a browser bundle. Money is in major units, as on the wire. Answers are `z.output`
// (what the service sends); bodies a client sends are `z.input` (defaults optional); queries are the
// validated `z.output`, every field optional, since their numbers arrive as text and are coerced.
import type { z } from 'zod';
import type { anchorSchema } from '../schemas/anchor.ts';
import type { lang } from '../schemas/common.ts';
import type { pageQuery, paginationSchema } from '../schemas/paging.ts';
import type {
  playerFreeCards,
  promotionCreateBody,
  promotionCreated,
  promotionListQuery,
  promotionPlayersAdded,
  promotionSchema,
} from '../schemas/promotion.ts';
import type { exclusionBody, exclusionSchema, limitsBody, limitsSchema } from '../schemas/protection.ts';
import type {
  roundListItem,
  roundStatus,
  transactionListItem,
  transactionSchema,
  transactionStatus,
  transactionType,
} from '../schemas/round.ts';
import type { captchaChallengeSchema } from '../security/captcha-verifier.ts';
import type { proofSchema } from './routes/audit-anchor-routes.ts';
import type { auditEntrySchema } from './routes/audit-routes.ts';
import type { newApiKeySchema, tokenSetSchema } from './routes/auth-routes.ts';
import type {
  activationBody,
  gameCreateBody,
  gameCreatedSchema,
  gameSchema,
  levelSchema,
} from './routes/game-routes.ts';
import type { reportQuery, reportRowSchema, roundQuery, transactionQuery } from './routes/list-routes.ts';
import type { changeBody, forgotBody, panelLoginBody, resetBody } from './routes/panel-auth-routes.ts';
import type { parSheetSchema } from './routes/par-sheet-routes.ts';
import type { poolSchema } from './routes/pool-routes.ts';
import type { profileCreateBody, profileSchema, profileUpdateBody } from './routes/profile-routes.ts';
import type {
  replayLinkSchema,
  resolutionSchema,
  resolveBody,
  roundDossierSchema,
  ticketSchema,
  walletAttemptSchema,
} from './routes/round-routes.ts';
import type { liveSessionSchema } from './routes/session-routes.ts';
import type { playerListQuery, playerSchema } from './routes/user-routes.ts';
import type {
  deliveryLogSchema,
  deliveryPagination,
  deliveryQuery,
  redeliverBody,
  webhookCreatedSchema,
  webhookEvent,
  webhookRegisterBody,
  webhookSchema,
} from './routes/webhook-routes.ts';

/** A query as a client builds it: the validated shape, every field optional, `format` its own (csv()). */
type QueryOf<S extends z.ZodType> = Partial<Omit<z.output<S>, 'format'>>;

// ---- authentication
export type TokenSet = z.output<typeof tokenSetSchema>;
/** An ALTCHA challenge, for the captcha widget to solve. */
export type CaptchaChallenge = z.output<typeof captchaChallengeSchema>;
export type PanelLogin = z.input<typeof panelLoginBody>;
export type ForgotPassword = z.input<typeof forgotBody>;
export type ResetPassword = z.input<typeof resetBody>;
export type ChangePassword = z.input<typeof changeBody>;
export type NewApiKey = z.output<typeof newApiKeySchema>;
export type Lang = z.output<typeof lang>;

// ---- lists
export type Pagination = z.output<typeof paginationSchema>;
/** Paging of a list a client asks for. */
export type PageQuery = QueryOf<typeof pageQuery>;

// ---- profiles
export type Profile = z.output<typeof profileSchema>;
export type ProfileType = Profile['type'];
export type ProfileInput = z.input<typeof profileCreateBody>;
export type ProfileUpdate = z.input<typeof profileUpdateBody>;

// ---- games
export type Level = z.output<typeof levelSchema>;
export type Game = z.output<typeof gameSchema>;
/** A game to create or simulate; the panel's api client sets `simulation`. */
export type GameInput = Omit<z.input<typeof gameCreateBody>, 'simulation'>;
export type GameCreated = z.output<typeof gameCreatedSchema>;
export type GameActivation = z.input<typeof activationBody>;

// ---- players
export type Player = z.output<typeof playerSchema>;
export type PlayerQuery = QueryOf<typeof playerListQuery>;

// ---- rounds and transactions
export type TransactionType = z.output<typeof transactionType>;
export type TransactionStatus = z.output<typeof transactionStatus>;
export type RoundStatus = z.output<typeof roundStatus>;
export type Transaction = z.output<typeof transactionSchema>;
export type ListedTransaction = z.output<typeof transactionListItem>;
export type Round = z.output<typeof roundListItem>;
/** Filters of the round and transaction lists: `status` takes a round's or a transaction's. */
export type LedgerQuery = QueryOf<typeof roundQuery> | QueryOf<typeof transactionQuery>;

export type RoundResolution = z.output<typeof resolutionSchema>;
export type ResolveRound = z.input<typeof resolveBody>;
export type WalletCallAttempt = z.output<typeof walletAttemptSchema>;
export type RoundTicket = z.output<typeof ticketSchema>;
/** GET /v1/round/{roundId} (and a replay link): the round with everything support needs. */
export type RoundDetail = z.output<typeof roundDossierSchema>;
export type ReplayLink = z.output<typeof replayLinkSchema>;

// ---- report
export type ReportRow = z.output<typeof reportRowSchema>;
export type ReportQuery = QueryOf<typeof reportQuery>;
export type ReportGroup = z.output<typeof reportQuery>['groupBy'];

// ---- pools
export type Pool = z.output<typeof poolSchema>;
export type ParSheet = z.output<typeof parSheetSchema>;

// ---- webhooks
export type WebhookEvent = z.output<typeof webhookEvent>;
export type Webhook = z.output<typeof webhookSchema>;
export type WebhookInput = z.input<typeof webhookRegisterBody>;
export type WebhookCreated = z.output<typeof webhookCreatedSchema>;
export type Delivery = z.output<typeof deliveryLogSchema>;
export type DeliveryPagination = z.output<typeof deliveryPagination>;
export type DeliveryQuery = QueryOf<typeof deliveryQuery>;
export type Redeliver = z.input<typeof redeliverBody>;

// ---- API access
export type AuditEntry = z.output<typeof auditEntrySchema>;
/** GET /v1/round/{roundId}/proof (docs/audit.md). */
export type RoundProof = z.output<typeof proofSchema>;
/** One of GET /v1/audit/anchors, and the `anchor` webhook event's payload. */
export type AuditAnchor = z.output<typeof anchorSchema>;

// ---- player protection
/** GET /v1/user/{userId}/limits: the limits in force, their usage and the looser values waiting. */
export type Limits = z.output<typeof limitsSchema>;
export type MoneyLimit = Limits['limits'][number];
export type LimitUsage = Limits['usage'][number];
export type PendingLimit = Limits['pending']['limits'][number];
/** PUT /v1/user/{userId}/limits: replaces every limit. */
export type LimitsUpdate = z.input<typeof limitsBody>;
export type Exclusion = z.output<typeof exclusionSchema>;
export type ExclusionCreate = z.input<typeof exclusionBody>;
/** GET /v1/user/{userId}/sessions: one live session (not ended, not expired). */
export type LiveSession = z.output<typeof liveSessionSchema>;

// ---- promotions
export type Promotion = z.output<typeof promotionSchema>;
export type PromotionStatus = Promotion['status'];
export type PromotionCreate = z.input<typeof promotionCreateBody>;
export type PromotionCreated = z.output<typeof promotionCreated>;
export type PromotionPlayersAdded = z.output<typeof promotionPlayersAdded>;
export type PromotionQuery = Partial<z.output<typeof promotionListQuery>>;
export type PlayerFreeCards = z.output<typeof playerFreeCards>;
