import { perWebhook } from '../delivery-tally.ts';
import type { Exec } from '../dialect/exec.ts';
import { isClear, isSet } from '../dialect/fragments.ts';
import { assembledStatement, type Dialect, statement } from '../dialect/statement.ts';
import type {
  DeliveryAttempt,
  DeliveryFilter,
  DeliveryRecord,
  DeliveryStatus,
  LoggedDelivery,
  WebhookRecord,
} from '../records.ts';
import type { WebhooksRepo } from '../repositories.ts';

interface WebhookRow extends Omit<WebhookRecord, 'eventTriggers' | 'delivery'> {
  eventTriggers: string;
  deliveryMode: WebhookRecord['delivery']['mode'];
  deliveryMaxEvents: number;
  deliveryMaxWaitMs: number;
}

/** `success` is 1/0 on SQLite, a BOOLEAN on PostgreSQL. */
interface DeliveryRow extends Omit<DeliveryRecord, 'payload' | 'success'> {
  payload: string | null;
  success: boolean | 0 | 1;
}

/**
 * Slots of a webhook's counters on PostgreSQL (its migration 006), by the event's place in the
 * outbox: the events a drain has in flight are consecutive, so up to this many of them
 * (the drain's starting window, delivery-window.ts) never share a slot, and their units do not wait on each other's
 * commits. SQLite writes one unit at a time and counts on the webhook's row.
 */
const COUNT_SLOTS = 32;

const DELIVERY_MODE = `w.delivery_mode AS "deliveryMode", w.delivery_max_events AS "deliveryMaxEvents",
  w.delivery_max_wait_ms AS "deliveryMaxWaitMs"`;

/** A webhook with its counters (`w` is webhooks): on PostgreSQL its row's own plus its slots'. */
const WEBHOOK_COLUMNS = (d: Dialect) =>
  d === 'sqlite'
    ? `w.id, w.client_id AS "clientId", w.url, w.event_triggers AS "eventTriggers",
  w.token_enc AS "tokenSealed", w.status, w.created_at AS "createdAt", w.last_triggered AS "lastTriggered",
  w.success_count AS "successCount", w.failure_count AS "failureCount", w.deleted_at AS "deletedAt", ${DELIVERY_MODE}`
    : `w.id, w.client_id AS "clientId", w.url, w.event_triggers AS "eventTriggers",
  w.token_enc AS "tokenSealed", w.status, w.created_at AS "createdAt",
  greatest(w.last_triggered, c.last_triggered) AS "lastTriggered",
  w.success_count + coalesce(c.success_count, 0) AS "successCount",
  w.failure_count + coalesce(c.failure_count, 0) AS "failureCount", w.deleted_at AS "deletedAt", ${DELIVERY_MODE}`;
const WEBHOOKS = (d: Dialect) =>
  d === 'sqlite'
    ? 'webhooks w'
    : `webhooks w LEFT JOIN LATERAL (SELECT sum(success_count) AS success_count,
  sum(failure_count) AS failure_count, max(last_triggered) AS last_triggered
  FROM webhook_count_slots s WHERE s.webhook_id = w.id) c ON true`;
const selectWebhooks = (where: string) =>
  statement<Record<string, string>, WebhookRow>(
    (d) => `SELECT ${WEBHOOK_COLUMNS(d)} FROM ${WEBHOOKS(d)} WHERE ${where}`,
  );

/** A log row with its event's payload (stored once, in the outbox); `d` is webhook_deliveries. */
const DELIVERY_COLUMNS = `d.id, d.webhook_id AS "webhookId", d.event_id AS "eventId", d.event_type AS "eventType",
  e.payload, d.response_code AS "responseCode", d.response_body AS "responseBody", d.success, d.status,
  d.duration_ms AS "durationMs", d.timestamp, d.retry_count AS "retryCount", d.error_message AS "errorMessage",
  d.batch_id AS "batchId"`;
const DELIVERIES = 'webhook_deliveries d LEFT JOIN webhook_events e ON e.id = d.event_id';

const insert = statement<WebhookRow>(
  `INSERT INTO webhooks (id, client_id, url, event_triggers, token_enc, status, created_at, last_triggered,
    success_count, failure_count, deleted_at, delivery_mode, delivery_max_events, delivery_max_wait_ms)
   VALUES (:id, :clientId, :url, :eventTriggers, :tokenSealed, :status, :createdAt, :lastTriggered,
    :successCount, :failureCount, :deletedAt, :deliveryMode, :deliveryMaxEvents, :deliveryMaxWaitMs)`,
);
const byId = selectWebhooks('w.id = :id');
const liveByUrl = selectWebhooks('w.client_id = :clientId AND w.url = :url AND w.deleted_at IS NULL');
const liveByClient = selectWebhooks(
  'w.client_id = :clientId AND w.deleted_at IS NULL ORDER BY w.created_at, w.id',
);
const softDelete = statement<{ id: string; at: string }>(
  'UPDATE webhooks SET deleted_at = :at WHERE id = :id AND deleted_at IS NULL',
);
const setStatus = statement<{ id: string; status: string }>(
  'UPDATE webhooks SET status = :status WHERE id = :id',
);
const insertDelivery = statement<LoggedDelivery>(
  `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, response_code, response_body,
    success, status, duration_ms, timestamp, retry_count, error_message, batch_id)
   VALUES (:id, :webhookId, :eventId, :eventType, :responseCode, :responseBody, :success, :status,
    :durationMs, :timestamp, :retryCount, :errorMessage, :batchId)`,
);
const earlierAttempts = statement<{ webhookId: string; eventId: string }, { n: number }>(
  'SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = :webhookId AND event_id = :eventId',
);
const closePending = statement<{ webhookId: string; eventId: string }>(
  `UPDATE webhook_deliveries SET status = 'failed'
   WHERE webhook_id = :webhookId AND event_id = :eventId AND status = 'pending'`,
);
/** The events' earlier pending rows, closed (event ids are unique across webhooks). */
const closePendingOf = statement<{ ids: string | readonly string[] }>(
  (d) =>
    `UPDATE webhook_deliveries SET status = 'failed' WHERE status = 'pending' AND ${
      d === 'sqlite' ? 'event_id IN (SELECT value FROM json_each(:ids))' : 'event_id = ANY(:ids::text[])'
    }`,
);

/**
 * Bumps a webhook's counters and lastTriggered: SQLite on its row, PostgreSQL in the event's slot
 * (COUNT_SLOTS). Changes one row, none for a missing webhook (PostgreSQL: its key is broken).
 */
const countAttempt = statement<{
  webhookId: string;
  success: number;
  failure: number;
  timestamp: string;
  eventId: string | null;
}>((d) =>
  d === 'sqlite'
    ? `UPDATE webhooks SET success_count = success_count + :success, failure_count = failure_count + :failure,
      last_triggered = CASE WHEN last_triggered IS NULL OR last_triggered < :timestamp THEN :timestamp
        ELSE last_triggered END
      WHERE id = :webhookId`
    : `INSERT INTO webhook_count_slots AS s (webhook_id, slot, success_count, failure_count, last_triggered)
     VALUES (:webhookId, coalesce((SELECT seq FROM webhook_events WHERE id = :eventId), 0) % ${COUNT_SLOTS},
       :success, :failure, :timestamp)
     ON CONFLICT (webhook_id, slot) DO UPDATE SET success_count = s.success_count + excluded.success_count,
       failure_count = s.failure_count + excluded.failure_count,
       last_triggered = greatest(s.last_triggered, excluded.last_triggered)`,
);

/** A log row's status: a failure that will be retried is `pending` until its next attempt. */
const statusOf = ({ success, willRetry }: Pick<DeliveryAttempt, 'success' | 'willRetry'>): DeliveryStatus =>
  success ? 'success' : willRetry ? 'pending' : 'failed';

/** A batch's rows in one insert, one statement text for any number of rows (`->>` gives 1/0 for a boolean). */
const insertLoggedJson = statement<{ batch: string }>(`INSERT INTO webhook_deliveries (id, webhook_id,
  event_id, event_type, response_code, response_body, success, status, duration_ms, timestamp, retry_count,
  error_message, batch_id)
  SELECT value ->> 'id', value ->> 'webhookId', value ->> 'eventId', value ->> 'eventType',
    value ->> 'responseCode', value ->> 'responseBody', value ->> 'success', value ->> 'status',
    value ->> 'durationMs', value ->> 'timestamp', value ->> 'retryCount', value ->> 'errorMessage',
    value ->> 'batchId'
  FROM json_each(:batch)`);
type Logged = Required<LoggedDelivery>;
type Columns = { [K in keyof Logged]: Logged[K][] };
const insertLoggedArrays = statement<Columns>(`INSERT INTO webhook_deliveries (id, webhook_id, event_id,
  event_type, response_code, response_body, success, status, duration_ms, timestamp, retry_count, error_message,
  batch_id)
  SELECT * FROM unnest(:id::text[], :webhookId::text[], :eventId::text[], :eventType::text[],
    :responseCode::integer[], :responseBody::text[], :success::boolean[], :status::text[], :durationMs::bigint[],
    :timestamp::text[], :retryCount::integer[], :errorMessage::text[], :batchId::text[])`);

const ofRound = statement<{ roundId: string }, DeliveryRow>(
  `SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERIES} WHERE e.round_id = :roundId ORDER BY d.timestamp, d.id`,
);
const failingSince = statement<{ webhookId: string }, { since: string | null }>(
  (d) => `SELECT min(timestamp) AS since FROM webhook_deliveries WHERE webhook_id = :webhookId
    AND ${isClear(d, 'success')} AND timestamp > coalesce((SELECT max(timestamp) FROM webhook_deliveries
      WHERE webhook_id = :webhookId AND ${isSet(d, 'success')}), '')`,
);

const webhookFromRow = ({
  deliveryMode,
  deliveryMaxEvents,
  deliveryMaxWaitMs,
  ...row
}: WebhookRow): WebhookRecord => ({
  ...row,
  eventTriggers: JSON.parse(row.eventTriggers),
  delivery: { mode: deliveryMode, maxEvents: deliveryMaxEvents, maxWaitMs: deliveryMaxWaitMs },
});
const deliveryFromRow = (row: DeliveryRow): DeliveryRecord => ({
  ...row,
  payload: row.payload === null ? null : JSON.parse(row.payload),
  success: row.success === true || row.success === 1,
});

/** The log list's WHERE: fixed SQL text per combination of filters, the values as parameters. */
function deliveryWhere(webhookId: string, filter: DeliveryFilter) {
  const clauses = ['d.webhook_id = :webhookId'];
  const params: Record<string, string | number> = { webhookId };
  if (filter.status !== null) {
    clauses.push('d.status = :status');
    params.status = filter.status;
  }
  if (filter.from !== null) {
    clauses.push('d.timestamp >= :from');
    params.from = filter.from;
  }
  if (filter.before !== null) {
    clauses.push('d.timestamp < :before');
    params.before = filter.before;
  }
  return { sql: clauses.join(' AND '), params };
}

/** The webhooks' configuration and their delivery log, on either database (dialect/exec.ts). */
export function createWebhooksRepo(x: Exec): WebhooksRepo {
  const d = x.dialect;
  const one = async (found: WebhookRow | undefined) => found && webhookFromRow(found);

  /** Bumps the counters; a missing webhook changes nothing, and fails the unit. */
  async function count(bump: {
    webhookId: string;
    success: number;
    failure: number;
    timestamp: string;
    eventId: string | null;
  }): Promise<void> {
    if ((await x.run(countAttempt, bump)) !== 1) throw new Error(`webhook ${bump.webhookId} does not exist`);
  }

  /** A batch's rows: SQLite takes them as one JSON array, PostgreSQL as one array per column. */
  async function insertLogged(rows: readonly Logged[]): Promise<void> {
    if (d === 'sqlite') {
      await x.run(insertLoggedJson, { batch: JSON.stringify(rows) });
      return;
    }
    const column = <K extends keyof Logged>(key: K) => rows.map((row) => row[key]);
    await x.run(insertLoggedArrays, {
      id: column('id'),
      webhookId: column('webhookId'),
      eventId: column('eventId'),
      eventType: column('eventType'),
      responseCode: column('responseCode'),
      responseBody: column('responseBody'),
      success: column('success'),
      status: column('status'),
      durationMs: column('durationMs'),
      timestamp: column('timestamp'),
      retryCount: column('retryCount'),
      errorMessage: column('errorMessage'),
      batchId: column('batchId'),
    });
  }

  return {
    insert: async ({ delivery, ...webhook }) =>
      void (await x.run(insert, {
        ...webhook,
        eventTriggers: JSON.stringify(webhook.eventTriggers),
        deliveryMode: delivery.mode,
        deliveryMaxEvents: delivery.maxEvents,
        deliveryMaxWaitMs: delivery.maxWaitMs,
      })),
    findById: async (id) => one(await x.first(byId, { id })),
    findLiveByUrl: async (clientId, url) => one(await x.first(liveByUrl, { clientId, url })),
    listLiveByClient: async (clientId) => (await x.all(liveByClient, { clientId })).map(webhookFromRow),
    softDelete: async (id, at) => (await x.run(softDelete, { id, at })) === 1,
    setStatus: async (id, status) => void (await x.run(setStatus, { id, status })),
    insertDelivery: async (delivery) =>
      void (await x.run(insertDelivery, { ...delivery, batchId: delivery.batchId ?? null })),
    recordAttempt: (attempt) =>
      x.atomic(async () => {
        const { willRetry, ...fields } = attempt;
        const retryCount =
          attempt.retryCount ??
          (await x.first(earlierAttempts, { webhookId: attempt.webhookId, eventId: attempt.eventId }))?.n ??
          0;
        const delivery: LoggedDelivery = {
          ...fields,
          batchId: attempt.batchId ?? null,
          status: statusOf(attempt),
          retryCount,
        };
        if (retryCount > 0)
          await x.run(closePending, { webhookId: attempt.webhookId, eventId: attempt.eventId });
        await x.run(insertDelivery, delivery);
        await count({
          webhookId: attempt.webhookId,
          success: attempt.success ? 1 : 0,
          failure: attempt.success ? 0 : 1,
          timestamp: attempt.timestamp,
          eventId: attempt.eventId,
        });
        return delivery;
      }),
    // docs/store.md, "Deliveries in batches": the rows in one insert, their events' earlier
    // pending rows closed in one update (only when some were retried), one counter bump per webhook.
    recordAttempts: (attempts) =>
      x.atomic(async () => {
        if (attempts.length === 0) return;
        const retried = attempts
          .filter((attempt) => attempt.retryCount > 0)
          .map((attempt) => attempt.eventId);
        if (retried.length > 0)
          await x.run(closePendingOf, { ids: d === 'sqlite' ? JSON.stringify(retried) : retried });
        await insertLogged(
          attempts.map(({ willRetry, ...attempt }) => ({
            ...attempt,
            batchId: attempt.batchId ?? null,
            status: statusOf({ success: attempt.success, willRetry }),
          })),
        );
        for (const [webhookId, { success, failure, latest, firstEvent }] of perWebhook(attempts))
          await count({ webhookId, success, failure, timestamp: latest, eventId: firstEvent });
      }),
    listDeliveries: async (webhookId, filter, page) => {
      const where = deliveryWhere(webhookId, filter);
      const rows = await x.all(
        assembledStatement<typeof where.params, DeliveryRow>(
          `SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERIES} WHERE ${where.sql}
           ORDER BY d.timestamp DESC, d.id DESC LIMIT :limit OFFSET :offset`,
        ),
        { ...where.params, limit: page.pageSize, offset: (page.pageIndex - 1) * page.pageSize },
      );
      const counts = await x.first(
        assembledStatement<typeof where.params, { total: number; succeeded: number; failed: number }>(
          `SELECT count(*) AS total, count(*) FILTER (WHERE ${isSet(d, 'd.success')}) AS succeeded,
             count(*) FILTER (WHERE ${isClear(d, 'd.success')}) AS failed
           FROM webhook_deliveries d WHERE ${where.sql}`,
        ),
        where.params,
      );
      return {
        items: rows.map(deliveryFromRow),
        totalCount: counts?.total ?? 0,
        successCount: counts?.succeeded ?? 0,
        failureCount: counts?.failed ?? 0,
      };
    },
    deliveriesOfRound: async (roundId) => (await x.all(ofRound, { roundId })).map(deliveryFromRow),
    failingSince: async (webhookId) => (await x.first(failingSince, { webhookId }))?.since ?? null,
  };
}
