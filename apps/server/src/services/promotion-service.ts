import {
  cancelOutcome,
  freeCardsLines,
  isPromotionOpen,
  type PromotionStatus,
  playRulesOf,
  promotionStatus,
  promotionTimeProblems,
} from '@raspa/core';
import { isoNow } from '../clock.ts';
import type { Deps } from '../deps.ts';
import type { Page, PageRequest } from '../store/paging.ts';
import type {
  PlayerGrant,
  ProfileRecord,
  PromotionEntry,
  PromotionFigures,
  PromotionRecord,
} from '../store/records.ts';
import type { Repositories } from '../store/store.ts';
import { ApiError } from './api-error.ts';
import type { AuthContext } from './auth-context.ts';
import { referencedGame, referencedProfile } from './game-service.ts';
import { owned } from './ownership.ts';

export interface PromotionInput {
  profileId: string;
  gameId: string;
  name: string;
  cardsPerPlayer: number;
  /** Already deduplicated by the schema. */
  players: string[];
  startAt?: string | undefined;
  expireAt: string;
}

export interface PromotionListQuery extends PageRequest {
  profileId?: string | undefined;
  gameId?: string | undefined;
  status?: PromotionStatus | undefined;
}

/** A promotion as the API answers it: the stored one, its status now and its figures. */
export interface PromotionSummary {
  promotion: PromotionEntry;
  status: PromotionStatus;
  figures: PromotionFigures;
}

/** One line of a player's free cards (GET /v1/user/{userId}/free-cards). */
export interface FreeCardsEntry {
  promotionId: string;
  gameId: string;
  name: string;
  left: number;
  status: 'scheduled' | 'active';
  startAt: string;
  expireAt: string;
}

/** The ids listed in a message, so 10,000 unknown players do not make a 10,000-id error. */
const SHOWN_IDS = 10;

const timesOf = (record: Pick<PromotionRecord, 'startAt' | 'expireAt' | 'cancelledAt'>) => ({
  startAt: Date.parse(record.startAt),
  expireAt: Date.parse(record.expireAt),
  cancelledAt: record.cancelledAt === null ? null : Date.parse(record.cancelledAt),
});

/**
 * A jurisdiction whose rules forbid free cards (BR: Lei 14.790 art. 29, I; core's jurisdictions.ts)
 * takes no promotion and no new players for one: refused before anything is written.
 */
function requireFreeCardsAllowed(profile: Pick<ProfileRecord, 'id' | 'jurisdiction'>): void {
  if (playRulesOf(profile.jurisdiction).freeCards) return;
  throw new ApiError(
    'CONFLICT',
    `profile ${profile.id} is under ${profile.jurisdiction} rules, which forbid free cards (Lei 14.790/2023 art. 29, I: no bonus or prior advantage for a bet, even as a promotion; docs/promotions.md)`,
  );
}

/**
 * Free-card promotions (docs/contract.md §14, docs/promotions.md): created for one game version
 * of a profile and a list of its players, players added, listed, read and cancelled. The rules
 * (status, time limits, the free-cards lines) are core's; this service checks ownership and
 * writes each change in one unit. The play of a card is play/free-card-flow.ts.
 */
export function createPromotionService(deps: Deps) {
  const { store } = deps;
  const now = () => deps.clock().getTime();

  /** Every listed player must be one of the profile's: one statement, however many are listed. */
  async function requirePlayersOf(
    tx: Pick<Repositories, 'promotions'>,
    profileId: string,
    players: readonly string[],
  ): Promise<void> {
    const strangers = await tx.promotions.notPlayersOf(profileId, players);
    if (strangers.length === 0) return;
    const shown = strangers.slice(0, SHOWN_IDS).join(', ');
    const more = strangers.length > SHOWN_IDS ? ` and ${strangers.length - SHOWN_IDS} more` : '';
    throw new ApiError(
      'NOT_FOUND',
      `players: ${strangers.length} of the userIds listed ${strangers.length === 1 ? 'is not a player' : 'are not players'} of profile ${profileId}: ${shown}${more}`,
    );
  }

  async function summaries(entries: PromotionEntry[]): Promise<PromotionSummary[]> {
    const figures = await store.promotions.figuresOf(entries.map((entry) => entry.id));
    const at = now();
    return entries.map((promotion) => ({
      promotion,
      status: promotionStatus(timesOf(promotion), at),
      figures: figures.get(promotion.id) ?? { players: 0, granted: 0, used: 0, prizesMinor: 0 },
    }));
  }

  async function ownedPromotion(
    repos: Pick<Repositories, 'promotions'>,
    auth: AuthContext,
    promotionId: string,
  ): Promise<PromotionEntry> {
    return owned(await repos.promotions.findById(promotionId), auth.clientId, `promotion ${promotionId}`);
  }

  async function summaryOf(entry: PromotionEntry): Promise<PromotionSummary> {
    const [summary] = await summaries([entry]);
    if (!summary) throw new Error(`promotion ${entry.id} has no summary`);
    return summary;
  }

  return {
    /** Stores the promotion and its grants in one unit: all of them, or (on any refusal) nothing. */
    async create(auth: AuthContext, input: PromotionInput): Promise<{ id: string }> {
      const at = now();
      const startAt = input.startAt === undefined ? at : Date.parse(input.startAt);
      const expireAt = Date.parse(input.expireAt);
      const problems = promotionTimeProblems(
        { startAt: input.startAt === undefined ? null : startAt, expireAt },
        at,
      );
      if (problems.length > 0) {
        throw new ApiError(
          'VALIDATION_ERROR',
          problems.map(({ field, message }) => `${field}: ${message}`),
        );
      }
      return store.transaction(async (tx) => {
        const profile = await referencedProfile(tx, auth.clientId, input.profileId);
        requireFreeCardsAllowed(profile);
        const game = await referencedGame(tx, auth.clientId, input.gameId);
        if (game.profileId !== profile.id) {
          throw new ApiError(
            'VALIDATION_ERROR',
            `gameId: game ${game.id} is not a game of profile ${profile.id}`,
          );
        }
        await requirePlayersOf(tx, profile.id, input.players);
        const promotion: PromotionRecord = {
          id: deps.newId(),
          clientId: auth.clientId,
          profileId: profile.id,
          gameId: game.id,
          name: input.name,
          cardsPerPlayer: input.cardsPerPlayer,
          startAt: new Date(startAt).toISOString(),
          expireAt: new Date(expireAt).toISOString(),
          cancelledAt: null,
          createdAt: new Date(at).toISOString(),
        };
        await tx.promotions.insert(promotion);
        await tx.promotions.grant(promotion.id, profile.id, input.players, promotion.cardsPerPlayer);
        return { id: promotion.id };
      });
    },

    /**
     * Grants cardsPerPlayer cards to each listed player not yet in the promotion; one already in it
     * keeps what they have. Only while it is scheduled or active: an ended or cancelled one is a 409.
     */
    async addPlayers(
      auth: AuthContext,
      promotionId: string,
      players: string[],
    ): Promise<{ promotionId: string; added: number; alreadyGranted: number }> {
      return store.transaction(async (tx) => {
        const promotion = await ownedPromotion(tx, auth, promotionId);
        const status = promotionStatus(timesOf(promotion), now());
        if (!isPromotionOpen(status)) {
          throw new ApiError(
            'CONFLICT',
            `promotion ${promotionId} is ${status}: players can no longer be added`,
          );
        }
        const profile = await tx.profiles.findById(promotion.profileId);
        if (!profile) throw new Error(`promotion ${promotion.id} has no profile ${promotion.profileId}`);
        requireFreeCardsAllowed(profile);
        await requirePlayersOf(tx, promotion.profileId, players);
        const added = await tx.promotions.grant(
          promotion.id,
          promotion.profileId,
          players,
          promotion.cardsPerPlayer,
        );
        return { promotionId: promotion.id, added, alreadyGranted: players.length - added };
      });
    },

    /** The client's promotions, newest first; a profile named must be the caller's (else 404). */
    async list(auth: AuthContext, query: PromotionListQuery): Promise<Page<PromotionSummary>> {
      const { profileId, gameId, status, pageIndex, pageSize } = query;
      if (profileId !== undefined) {
        owned(await store.profiles.findById(profileId), auth.clientId, `profile ${profileId}`);
      }
      const page = await store.promotions.list(
        {
          clientId: auth.clientId,
          profileId: profileId ?? null,
          gameId: gameId ?? null,
          status: status ?? null,
          now: isoNow(deps),
        },
        { pageIndex, pageSize },
      );
      return { items: await summaries(page.items), totalCount: page.totalCount };
    },

    async get(auth: AuthContext, promotionId: string): Promise<PromotionSummary> {
      return summaryOf(await ownedPromotion(store, auth, promotionId));
    },

    /**
     * Cancels a scheduled or active promotion: its unused cards end (a card already in play
     * finishes, docs/promotions.md). A cancelled one answers as it is; an ended one is a 409.
     */
    async cancel(auth: AuthContext, promotionId: string): Promise<PromotionSummary> {
      const cancelled = await store.transaction(async (tx) => {
        const promotion = await ownedPromotion(tx, auth, promotionId);
        const outcome = cancelOutcome(promotionStatus(timesOf(promotion), now()));
        if (outcome === 'already-ended') {
          throw new ApiError('CONFLICT', `promotion ${promotionId} has ended: its cards ended with it`);
        }
        if (outcome === 'already-cancelled') return promotion;
        const cancelledAt = isoNow(deps);
        await tx.promotions.cancel(promotion.id, cancelledAt);
        return { ...promotion, cancelledAt };
      });
      return summaryOf(cancelled);
    },

    /** What a player has left per promotion: scheduled and active ones with cards left, the first to expire first. */
    async freeCards(auth: AuthContext, userId: string): Promise<FreeCardsEntry[]> {
      owned(await store.ledger.findPlayerRef(userId), auth.clientId, `user ${userId}`);
      const grants = await store.promotions.grantsOfPlayer(userId);
      const byId = new Map<string, PlayerGrant>(grants.map((grant) => [grant.promotionId, grant]));
      const lines = freeCardsLines(
        grants.map((grant) => ({
          promotionId: grant.promotionId,
          count: grant.cards,
          used: grant.used,
          ...timesOf(grant),
        })),
        now(),
      );
      return lines.map((line) => {
        const grant = byId.get(line.promotionId) as PlayerGrant;
        return {
          promotionId: line.promotionId,
          gameId: grant.gameId,
          name: grant.name,
          left: line.left,
          status: line.status,
          startAt: grant.startAt,
          expireAt: grant.expireAt,
        };
      });
    },
  };
}

export type PromotionService = ReturnType<typeof createPromotionService>;
