import type { PeriodTotals } from '@raspa/core';
import type { Exec } from '../dialect/exec.ts';
import { statement } from '../dialect/statement.ts';
import type { ExclusionRecord, StoredLimitRecord } from '../records.ts';
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
  };
}
