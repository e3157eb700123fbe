import type { Exec } from '../dialect/exec.ts';
import { idListParam } from '../dialect/fragments.ts';
import { statement } from '../dialect/statement.ts';
import { eventIdsInOrder } from '../event-ids.ts';
import type { NewOutboxEvent, OutboxEvent, OutboxHead, SubscribersEvent } from '../records.ts';
import type { OutboxRepo } from '../repositories.ts';
import { leaseStatements } from './lease-statements.ts';

interface OutboxRow extends Omit<OutboxEvent, 'payload'> {
  payload: string;
}

const COLUMNS = `seq, id, webhook_id AS "webhookId", round_id AS "roundId", event_type AS "eventType", payload,
  status, attempts, next_attempt_at AS "nextAttemptAt", first_failure_at AS "firstFailureAt", created_at AS "createdAt"`;

const fromRow = (row: OutboxRow): OutboxEvent => ({ ...row, payload: JSON.parse(row.payload) });

const insert = statement<Omit<NewOutboxEvent, 'payload'> & { payload: string }>(
  `INSERT INTO webhook_events (id, webhook_id, round_id, event_type, payload, status, attempts,
    next_attempt_at, first_failure_at, created_at) VALUES (:id, :webhookId, :roundId, :eventType, :payload,
    'queued', 0, :nextAttemptAt, NULL, :createdAt)`,
);
/**
 * One event per live, active webhook of the client subscribed to the type: no read before it. The
 * webhook's triggers are a JSON array: SQLite looks through json_each, PostgreSQL asks jsonb's `?`.
 */
const forSubscribers = statement<Omit<SubscribersEvent, 'payload'> & { payload: string }, { id: string }>(
  (d) => {
    const id = d === 'postgres' ? ':id::text' : ':id';
    return `INSERT INTO webhook_events (id, webhook_id, round_id, event_type, payload, status, attempts,
       next_attempt_at, first_failure_at, created_at)
     SELECT CASE WHEN w.n = 1 THEN ${id} ELSE ${id} || '.' || w.n END, w.id, :roundId, :eventType, :payload,
       'queued', 0, :at, NULL, :at
     FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM webhooks
       WHERE client_id = :clientId AND deleted_at IS NULL AND status = 'active'
         AND ${
           d === 'postgres'
             ? 'event_triggers::jsonb ? :eventType::text'
             : 'EXISTS (SELECT 1 FROM json_each(event_triggers) WHERE value = :eventType)'
         }) w
     ORDER BY w.n
     RETURNING id`;
  },
);
const byId = statement<{ id: string }, OutboxRow>(`SELECT ${COLUMNS} FROM webhook_events WHERE id = :id`);
// Walks the (small) webhooks table and seeks each one's oldest queued event on the
// (webhook_id, status, seq) index, so delivered history never gets scanned.
const heads = statement<Record<string, never>, OutboxHead>(
  `SELECT e.webhook_id AS "webhookId", e.id AS "eventId", e.next_attempt_at AS "nextAttemptAt"
   FROM webhooks w JOIN webhook_events e ON e.seq = (SELECT min(q.seq) FROM webhook_events q
     WHERE q.webhook_id = w.id AND q.status = 'queued')
   ORDER BY e.next_attempt_at, e.seq`,
);
/** `skip` is one parameter (a JSON array, a bigint[]): one prepared statement for any number of seqs. */
const queuedHead = statement<
  { webhookId: string; skip: string | readonly number[]; limit: number },
  OutboxRow
>(
  (d) => `SELECT ${COLUMNS} FROM webhook_events
   WHERE webhook_id = :webhookId AND status = 'queued' AND ${
     d === 'postgres' ? 'seq <> ALL(:skip::bigint[])' : 'seq NOT IN (SELECT value FROM json_each(:skip))'
   }
   ORDER BY seq LIMIT :limit`,
);
const markDelivered = statement<{ id: string; attempts: number }>(
  `UPDATE webhook_events SET status = 'delivered', attempts = :attempts WHERE id = :id AND status = 'queued'`,
);
/** A batch as one JSON array of {id, attempts} on SQLite, as one array per column on PostgreSQL. */
const markDeliveredMany = statement<{ batch: string } | { ids: string[]; attempts: number[] }>((d) =>
  d === 'postgres'
    ? `UPDATE webhook_events e SET status = 'delivered', attempts = b.attempts
       FROM unnest(:ids::text[], :attempts::integer[]) AS b(id, attempts) WHERE e.id = b.id AND e.status = 'queued'`
    : `UPDATE webhook_events SET status = 'delivered', attempts = j.value ->> 'attempts'
       FROM json_each(:batch) AS j WHERE webhook_events.id = j.value ->> 'id' AND webhook_events.status = 'queued'`,
);
/** failMany's events: a JSON array on SQLite, one array per column on PostgreSQL. */
const failMany = statement<
  | { batch: string }
  | { ids: string[]; attempts: number[]; firstFailureAt: string[]; nextAttemptAt: (string | null)[] }
>((d) =>
  d === 'postgres'
    ? `UPDATE webhook_events e SET status = CASE WHEN b.next_at IS NULL THEN 'failed' ELSE 'queued' END,
         attempts = b.attempts, first_failure_at = b.first_at, next_attempt_at = coalesce(b.next_at, e.next_attempt_at)
       FROM unnest(:ids::text[], :attempts::integer[], :firstFailureAt::text[], :nextAttemptAt::text[])
         AS b(id, attempts, first_at, next_at)
       WHERE e.id = b.id AND e.status = 'queued'`
    : `UPDATE webhook_events SET
         status = CASE WHEN j.value ->> 'nextAttemptAt' IS NULL THEN 'failed' ELSE 'queued' END,
         attempts = j.value ->> 'attempts', first_failure_at = j.value ->> 'firstFailureAt',
         next_attempt_at = coalesce(j.value ->> 'nextAttemptAt', webhook_events.next_attempt_at)
       FROM json_each(:batch) AS j WHERE webhook_events.id = j.value ->> 'id' AND webhook_events.status = 'queued'`,
);
const dropQueued = statement<{ webhookId: string }>(
  `UPDATE webhook_events SET status = 'dropped' WHERE webhook_id = :webhookId AND status = 'queued'`,
);
const webhookLeases = leaseStatements({ table: 'webhook_leases', key: 'webhook_id' });
const releaseAllWebhooks = statement('DELETE FROM webhook_leases');

/** The webhooks' outbox: the events a round queues and their delivery's state (issue 24: written once). */
export function createOutboxRepo(x: Exec): OutboxRepo {
  const leases = webhookLeases(x);
  return {
    insert: async (event) => void (await x.run(insert, { ...event, payload: JSON.stringify(event.payload) })),
    insertForSubscribers: async (event) =>
      eventIdsInOrder(await x.all(forSubscribers, { ...event, payload: JSON.stringify(event.payload) })),
    findById: async (id) => {
      const row = await x.first(byId, { id });
      return row && fromRow(row);
    },
    heads: async () => x.all(heads, {}),
    queuedHead: async (webhookId, skip, limit) =>
      (await x.all(queuedHead, { webhookId, skip: idListParam(x.dialect, skip), limit })).map(fromRow),
    markDelivered: async (id, attempts) => void (await x.run(markDelivered, { id, attempts })),
    markDeliveredMany: async (events) => {
      if (events.length === 0) return;
      await x.run(
        markDeliveredMany,
        x.dialect === 'postgres'
          ? { ids: events.map((event) => event.id), attempts: events.map((event) => event.attempts) }
          : { batch: JSON.stringify(events) },
      );
    },
    failMany: async (events) => {
      if (events.length === 0) return;
      await x.run(
        failMany,
        x.dialect === 'postgres'
          ? {
              ids: events.map((event) => event.id),
              attempts: events.map((event) => event.attempts),
              firstFailureAt: events.map((event) => event.firstFailureAt),
              nextAttemptAt: events.map((event) => event.nextAttemptAt),
            }
          : { batch: JSON.stringify(events) },
      );
    },
    dropQueued: async (webhookId) => x.run(dropQueued, { webhookId }),
    claimWebhook: leases.claim,
    releaseWebhook: leases.release,
    releaseAllWebhooks: async () => x.run(releaseAllWebhooks, {}),
  };
}
