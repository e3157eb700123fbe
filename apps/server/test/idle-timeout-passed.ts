import { type DatabaseOf, rawSql } from './raw-sql.ts';

/** The fleet tests' ROUND_IDLE_TIMEOUT (fleetSettings), in seconds. */
export const FLEET_ROUND_IDLE_SECONDS = 60;

/**
 * ROUND_IDLE_TIMEOUT passing without the test waiting it out: every open round but `keep`'s last
 * acted that long ago, so a live process's next tick closes it as idle, as it would have a minute
 * later. With `leases`, every lease ends now too (the webhooks' queues, the wallet calls in flight):
 * only while no process that holds one lives, since a live process's work would be taken from it.
 */
export async function idleTimeoutPassed(
  database: DatabaseOf,
  options: { keep?: string[]; leases?: boolean } = {},
): Promise<void> {
  const now = new Date();
  const idleSince = new Date(now.getTime() - (FLEET_ROUND_IDLE_SECONDS + 1) * 1000).toISOString();
  const keep = options.keep ?? [];
  const sql = await rawSql(database);
  try {
    await sql.run(
      `UPDATE rounds SET last_action_at = ? WHERE status = 'open' AND last_action_at > ?${
        keep.length > 0 ? ` AND id NOT IN (${keep.map(() => '?').join(', ')})` : ''
      }`,
      [idleSince, idleSince, ...keep],
    );
    if (options.leases) {
      const iso = now.toISOString();
      await sql.run('UPDATE webhook_leases SET expires_at = ? WHERE expires_at > ?', [iso, iso]);
      await sql.run(
        "UPDATE transactions SET next_attempt_at = ? WHERE status = 'pending' AND next_attempt_at > ?",
        [iso, iso],
      );
    }
  } finally {
    await sql.close();
  }
}
