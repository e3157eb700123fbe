import { eventIdsInOrder } from '../event-ids.ts';
import type { OutboxEvent, OutboxHead, SubscribersEvent } from '../records.ts';
import type { OutboxRepo } from '../repositories.ts';
import type { Db } from './database.ts';
import type { Sync } from './sync.ts';

interface OutboxRow extends Omit<OutboxEvent, 'payload'> {
  payload: string;
}

const COLUMNS = `seq, id, webhook_id AS webhookId, round_id AS roundId, event_type AS eventType, payload, status,
  attempts, next_attempt_at AS nextAttemptAt, first_failure_at AS firstFailureAt, created_at AS createdAt`;

const fromRow = (row: OutboxRow): OutboxEvent => ({ ...row, payload: JSON.parse(row.payload) });

export function createOutboxRepo(db: Db): Sync<OutboxRepo> {
  const insert =
    db.prepare(`INSERT INTO webhook_events (id, webhook_id, round_id, event_type, payload, status,
    attempts, next_attempt_at, first_failure_at, created_at) VALUES (@id, @webhookId, @roundId, @eventType,
    @payload, 'queued', 0, @nextAttemptAt, NULL, @createdAt)`);
  // One event per live, active webhook of the client subscribed to the type: no read before it.
  const forSubscribers = db.prepare<Omit<SubscribersEvent, 'payload'> & { payload: string }, { id: string }>(
    `INSERT INTO webhook_events (id, webhook_id, round_id, event_type, payload, status, attempts,
       next_attempt_at, first_failure_at, created_at)
     SELECT CASE WHEN w.n = 1 THEN @id ELSE @id || '.' || w.n END, w.id, @roundId, @eventType, @payload,
       'queued', 0, @at, NULL, @at
     FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM webhooks
       WHERE client_id = @clientId AND deleted_at IS NULL AND status = 'active'
         AND EXISTS (SELECT 1 FROM json_each(event_triggers) WHERE value = @eventType)) w
     ORDER BY w.n
     RETURNING id`,
  );
  const byId = db.prepare<[string], OutboxRow>(`SELECT ${COLUMNS} FROM webhook_events WHERE id = ?`);
  // Walks the (small) webhooks table and seeks each one's oldest queued event on the
  // (webhook_id, status, seq) index, so delivered history never gets scanned.
  const heads = db.prepare<[], OutboxHead>(`SELECT e.webhook_id AS webhookId, e.id AS eventId,
      e.next_attempt_at AS nextAttemptAt
    FROM webhooks w JOIN webhook_events e ON e.seq = (SELECT min(q.seq) FROM webhook_events q
      WHERE q.webhook_id = w.id AND q.status = 'queued')
    ORDER BY e.next_attempt_at, e.seq`);
  // `skip` comes as a JSON array: one prepared statement for any number of seqs.
  const queuedHead = db.prepare<[string, string, number], OutboxRow>(`SELECT ${COLUMNS} FROM webhook_events
    WHERE webhook_id = ? AND status = 'queued' AND seq NOT IN (SELECT value FROM json_each(?))
    ORDER BY seq LIMIT ?`);
  const markDelivered = db.prepare<[number, string]>(
    `UPDATE webhook_events SET status = 'delivered', attempts = ? WHERE id = ? AND status = 'queued'`,
  );
  const markDeliveredMany = db.prepare<[string]>(
    `UPDATE webhook_events SET status = 'delivered', attempts = j.value ->> 'attempts'
      FROM json_each(?) AS j WHERE webhook_events.id = j.value ->> 'id' AND webhook_events.status = 'queued'`,
  );
  const scheduleRetry = db.prepare<{
    id: string;
    attempts: number;
    nextAttemptAt: string;
    firstFailureAt: string;
  }>(`UPDATE webhook_events SET attempts = @attempts, next_attempt_at = @nextAttemptAt,
    first_failure_at = @firstFailureAt WHERE id = @id AND status = 'queued'`);
  const markFailed = db.prepare<{ id: string; attempts: number; firstFailureAt: string }>(
    `UPDATE webhook_events SET status = 'failed', attempts = @attempts, first_failure_at = @firstFailureAt
     WHERE id = @id AND status = 'queued'`,
  );
  const dropQueued = db.prepare<[string]>(
    `UPDATE webhook_events SET status = 'dropped' WHERE webhook_id = ? AND status = 'queued'`,
  );

  const claimWebhook = db.prepare(
    `INSERT INTO webhook_leases (webhook_id, owner, expires_at) VALUES (@webhookId, @owner, @until)
     ON CONFLICT (webhook_id) DO UPDATE SET owner = @owner, expires_at = @until
     WHERE webhook_leases.owner = @owner OR webhook_leases.expires_at <= @now`,
  );
  const releaseWebhook = db.prepare('DELETE FROM webhook_leases WHERE webhook_id = ? AND owner = ?');
  const releaseAllWebhooks = db.prepare('DELETE FROM webhook_leases');
  return {
    insert: (event) => void insert.run({ ...event, payload: JSON.stringify(event.payload) }),
    insertForSubscribers: (event) =>
      eventIdsInOrder(forSubscribers.all({ ...event, payload: JSON.stringify(event.payload) })),
    findById: (id) => {
      const row = byId.get(id);
      return row && fromRow(row);
    },
    heads: () => heads.all(),
    queuedHead: (webhookId, skip, limit) =>
      queuedHead.all(webhookId, JSON.stringify(skip), limit).map(fromRow),
    markDelivered: (id, attempts) => void markDelivered.run(attempts, id),
    markDeliveredMany: (events) => {
      if (events.length > 0) markDeliveredMany.run(JSON.stringify(events));
    },
    scheduleRetry: (id, retry) => void scheduleRetry.run({ id, ...retry }),
    markFailed: (id, failure) => void markFailed.run({ id, ...failure }),
    dropQueued: (webhookId) => dropQueued.run(webhookId).changes,
    claimWebhook: (webhookId, owner, now, until) =>
      claimWebhook.run({ webhookId, owner, now, until }).changes === 1,
    releaseWebhook: (webhookId, owner) => void releaseWebhook.run(webhookId, owner),
    releaseAllWebhooks: () => releaseAllWebhooks.run().changes,
  };
}
