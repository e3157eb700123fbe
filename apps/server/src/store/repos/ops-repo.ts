import type { Exec } from '../dialect/exec.ts';
import { isSet } from '../dialect/fragments.ts';
import { statement } from '../dialect/statement.ts';
import type { StoreHealth } from '../records.ts';
import type { OpsRepo } from '../repositories.ts';

const applied = statement<Record<string, never>, { name: string }>('SELECT name FROM schema_migrations');
/**
 * Seeks each webhook's queued events on the (webhook_id, status, seq) index: delivered history is
 * never scanned, however long it grows.
 */
const backlog = statement<Record<string, never>, { queued: number; oldestCreatedAt: string | null }>(
  `SELECT count(e.seq) AS queued, min(e.created_at) AS "oldestCreatedAt"
   FROM webhooks w JOIN webhook_events e ON e.webhook_id = w.id AND e.status = 'queued'`,
);
const pools = statement<
  Record<string, never>,
  { gameId: string; gameModel: string; ticketsLeft: number; tickets: number }
>(
  (d) => `SELECT g.id AS "gameId", g.game_model AS "gameModel", p.sampling - p.draws - (SELECT count(*)
     FROM pool_blocks b JOIN rounds r ON r.pool_id = b.pool_id AND r.draw_index >= b.first_index
       AND r.draw_index < b.end_index WHERE b.pool_id = p.id) AS "ticketsLeft", p.sampling AS tickets
   FROM games g JOIN pools p ON p.game_id = g.id AND p.ended_at IS NULL WHERE ${isSet(d, 'g.active')}`,
);

/**
 * `unready`: why the database cannot serve yet, before its migrations are even looked at (SQLite:
 * the connection is closed; PostgreSQL: the migrations applied at open are running or failed).
 */
export function createOpsRepo(
  x: Exec,
  shippedMigrations: readonly string[],
  unready: () => StoreHealth | undefined,
): OpsRepo {
  return {
    async health(): Promise<StoreHealth> {
      const not = unready();
      if (not) return not;
      try {
        const done = new Set((await x.all(applied, {})).map((row) => row.name));
        const missing = shippedMigrations.filter((name) => !done.has(name));
        if (missing.length > 0) return { ok: false, reason: `migrations not applied: ${missing.join(', ')}` };
        return { ok: true };
      } catch (error) {
        return { ok: false, reason: `the database does not answer: ${(error as Error).message}` };
      }
    },
    webhookBacklog: async () => (await x.first(backlog, {})) ?? { queued: 0, oldestCreatedAt: null },
    currentPools: async () => x.all(pools, {}),
  };
}
