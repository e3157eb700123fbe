import { type DatabaseOf, rawSql } from './raw-sql.ts';

/** The fleet tests' ROUND_IDLE_TIMEOUT (fleetSettings), in seconds. */
export const FLEET_ROUND_IDLE_SECONDS = 60;

/**
 * ROUND_IDLE_TIMEOUT passing while no process lives, without the test waiting it out: every lease
 * ends now (the webhooks' queues, the wallet calls in flight), and every open round but `keep`'s
 * last acted that long ago, so the next process's tick closes it as idle. Only while no process
 * lives: a live process's leased work would be taken from under it.
 */
export async function idleTimeoutPassed(database: DatabaseOf, keep: string[]): Promise<void> {
  const now = new Date();
  const iso = now.toISOString();
  const idleSince = new Date(now.getTime() - (FLEET_ROUND_IDLE_SECONDS + 1) * 1000).toISOString();
  const sql = await rawSql(database);
  try {
    await sql.run(
      `UPDATE rounds SET last_action_at = ? WHERE status = 'open' AND last_action_at > ?${
        keep.length > 0 ? ` AND id NOT IN (${keep.map(() => '?').join(', ')})` : ''
      }`,
      [idleSince, idleSince, ...keep],
    );
    await sql.run('UPDATE webhook_leases SET expires_at = ? WHERE expires_at > ?', [iso, iso]);
    await sql.run(
      "UPDATE transactions SET next_attempt_at = ? WHERE status = 'pending' AND next_attempt_at > ?",
      [iso, iso],
    );
  } finally {
    await sql.close();
  }
}
