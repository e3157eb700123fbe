import type { Exec } from '../dialect/exec.ts';
import { statement } from '../dialect/statement.ts';
import type { RateLimitsRepo } from '../repositories.ts';

/**
 * One statement, so two processes counting the same key never lose a hit. The SET expressions
 * read the row as it was (`c`): an expired window starts again at 1.
 */
const hit = statement<
  { key: string; now: number; resetAt: number; limit: number },
  { hits: number; resetAt: number }
>(
  `INSERT INTO rate_limit_counters AS c (counter_key, hits, reset_at) VALUES (:key, 1, :resetAt)
   ON CONFLICT (counter_key) DO UPDATE SET
     hits = CASE WHEN c.reset_at <= :now THEN 1 ELSE c.hits + 1 END,
     reset_at = CASE WHEN c.reset_at <= :now OR c.hits + 1 <= :limit THEN :resetAt ELSE c.reset_at END
   RETURNING hits, reset_at AS "resetAt"`,
);
const find = statement<{ key: string; now: number }, { hits: number; resetAt: number }>(
  'SELECT hits, reset_at AS "resetAt" FROM rate_limit_counters WHERE counter_key = :key AND reset_at > :now',
);
const decrement = statement<{ key: string }>(
  'UPDATE rate_limit_counters SET hits = hits - 1 WHERE counter_key = :key AND hits > 0',
);
const reset = statement<{ key: string }>('DELETE FROM rate_limit_counters WHERE counter_key = :key');
const resetPrefix = statement<{ length: number; prefix: string }>(
  'DELETE FROM rate_limit_counters WHERE substr(counter_key, 1, :length) = :prefix',
);
const deleteExpired = statement<{ now: number }>('DELETE FROM rate_limit_counters WHERE reset_at <= :now');

export function createRateLimitsRepo(x: Exec): RateLimitsRepo {
  return {
    hit: async (key, now, windowMs, slideUpTo) => {
      const counted = await x.first(hit, { key, now, resetAt: now + windowMs, limit: slideUpTo ?? 0 });
      if (!counted) throw new Error(`rate-limit counter ${key} was not written`);
      return counted;
    },
    find: async (key, now) => x.first(find, { key, now }),
    decrement: async (key) => void (await x.run(decrement, { key })),
    reset: async (key) => void (await x.run(reset, { key })),
    resetPrefix: async (prefix) => void (await x.run(resetPrefix, { length: prefix.length, prefix })),
    deleteExpired: async (now) => x.run(deleteExpired, { now }),
  };
}
