import { eventIdsInOrder } from '../event-ids.ts';
import type { OutboxEvent, OutboxHead } from '../records.ts';
import type { OutboxRepo } from '../repositories.ts';
import { all, changes, first, type Sql } from './sql.ts';

interface OutboxRow extends Omit<OutboxEvent, 'payload'> {
  payload: string;
}

const COLUMNS = `seq, id, webhook_id AS "webhookId", round_id AS "roundId", event_type AS "eventType", payload,
  status, attempts, next_attempt_at AS "nextAttemptAt", first_failure_at AS "firstFailureAt", created_at AS "createdAt"`;

const fromRow = (row: OutboxRow): OutboxEvent => ({ ...row, payload: JSON.parse(row.payload) });

export function createOutboxRepo(sql: Sql): OutboxRepo {
  return {
    insert: async (e) =>
      void (await sql.query(
        `INSERT INTO webhook_events (id, webhook_id, round_id, event_type, payload, status, attempts,
          next_attempt_at, first_failure_at, created_at) VALUES ($1, $2, $3, $4, $5, 'queued', 0, $6, NULL, $7)`,
        [e.id, e.webhookId, e.roundId, e.eventType, JSON.stringify(e.payload), e.nextAttemptAt, e.createdAt],
      )),
    // One event per live, active webhook of the client subscribed to the type: no read before it.
    insertForSubscribers: async (e) =>
      eventIdsInOrder(
        await all<{ id: string }>(
          sql,
          `INSERT INTO webhook_events (id, webhook_id, round_id, event_type, payload, status, attempts,
             next_attempt_at, first_failure_at, created_at)
           SELECT CASE WHEN w.n = 1 THEN $1::text ELSE $1::text || '.' || w.n END, w.id, $2, $3, $4,
             'queued', 0, $5, NULL, $5
           FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM webhooks
             WHERE client_id = $6 AND deleted_at IS NULL AND status = 'active'
               AND event_triggers::jsonb ? $3::text) w
           ORDER BY w.n
           RETURNING id`,
          [e.id, e.roundId, e.eventType, JSON.stringify(e.payload), e.at, e.clientId],
        ),
      ),
    findById: async (id) => {
      const row = await first<OutboxRow>(sql, `SELECT ${COLUMNS} FROM webhook_events WHERE id = $1`, [id]);
      return row && fromRow(row);
    },
    // Walks the (small) webhooks table and seeks each one's oldest queued event on the
    // (webhook_id, status, seq) index, so delivered history never gets scanned.
    heads: () =>
      all<OutboxHead>(
        sql,
        `SELECT e.webhook_id AS "webhookId", e.id AS "eventId", e.next_attempt_at AS "nextAttemptAt"
         FROM webhooks w JOIN webhook_events e ON e.seq = (SELECT min(q.seq) FROM webhook_events q
           WHERE q.webhook_id = w.id AND q.status = 'queued')
         ORDER BY e.next_attempt_at, e.seq`,
      ),
    queuedHead: async (webhookId, skip, limit) =>
      (
        await all<OutboxRow>(
          sql,
          `SELECT ${COLUMNS} FROM webhook_events
           WHERE webhook_id = $1 AND status = 'queued' AND seq <> ALL($2::bigint[])
           ORDER BY seq LIMIT $3`,
          [webhookId, skip, limit],
        )
      ).map(fromRow),
    markDelivered: async (id, attempts) =>
      void (await sql.query(
        `UPDATE webhook_events SET status = 'delivered', attempts = $1 WHERE id = $2 AND status = 'queued'`,
        [attempts, id],
      )),
    markDeliveredMany: async (events) => {
      if (events.length === 0) return;
      await sql.query(
        `UPDATE webhook_events e SET status = 'delivered', attempts = b.attempts
         FROM unnest($1::text[], $2::integer[]) AS b(id, attempts) WHERE e.id = b.id AND e.status = 'queued'`,
        [events.map((event) => event.id), events.map((event) => event.attempts)],
      );
    },
    scheduleRetry: async (id, retry) =>
      void (await sql.query(
        `UPDATE webhook_events SET attempts = $1, next_attempt_at = $2, first_failure_at = $3
         WHERE id = $4 AND status = 'queued'`,
        [retry.attempts, retry.nextAttemptAt, retry.firstFailureAt, id],
      )),
    markFailed: async (id, failure) =>
      void (await sql.query(
        `UPDATE webhook_events SET status = 'failed', attempts = $1, first_failure_at = $2
         WHERE id = $3 AND status = 'queued'`,
        [failure.attempts, failure.firstFailureAt, id],
      )),
    dropQueued: (webhookId) =>
      changes(
        sql,
        `UPDATE webhook_events SET status = 'dropped' WHERE webhook_id = $1 AND status = 'queued'`,
        [webhookId],
      ),
    // One upsert: a second instance claiming at once waits on the row lock, then sees the lease
    // the first one took and changes nothing (0 rows).
    claimWebhook: async (webhookId, owner, now, until) =>
      (await changes(
        sql,
        `INSERT INTO webhook_leases (webhook_id, owner, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (webhook_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE webhook_leases.owner = excluded.owner OR webhook_leases.expires_at <= $4`,
        [webhookId, owner, until, now],
      )) === 1,
    releaseWebhook: async (webhookId, owner) =>
      void (await sql.query('DELETE FROM webhook_leases WHERE webhook_id = $1 AND owner = $2', [
        webhookId,
        owner,
      ])),
    releaseAllWebhooks: () => changes(sql, 'DELETE FROM webhook_leases', []),
  };
}
