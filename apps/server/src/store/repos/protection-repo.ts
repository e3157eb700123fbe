import type { LimitPeriod, PeriodTotals, SummaryRound } from '@raspa/core';
import type { Exec } from '../dialect/exec.ts';
import { statement } from '../dialect/statement.ts';
import type { BuyProtectionRecord, ExclusionRecord, StoredLimitRecord } from '../records.ts';
import type { ProtectionRepo } from '../repositories.ts';

const LIMIT_COLUMNS = `limit_key AS "key", value, pending_value AS "pendingValue",
  pending_applies_at AS "pendingAppliesAt"`;

const limitsOf = statement<{ playerId: string }, StoredLimitRecord>(
  `SELECT ${LIMIT_COLUMNS} FROM player_limits WHERE player_id = :playerId ORDER BY limit_key`,
);
const deleteLimits = statement<{ playerId: string }>('DELETE FROM player_limits WHERE player_id = :playerId');
const insertLimit = statement<StoredLimitRecord & { playerId: string }>(
  `INSERT INTO player_limits (player_id, limit_key, value, pending_value, pending_applies_at)
   VALUES (:playerId, :key, :value, :pendingValue, :pendingAppliesAt)`,
);

// Sums by the report's rule (report-query.ts): completed only, a bet's amount is negative. By
// transactions_by_player (player_id, created_at, id): the player's rows since the period began.
const periodTotals = statement<{ playerId: string; currency: string; since: string }, PeriodTotals>(
  `SELECT coalesce(sum(CASE WHEN type = 'bet' THEN -amount_minor END), 0) AS bets,
     coalesce(sum(CASE WHEN type = 'prize' THEN amount_minor END), 0) AS prizes,
     coalesce(sum(CASE WHEN type = 'rollback' THEN amount_minor END), 0) AS rollbacks
   FROM transactions
   WHERE player_id = :playerId AND created_at >= :since AND currency = :currency
     AND status = 'completed' AND type IN ('bet', 'prize', 'rollback')`,
);

const EXCLUSION_COLUMNS = `player_id AS "playerId", reason, ends_at AS "endsAt", created_at AS "createdAt"`;
const findExclusion = statement<{ playerId: string }, ExclusionRecord>(
  `SELECT ${EXCLUSION_COLUMNS} FROM player_exclusions WHERE player_id = :playerId`,
);
const setExclusion = statement<ExclusionRecord>(
  `INSERT INTO player_exclusions (player_id, reason, ends_at, created_at)
   VALUES (:playerId, :reason, :endsAt, :createdAt)
   ON CONFLICT (player_id) DO UPDATE SET reason = excluded.reason, ends_at = excluded.ends_at,
     created_at = excluded.created_at`,
);
const deleteExclusion = statement<{ playerId: string }>(
  'DELETE FROM player_exclusions WHERE player_id = :playerId',
);

interface BuyProtectionParams {
  playerId: string;
  currency: string;
  /** `%:BRL`: the keys of the money limits in the card's currency (core limitKeyOf). */
  currencyKeys: string;
  dayStart: string;
  weekStart: string;
  monthStart: string;
  now: string;
}

type PeriodSums = { [P in `${LimitPeriod}${'Bets' | 'Prizes' | 'Rollbacks'}`]: number };

type BuyProtectionRow = StoredLimitRecord &
  PeriodSums & {
    exclusionReason: ExclusionRecord['reason'] | null;
    exclusionEndsAt: string | null;
    lastBuyAt: string | null;
  };

const PERIOD_SUMS = (['day', 'week', 'month'] as const)
  .flatMap((period) =>
    [
      ['Bets', "'bet'", '-amount_minor'],
      ['Prizes', "'prize'", 'amount_minor'],
      ['Rollbacks', "'rollback'", 'amount_minor'],
    ].map(
      ([name, type, amount]) =>
        `coalesce(sum(CASE WHEN type = ${type} AND created_at >= :${period}Start THEN ${amount} END), 0) AS "${period}${name}"`,
    ),
  )
  .join(',\n    ');

/**
 * Everything a protected player's buy decides on, in one statement (docs/player-protection.md, "How
 * the buy reads protection"): a row per stored limit (one row of NULLs when none), each with the
 * exclusion row, the player's last bought round and the completed sums of the card's currency per
 * period. The sums scan transactions_by_player from the earliest period start among the player's
 * limits in that currency (none: from now, an empty range), counted per period by CASE, so a daily
 * limit reads a day of rows and a monthly one a month (or from the week's Monday, when earlier).
 * (The LIKE patterns spell the key's colons `_`: a colon before a word is a parameter here.)
 */
const buyProtection = statement<BuyProtectionParams, BuyProtectionRow>(
  `WITH sums AS (
  SELECT ${PERIOD_SUMS}
  FROM transactions
  WHERE player_id = :playerId AND currency = :currency AND status = 'completed'
    AND type IN ('bet', 'prize', 'rollback')
    AND created_at >= (SELECT coalesce(min(CASE WHEN limit_key LIKE '%_month_%' THEN CAST(:monthStart AS TEXT)
        WHEN limit_key LIKE '%_week_%' THEN CAST(:weekStart AS TEXT) ELSE CAST(:dayStart AS TEXT) END), :now)
      FROM player_limits WHERE player_id = :playerId AND limit_key LIKE :currencyKeys)
)
SELECT ${LIMIT_COLUMNS.replace(/(limit_key|value|pending_value|pending_applies_at) AS/g, 'l.$1 AS')},
  e.reason AS "exclusionReason", e.ends_at AS "exclusionEndsAt",
  (SELECT created_at FROM rounds WHERE player_id = :playerId AND status NOT IN ('declined', 'voided')
    ORDER BY created_at DESC LIMIT 1) AS "lastBuyAt",
  s.*
FROM sums s
LEFT JOIN player_limits l ON l.player_id = :playerId
LEFT JOIN player_exclusions e ON e.player_id = :playerId
ORDER BY l.limit_key`,
);

/** A session's rounds for its reality check's figures, by rounds_by_player from the session's start. */
const sessionRounds = statement<{ playerId: string; sessionId: string; since: string }, SummaryRound>(
  `SELECT status, paid_minor AS "paidMinor", prize_minor AS "prizeMinor" FROM rounds
   WHERE player_id = :playerId AND created_at >= :since AND session_id = :sessionId ORDER BY created_at, id`,
);

const ackRealityCheck = statement<{ sessionId: string; at: string }>(
  'UPDATE game_sessions SET reality_check_acked_at = :at WHERE id = :sessionId',
);

function buyProtectionOf(rows: readonly BuyProtectionRow[]): BuyProtectionRecord {
  const first = rows[0];
  if (!first) throw new Error('the buy protection read answers at least one row');
  const totals = (period: LimitPeriod): PeriodTotals => ({
    bets: first[`${period}Bets`],
    prizes: first[`${period}Prizes`],
    rollbacks: first[`${period}Rollbacks`],
  });
  return {
    limits: rows
      .filter((row) => row.key !== null)
      .map(({ key, value, pendingValue, pendingAppliesAt }) => ({
        key,
        value,
        pendingValue,
        pendingAppliesAt,
      })),
    exclusion:
      first.exclusionReason === null
        ? null
        : { reason: first.exclusionReason, endsAt: first.exclusionEndsAt },
    lastBuyAt: first.lastBuyAt,
    totals: { day: totals('day'), week: totals('week'), month: totals('month') },
  };
}

export function createProtectionRepo(x: Exec): ProtectionRepo {
  return {
    limitsOf: async (playerId) => x.all(limitsOf, { playerId }),
    replaceLimits: async (playerId, limits) => {
      await x.run(deleteLimits, { playerId });
      for (const limit of limits) await x.run(insertLimit, { ...limit, playerId });
    },
    periodTotals: async (playerId, currency, since) =>
      (await x.first(periodTotals, { playerId, currency, since })) ?? { bets: 0, prizes: 0, rollbacks: 0 },
    findExclusion: async (playerId) => x.first(findExclusion, { playerId }),
    setExclusion: async (exclusion) => void (await x.run(setExclusion, exclusion)),
    deleteExclusion: async (playerId) => (await x.run(deleteExclusion, { playerId })) > 0,
    buyProtection: async ({ playerId, currency, periodStarts, now }) =>
      buyProtectionOf(
        await x.all(buyProtection, {
          playerId,
          currency,
          currencyKeys: `%:${currency}`,
          dayStart: periodStarts.day,
          weekStart: periodStarts.week,
          monthStart: periodStarts.month,
          now,
        }),
      ),
    sessionRounds: async (playerId, sessionId, since) => x.all(sessionRounds, { playerId, sessionId, since }),
    acknowledgeRealityCheck: async (sessionId, at) => (await x.run(ackRealityCheck, { sessionId, at })) > 0,
  };
}
