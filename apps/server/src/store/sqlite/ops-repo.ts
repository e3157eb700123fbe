import type { OpsRepo } from '../repositories.ts';
import type { Db } from './database.ts';
import type { Sync } from './sync.ts';

export function createOpsRepo(db: Db, shippedMigrations: readonly string[]): Sync<OpsRepo> {
  const applied = db.prepare<[], { name: string }>('SELECT name FROM schema_migrations');
  // Seeks each webhook's queued events on the (webhook_id, status, seq) index: delivered history
  // is never scanned, however long it grows.
  const backlog = db.prepare<[], { queued: number; oldestCreatedAt: string | null }>(
    `SELECT count(e.seq) AS queued, min(e.created_at) AS oldestCreatedAt
     FROM webhooks w JOIN webhook_events e ON e.webhook_id = w.id AND e.status = 'queued'`,
  );
  const pools = db.prepare<[], { gameId: string; gameModel: string; ticketsLeft: number; tickets: number }>(
    `SELECT g.id AS gameId, g.game_model AS gameModel, p.sampling - p.draws - (SELECT count(*) FROM pool_blocks b JOIN rounds r ON r.pool_id = b.pool_id
       AND r.draw_index >= b.first_index AND r.draw_index < b.end_index WHERE b.pool_id = p.id) AS ticketsLeft, p.sampling AS tickets
     FROM games g JOIN pools p ON p.game_id = g.id AND p.ended_at IS NULL WHERE g.active = 1`,
  );
  return {
    health() {
      if (!db.open) return { ok: false, reason: 'the database is closed' };
      try {
        const done = new Set(applied.all().map((row) => row.name));
        const missing = shippedMigrations.filter((name) => !done.has(name));
        if (missing.length > 0) return { ok: false, reason: `migrations not applied: ${missing.join(', ')}` };
        return { ok: true };
      } catch (error) {
        return { ok: false, reason: `the database does not answer: ${(error as Error).message}` };
      }
    },
    webhookBacklog: () => backlog.get() ?? { queued: 0, oldestCreatedAt: null },
    currentPools: () => pools.all(),
  };
}
