import {
  type BuyInput,
  type BuyRefusal,
  buyRefusalMessage,
  decideBuy,
  isExcluded,
  LIMIT_PERIODS,
  type LimitUsage,
  limitPeriodBounds,
  limitUsed,
  NO_LIMIT,
  playLangOf,
  playRulesOf,
  realityCheckDueAt,
  realityCheckFigures,
  realityCheckMinutesOf,
  settleLimit,
} from '@raspa/core';
import type { LiveRoundGuards } from '../store/live-round-guards.ts';
import { exclusionOf, keyOf, moneyStatesOf, stateAt } from '../store/protection-records.ts';
import type {
  BuyProtectionRecord,
  GameRecord,
  GameSessionRecord,
  PlayerRecord,
  ProfileRecord,
  StoredLimitRecord,
} from '../store/records.ts';
import { REALITY_CHECK_MINUTES_KEY, SESSION_MINUTES_KEY } from '../store/records.ts';
import type { PlayFailure, PlayResult, PlayRuntime } from './play-runtime.ts';

/** What a buy's protection checks read of the request (the play service's context). */
export interface ProtectedBuy {
  session: GameSessionRecord;
  player: PlayerRecord;
  game: GameRecord;
  profile: ProfileRecord;
}

/** Before the round's insert: refused, or go ahead with these guards on the insert. */
export type BuyCheck = PlayFailure | { ok: true; guards: LiveRoundGuards };

/** Players this process knows to be protected, at most this many (the oldest learned forgotten first). */
const KNOWN_PROTECTED_MAX = 10_000;

const msOf = (iso: string | null | undefined): number | null => (iso ? Date.parse(iso) : null);

/**
 * Player protection in the buy (CONTRACT §13, docs/player-protection.md "How the buy reads
 * protection"): core decideBuy before the wallet is called, within the round's budget.
 *
 * - A player this process does not know as protected costs nothing: the round's insert itself
 *   refuses when the player has a limit or an exclusion that holds (`unprotectedAt`), or bought
 *   within the jurisdiction's gap (`noBuySince`). On that refusal the buy reads the player's
 *   protection (one statement), remembers the player as protected, decides, and inserts again.
 * - A player known as protected costs one statement a buy (`buyProtection`: limits with their
 *   usage, exclusion, last buy), read before the insert.
 * - A reality check from the profile or the jurisdiction needs no read until it falls due; then
 *   the session is read again (another instance may have taken its "Keep playing").
 */
export function createBuyProtection(runtime: Pick<PlayRuntime, 'deps' | 'records'>) {
  const { deps, records } = runtime;
  const { store } = deps;
  const knownProtected = new Set<string>();

  function remember(playerId: string, isProtected: boolean) {
    if (!isProtected) {
      knownProtected.delete(playerId);
      return;
    }
    if (knownProtected.has(playerId)) return;
    if (knownProtected.size >= KNOWN_PROTECTED_MAX)
      knownProtected.delete(knownProtected.values().next().value as string);
    knownProtected.add(playerId);
  }

  const gapOf = (profile: ProfileRecord) => playRulesOf(profile.jurisdiction).minMsBetweenBuys;

  /**
   * The insert's guards: the protection check unless the buy decided on the player's protection
   * (`decided`: a protected player whose read allowed the buy), and the jurisdiction's gap.
   */
  function guardsFor(profile: ProfileRecord, now: number, decided: boolean): LiveRoundGuards {
    const gap = gapOf(profile);
    return {
      ...(!decided && { unprotectedAt: new Date(now).toISOString() }),
      ...(gap > 0 && { noBuySince: new Date(now - gap).toISOString() }),
    };
  }

  async function readProtection(buy: ProtectedBuy, now: number): Promise<BuyProtectionRecord> {
    const starts = Object.fromEntries(
      LIMIT_PERIODS.map((period) => [
        period,
        new Date(limitPeriodBounds(period, buy.profile.timezone, now).start).toISOString(),
      ]),
    ) as Record<(typeof LIMIT_PERIODS)[number], string>;
    const read = await store.protection.buyProtection({
      playerId: buy.player.id,
      currency: buy.game.currency,
      periodStarts: starts,
      now: new Date(now).toISOString(),
    });
    remember(buy.player.id, read.limits.length > 0 || isExcluded(exclusionIn(read), now));
    return read;
  }

  const exclusionIn = (read: BuyProtectionRecord | undefined) => exclusionOf(read?.exclusion);

  /** The interval in force: the player's, else the profile's, else the jurisdiction's. */
  const intervalOf = (profile: ProfileRecord, limits: readonly StoredLimitRecord[]) =>
    realityCheckMinutesOf({
      player: stateAt(limits, REALITY_CHECK_MINUTES_KEY)?.value ?? null,
      profile: profile.realityCheckMinutes,
      jurisdiction: playRulesOf(profile.jurisdiction).defaultRealityCheckMinutes,
    });

  const dueAtOf = (session: GameSessionRecord, interval: number | null) =>
    realityCheckDueAt({
      intervalMinutes: interval,
      sessionStartedAt: Date.parse(session.createdAt),
      lastContinuedAt: msOf(session.realityCheckAckedAt),
    });

  /** The money limits of the card's currency in force at `now`, with their usage. */
  function usagesOf(buy: ProtectedBuy, read: BuyProtectionRecord, now: number): LimitUsage[] {
    const usages: LimitUsage[] = [];
    for (const [key, stored] of moneyStatesOf(read.limits)) {
      const limit = keyOf(key);
      const { value } = settleLimit(stored, now);
      if (value === null || limit.currency !== buy.game.currency) continue;
      const { resetAt } = limitPeriodBounds(limit.period, buy.profile.timezone, now);
      usages.push({
        ...limit,
        amount: value,
        used: limitUsed(limit.type, read.totals[limit.period]),
        resetAt,
      });
    }
    return usages;
  }

  /** decideBuy's input; without `read`, only what needs no statement (the reality check). */
  function inputOf(buy: ProtectedBuy, now: number, read?: BuyProtectionRecord): BuyInput {
    const limits = read?.limits ?? [];
    return {
      now,
      price: buy.game.betMinor,
      currency: buy.game.currency,
      exclusion: exclusionIn(read),
      sessionStartedAt: Date.parse(buy.session.createdAt),
      sessionMinutes: settleLimit(stateAt(limits, SESSION_MINUTES_KEY) ?? NO_LIMIT, now).value,
      realityCheckDueAt: dueAtOf(buy.session, intervalOf(buy.profile, limits)),
      lastBuyAt: msOf(read?.lastBuyAt),
      minMsBetweenBuys: gapOf(buy.profile),
      limits: read ? usagesOf(buy, read, now) : [],
    };
  }

  /** The play error of a refusal: the sentence in the session's language, and what the page needs. */
  async function failureOf(buy: ProtectedBuy, refusal: BuyRefusal, now: number): Promise<PlayFailure> {
    const failure: PlayFailure = {
      ok: false,
      code: refusal.code,
      message: buyRefusalMessage(refusal, playLangOf(buy.session.lang), buy.profile.timezone),
    };
    if (refusal.code === 'BUY_TOO_SOON') failure.retryAt = new Date(refusal.retryAt).toISOString();
    if (refusal.code === 'REALITY_CHECK') {
      const { session, player } = buy;
      const rounds = await store.protection.sessionRounds(player.id, session.id, session.createdAt);
      failure.realityCheck = realityCheckFigures(rounds, Date.parse(session.createdAt), now);
    }
    return failure;
  }

  /**
   * Decides with the player's protection read (one statement). A reality check found due on the
   * cached session is checked again on the session as stored: its "Keep playing" may have come
   * through another instance.
   */
  async function decideRead(buy: ProtectedBuy, now: number) {
    const read = await readProtection(buy, now);
    let decision = decideBuy(inputOf(buy, now, read));
    let current = buy;
    if (!decision.ok && decision.code === 'REALITY_CHECK') {
      const session = await records.freshSession(buy.session.id);
      if (session) {
        current = { ...buy, session };
        decision = decideBuy(inputOf(current, now, read));
      }
    }
    return { read, decision, buy: current };
  }

  return {
    /** Before the round's insert (and so before the wallet): refused, or the insert's guards. */
    async check(buy: ProtectedBuy, now: number): Promise<BuyCheck> {
      // A player not known as protected: only the reality check can refuse without a read; when
      // it does, decide on everything.
      if (!knownProtected.has(buy.player.id) && decideBuy(inputOf(buy, now)).ok)
        return { ok: true, guards: guardsFor(buy.profile, now, false) };
      const decided = await decideRead(buy, now);
      if (!decided.decision.ok) return failureOf(decided.buy, decided.decision, now);
      return { ok: true, guards: guardsFor(buy.profile, now, knownProtected.has(buy.player.id)) };
    },

    /**
     * After the insert refused with `guards`: whether protection explains it. A refusal to answer;
     * a protected player the buy now knows of and who may buy: the guards to insert again with;
     * undefined: not protection (the game or the player's live round, as before).
     */
    async explain(buy: ProtectedBuy, guards: LiveRoundGuards, now: number): Promise<BuyCheck | undefined> {
      if (guards.unprotectedAt === undefined && guards.noBuySince === undefined) return undefined;
      const decided = await decideRead(buy, now);
      if (!decided.decision.ok) return failureOf(decided.buy, decided.decision, now);
      const isProtected = knownProtected.has(buy.player.id);
      // Inserted again only when the guard it now passes was the one that refused.
      if (guards.unprotectedAt !== undefined && isProtected)
        return { ok: true, guards: guardsFor(buy.profile, now, true) };
      return undefined;
    },

    /**
     * `reality-check-ack` ("Keep playing"): when a check is due, records it on the session (and in
     * this process's cached session, where the socket's buys come) and answers the next due time;
     * when none is due, changes nothing and answers the due time, so an early ack cannot put a
     * check off.
     */
    async acknowledge(
      buy: Omit<ProtectedBuy, 'game'>,
      now: number,
    ): Promise<PlayResult<{ realityCheckDueAt: string | null }>> {
      const session = (await records.freshSession(buy.session.id)) ?? buy.session;
      const interval = intervalOf(buy.profile, await store.protection.limitsOf(buy.player.id));
      const dueAt = dueAtOf(session, interval);
      if (dueAt === null || interval === null) return { ok: true, data: { realityCheckDueAt: null } };
      if (now < dueAt) return { ok: true, data: { realityCheckDueAt: new Date(dueAt).toISOString() } };
      const at = new Date(now).toISOString();
      await store.transaction((tx) => tx.protection.acknowledgeRealityCheck(session.id, at));
      records.keepSession({ ...session, realityCheckAckedAt: at });
      return { ok: true, data: { realityCheckDueAt: new Date(now + interval * 60_000).toISOString() } };
    },
  };
}

export type BuyProtection = ReturnType<typeof createBuyProtection>;
