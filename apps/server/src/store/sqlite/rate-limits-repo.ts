import type { RateLimitsRepo } from '../repositories.ts';
import type { Db } from './database.ts';
import type { Sync } from './sync.ts';

export function createRateLimitsRepo(db: Db): Sync<RateLimitsRepo> {
  // One statement, so two processes counting the same key never lose a hit. The SET expressions
  // read the row as it was: an expired window starts again at 1.
  const hit = db.prepare<
    { key: string; now: number; resetAt: number; limit: number },
    { hits: number; resetAt: number }
  >(
    `INSERT INTO rate_limit_counters (counter_key, hits, reset_at) VALUES (@key, 1, @resetAt)
     ON CONFLICT (counter_key) DO UPDATE SET
       hits = CASE WHEN reset_at <= @now THEN 1 ELSE hits + 1 END,
       reset_at = CASE WHEN reset_at <= @now OR hits + 1 <= @limit THEN @resetAt ELSE reset_at END
     RETURNING hits, reset_at AS resetAt`,
  );
  const find = db.prepare<[string, number], { hits: number; resetAt: number }>(
    'SELECT hits, reset_at AS resetAt FROM rate_limit_counters WHERE counter_key = ? AND reset_at > ?',
  );
  const decrement = db.prepare(
    'UPDATE rate_limit_counters SET hits = hits - 1 WHERE counter_key = ? AND hits > 0',
  );
  const reset = db.prepare('DELETE FROM rate_limit_counters WHERE counter_key = ?');
  const resetPrefix = db.prepare('DELETE FROM rate_limit_counters WHERE substr(counter_key, 1, ?) = ?');
  const deleteExpired = db.prepare('DELETE FROM rate_limit_counters WHERE reset_at <= ?');
  return {
    hit: (key, now, windowMs, slideUpTo) => {
      const counted = hit.get({ key, now, resetAt: now + windowMs, limit: slideUpTo ?? 0 });
      if (!counted) throw new Error(`rate-limit counter ${key} was not written`);
      return counted;
    },
    find: (key, now) => find.get(key, now),
    decrement: (key) => void decrement.run(key),
    reset: (key) => void reset.run(key),
    resetPrefix: (prefix) => void resetPrefix.run(prefix.length, prefix),
    deleteExpired: (now) => deleteExpired.run(now).changes,
  };
}
