import {
  changeLimit,
  changeLimits,
  type Exclusion,
  isExcluded,
  type LimitKey,
  type LimitState,
  limitKeyOf,
  limitPeriodBounds,
  limitUsed,
  mayLiftExclusion,
  NO_LIMIT,
  newExclusionProblem,
  type PendingLimit,
  type PeriodTotals,
  replaceExclusionProblem,
  settleLimit,
  toMinor,
} from '@raspa/core';
import { isoNow } from '../clock.ts';
import type { Deps } from '../deps.ts';
import { exclusionOf, keyOf, moneyStatesOf, rowOf, stateAt } from '../store/protection-records.ts';
import {
  type ExclusionRecord,
  type PlayerRecord,
  type ProfileRecord,
  REALITY_CHECK_MINUTES_KEY,
  SESSION_MINUTES_KEY,
  type StoredLimitRecord,
} from '../store/records.ts';
import type { Repositories } from '../store/store.ts';
import { ApiError } from './api-error.ts';
import type { AuthContext } from './auth-context.ts';
import { owned } from './ownership.ts';
import type { SessionEndNotifier } from './session-endings.ts';

export interface LimitsRequest {
  limits: { type: LimitKey['type']; period: LimitKey['period']; currency: string; amount: number }[];
  sessionMinutes?: number | null | undefined;
  realityCheckMinutes?: number | null | undefined;
}

/** A money limit in force with its usage in the current period (minor units, epoch ms). */
export interface LimitInForce extends LimitKey {
  amount: number;
  used: number;
  resetAt: number;
}

/** A player's limits at one instant, as the API shows them (minor units, epoch ms). */
export interface PlayerLimits {
  limits: LimitInForce[];
  sessionMinutes: number | null;
  realityCheckMinutes: number | null;
  pending: { limits: (LimitKey & PendingLimit)[]; sessionMinutes: PendingLimit | null };
}

/**
 * The operator's side of player protection (CONTRACT §13, docs/player-protection.md): a player's
 * limits with their usage, and the player's exclusion. The rules are core's; this reads and writes
 * them. The route's audit step records each change in the change's own unit.
 */
export function createProtectionService(deps: Deps, endings: SessionEndNotifier) {
  const { store } = deps;
  const nowMs = () => deps.clock().getTime();

  async function playerAndProfile(
    repos: Repositories,
    auth: AuthContext,
    userId: string,
  ): Promise<{ player: PlayerRecord; profile: ProfileRecord }> {
    const player = owned(await repos.players.findById(userId), auth.clientId, `user ${userId}`);
    const profile = await repos.profiles.findById(player.profileId);
    if (!profile) throw new Error(`player ${userId} has no profile ${player.profileId}`);
    return { player, profile };
  }

  /** The limits at `now` (pending values whose time has come in force) with each one's usage. */
  async function limitsAt(
    repos: Repositories,
    player: PlayerRecord,
    profile: ProfileRecord,
    rows: readonly StoredLimitRecord[],
    now: number,
  ): Promise<PlayerLimits> {
    const totals = new Map<string, PeriodTotals>();
    const limits: LimitInForce[] = [];
    const pendingLimits: PlayerLimits['pending']['limits'] = [];
    for (const [key, stored] of moneyStatesOf(rows)) {
      const state = settleLimit(stored, now);
      const limit = keyOf(key);
      if (state.pending) pendingLimits.push({ ...limit, ...state.pending });
      if (state.value === null) continue;
      const { start, resetAt } = limitPeriodBounds(limit.period, profile.timezone, now);
      // Limits of one currency and period share their sums (a loss and a wager limit of a day).
      const since = new Date(start).toISOString();
      const sumsKey = `${limit.currency}@${since}`;
      let sums = totals.get(sumsKey);
      if (!sums) {
        sums = await repos.protection.periodTotals(player.id, limit.currency, since);
        totals.set(sumsKey, sums);
      }
      limits.push({ ...limit, amount: state.value, used: limitUsed(limit.type, sums), resetAt });
    }
    const session = settleLimit(stateAt(rows, SESSION_MINUTES_KEY) ?? NO_LIMIT, now);
    return {
      limits,
      sessionMinutes: session.value,
      realityCheckMinutes: stateAt(rows, REALITY_CHECK_MINUTES_KEY)?.value ?? null,
      pending: { limits: pendingLimits, sessionMinutes: session.pending },
    };
  }

  /** The rows after a PUT asks for `request` at `now`: every limit replaced (core changeLimits). */
  function rowsAfter(
    rows: readonly StoredLimitRecord[],
    request: LimitsRequest,
    profile: ProfileRecord,
    now: number,
  ): StoredLimitRecord[] {
    const requested = new Map<string, number>();
    const problems: string[] = [];
    request.limits.forEach((limit, index) => {
      if (profile.currencies && !profile.currencies.includes(limit.currency)) {
        problems.push(
          `limits.${index}.currency: ${limit.currency} is not one of the profile's currencies (${profile.currencies.join(', ')})`,
        );
      }
      const minor = toMinor(limit.amount, limit.currency);
      // The schema checked the amount's decimals already; this only narrows the type.
      if (minor.ok) requested.set(limitKeyOf(limit), minor.minor);
    });
    if (problems.length > 0) throw new ApiError('VALIDATION_ERROR', problems);
    const next: StoredLimitRecord[] = [];
    for (const [key, state] of changeLimits(moneyStatesOf(rows), requested, now))
      next.push(rowOf(key, state));
    const session = changeLimit(
      stateAt(rows, SESSION_MINUTES_KEY) ?? NO_LIMIT,
      request.sessionMinutes ?? null,
      now,
    );
    if (session.value !== null || session.pending !== null) next.push(rowOf(SESSION_MINUTES_KEY, session));
    // An alert interval, not a ceiling: an operator's change applies at once (docs/player-protection.md).
    const realityCheck: LimitState = { value: request.realityCheckMinutes ?? null, pending: null };
    if (realityCheck.value !== null) next.push(rowOf(REALITY_CHECK_MINUTES_KEY, realityCheck));
    return next;
  }

  return {
    async limits(auth: AuthContext, userId: string): Promise<PlayerLimits> {
      const { player, profile } = await playerAndProfile(store, auth, userId);
      return limitsAt(store, player, profile, await store.protection.limitsOf(player.id), nowMs());
    },

    /** Replaces every limit: stricter values at once, looser ones (and removals) in 24 h. */
    async setLimits(auth: AuthContext, userId: string, request: LimitsRequest): Promise<PlayerLimits> {
      const now = nowMs();
      return store.transaction(async (tx) => {
        const { player, profile } = await playerAndProfile(tx, auth, userId);
        const next = rowsAfter(await tx.protection.limitsOf(player.id), request, profile, now);
        await tx.protection.replaceLimits(player.id, next);
        return limitsAt(tx, player, profile, next, now);
      });
    },

    /** The exclusion that holds now, or null. */
    async exclusion(auth: AuthContext, userId: string): Promise<ExclusionRecord | null> {
      const { player } = await playerAndProfile(store, auth, userId);
      const record = await store.protection.findExclusion(player.id);
      return record && isExcluded(exclusionOf(record), nowMs()) ? record : null;
    },

    /**
     * Excludes the player until `until` (ISO; null: indefinitely), replacing an earlier exclusion
     * unless a self exclusion that holds would end sooner (core replaceExclusionProblem). Ends the
     * player's live sessions in the same unit (PLAYER_EXCLUDED); once it commits their sockets on
     * every process are told and closed.
     */
    async exclude(
      auth: AuthContext,
      userId: string,
      request: { until: string | null; reason: Exclusion['reason'] },
    ): Promise<ExclusionRecord> {
      const now = nowMs();
      const until = request.until === null ? null : Date.parse(request.until);
      const problem = newExclusionProblem(until, now);
      if (problem) throw new ApiError('VALIDATION_ERROR', problem);
      return store.transaction(async (tx) => {
        const { player } = await playerAndProfile(tx, auth, userId);
        const next: Exclusion = { reason: request.reason, until };
        const conflict = replaceExclusionProblem(
          exclusionOf(await tx.protection.findExclusion(player.id)),
          next,
          now,
        );
        if (conflict) throw new ApiError('CONFLICT', conflict);
        const record: ExclusionRecord = {
          playerId: player.id,
          reason: request.reason,
          endsAt: until === null ? null : new Date(until).toISOString(),
          createdAt: isoNow(deps),
        };
        await tx.protection.setExclusion(record);
        const sessionIds = await tx.sessions.endLiveOfPlayer(player.id, 'PLAYER_EXCLUDED', record.createdAt);
        if (sessionIds.length > 0)
          tx.afterCommit(() => endings.ended({ sessionIds, code: 'PLAYER_EXCLUDED' }));
        return record;
      });
    },

    /** Lifts an operator exclusion; a self one cannot be lifted before it ends (409). */
    async lift(auth: AuthContext, userId: string): Promise<void> {
      const now = nowMs();
      await store.transaction(async (tx) => {
        const { player } = await playerAndProfile(tx, auth, userId);
        const decision = mayLiftExclusion(exclusionOf(await tx.protection.findExclusion(player.id)), now);
        if (!decision.ok && decision.reason === 'NOT_EXCLUDED')
          throw new ApiError('NOT_FOUND', `user ${userId} is not excluded`);
        if (!decision.ok)
          throw new ApiError(
            'CONFLICT',
            `user ${userId} excluded themselves; it cannot be lifted before it ends`,
          );
        await tx.protection.deleteExclusion(player.id);
      });
    },
  };
}

export type ProtectionService = ReturnType<typeof createProtectionService>;
