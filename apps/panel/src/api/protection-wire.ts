// The wire shapes of player protection and promotions (docs/contract.md §13–§14) as the panel uses
// them: inferred from the service's own zod schemas by type-only imports, erased at build, as
// `@raspa/server/wire` does for the rest. They belong in that module (apps/server/src/http/wire-types.ts);
// they are here only because this change may not touch the server: move them there when it can.
import type { z } from 'zod';
import type {
  playerFreeCards,
  promotionCreateBody,
  promotionCreated,
  promotionListQuery,
  promotionPlayersAdded,
  promotionSchema,
} from '../../../server/src/schemas/promotion.ts';
import type {
  exclusionBody,
  exclusionSchema,
  limitsBody,
  limitsSchema,
} from '../../../server/src/schemas/protection.ts';

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

// ---- promotions
export type Promotion = z.output<typeof promotionSchema>;
export type PromotionStatus = Promotion['status'];
export type PromotionCreate = z.input<typeof promotionCreateBody>;
export type PromotionCreated = z.output<typeof promotionCreated>;
export type PromotionPlayersAdded = z.output<typeof promotionPlayersAdded>;
export type PromotionQuery = Partial<z.output<typeof promotionListQuery>>;
export type PlayerFreeCards = z.output<typeof playerFreeCards>;
