import type { RateLimitsRepo } from '../repositories.ts';
import { changes, first, type Sql } from './sql.ts';

export function createRateLimitsRepo(sql: Sql): RateLimitsRepo {
  return {
    // One statement, so two instances counting the same key never lose a hit. The SET expressions
    // read the row as it was: an expired window starts again at 1.
    hit: async (key, now, windowMs, slideUpTo) => {
      const counted = await first<{ hits: number; resetAt: number }>(
        sql,
        `INSERT INTO rate_limit_counters AS c (counter_key, hits, reset_at) VALUES ($1, 1, $3)
         ON CONFLICT (counter_key) DO UPDATE SET
           hits = CASE WHEN c.reset_at <= $2 THEN 1 ELSE c.hits + 1 END,
           reset_at = CASE WHEN c.reset_at <= $2 OR c.hits + 1 <= $4 THEN $3 ELSE c.reset_at END
         RETURNING hits, reset_at AS "resetAt"`,
        [key, now, now + windowMs, slideUpTo ?? 0],
      );
      if (!counted) throw new Error(`rate-limit counter ${key} was not written`);
      return counted;
    },
    find: (key, now) =>
      first<{ hits: number; resetAt: number }>(
        sql,
        'SELECT hits, reset_at AS "resetAt" FROM rate_limit_counters WHERE counter_key = $1 AND reset_at > $2',
        [key, now],
      ),
    decrement: async (key) =>
      void (await sql.query(
        'UPDATE rate_limit_counters SET hits = hits - 1 WHERE counter_key = $1 AND hits > 0',
        [key],
      )),
    reset: async (key) =>
      void (await sql.query('DELETE FROM rate_limit_counters WHERE counter_key = $1', [key])),
    resetPrefix: async (prefix) =>
      void (await sql.query('DELETE FROM rate_limit_counters WHERE left(counter_key, $1) = $2', [
        prefix.length,
        prefix,
      ])),
    deleteExpired: (now) => changes(sql, 'DELETE FROM rate_limit_counters WHERE reset_at <= $1', [now]),
  };
}
