import type { StoreHealth } from '../records.ts';
import type { OpsRepo } from '../repositories.ts';
import { all, first, type Sql } from './sql.ts';

/** Where the migrations applied at open stand: /ready says "not yet" or why they failed. */
export type MigrationState = { state: 'running' } | { state: 'failed'; error: Error } | { state: 'done' };

export function createOpsRepo(
  sql: Sql,
  shippedMigrations: readonly string[],
  migrations: () => MigrationState,
): OpsRepo {
  return {
    async health(): Promise<StoreHealth> {
      const state = migrations();
      if (state.state === 'running') return { ok: false, reason: 'migrations are being applied' };
      if (state.state === 'failed') return { ok: false, reason: state.error.message };
      try {
        const done = new Set(
          (await all<{ name: string }>(sql, 'SELECT name FROM schema_migrations')).map((row) => row.name),
        );
        const missing = shippedMigrations.filter((name) => !done.has(name));
        if (missing.length > 0) return { ok: false, reason: `migrations not applied: ${missing.join(', ')}` };
        return { ok: true };
      } catch (error) {
        return { ok: false, reason: `the database does not answer: ${(error as Error).message}` };
      }
    },
    // Seeks each webhook's queued events on the (webhook_id, status, seq) index.
    webhookBacklog: async () =>
      (await first<{ queued: number; oldestCreatedAt: string | null }>(
        sql,
        `SELECT count(e.seq) AS queued, min(e.created_at) AS "oldestCreatedAt"
         FROM webhooks w JOIN webhook_events e ON e.webhook_id = w.id AND e.status = 'queued'`,
      )) ?? { queued: 0, oldestCreatedAt: null },
    currentPools: () =>
      all<{ gameId: string; gameModel: string; ticketsLeft: number; tickets: number }>(
        sql,
        `SELECT g.id AS "gameId", g.game_model AS "gameModel", p.sampling - p.draws - (SELECT count(*) FROM pool_blocks b JOIN rounds r ON r.pool_id = b.pool_id
       AND r.draw_index >= b.first_index AND r.draw_index < b.end_index WHERE b.pool_id = p.id) AS "ticketsLeft",
           p.sampling AS tickets
         FROM games g JOIN pools p ON p.game_id = g.id AND p.ended_at IS NULL WHERE g.active`,
      ),
  };
}
