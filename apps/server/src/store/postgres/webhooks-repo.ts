import { perWebhook } from '../delivery-tally.ts';
import type {
  DeliveredAttempt,
  DeliveryFilter,
  DeliveryRecord,
  LoggedDelivery,
  WebhookRecord,
} from '../records.ts';
import type { WebhooksRepo } from '../repositories.ts';
import { all, changes, first, parameters, type Sql } from './sql.ts';

interface WebhookRow extends Omit<WebhookRecord, 'eventTriggers'> {
  eventTriggers: string;
}

interface DeliveryRow extends Omit<DeliveryRecord, 'payload'> {
  payload: string | null;
}

/**
 * Slots of a webhook's counters (migration 006), by the event's place in the outbox: the events a
 * drain has in flight are consecutive, so up to this many of them (WEBHOOK_IN_FLIGHT's default)
 * never share a slot.
 */
const COUNT_SLOTS = 32;

/** A webhook with its counters: its row's own plus its slots' (`w` is webhooks). */
const WEBHOOK_COLUMNS = `w.id, w.client_id AS "clientId", w.url, w.event_triggers AS "eventTriggers",
  w.token_enc AS "tokenSealed", w.status, w.created_at AS "createdAt",
  greatest(w.last_triggered, c.last_triggered) AS "lastTriggered",
  w.success_count + coalesce(c.success_count, 0) AS "successCount",
  w.failure_count + coalesce(c.failure_count, 0) AS "failureCount", w.deleted_at AS "deletedAt"`;
const WEBHOOKS = `webhooks w LEFT JOIN LATERAL (SELECT sum(success_count) AS success_count,
  sum(failure_count) AS failure_count, max(last_triggered) AS last_triggered
  FROM webhook_count_slots s WHERE s.webhook_id = w.id) c ON true`;

/** A log row with its event's payload (stored once, in the outbox); `d` is webhook_deliveries. */
const DELIVERY_COLUMNS = `d.id, d.webhook_id AS "webhookId", d.event_id AS "eventId", d.event_type AS "eventType",
  e.payload, d.response_code AS "responseCode", d.response_body AS "responseBody", d.success, d.status,
  d.duration_ms AS "durationMs", d.timestamp, d.retry_count AS "retryCount", d.error_message AS "errorMessage"`;
const DELIVERIES = 'webhook_deliveries d LEFT JOIN webhook_events e ON e.id = d.event_id';

const webhookFromRow = (row: WebhookRow): WebhookRecord => ({
  ...row,
  eventTriggers: JSON.parse(row.eventTriggers),
});
const deliveryFromRow = (row: DeliveryRow): DeliveryRecord => ({
  ...row,
  payload: row.payload === null ? null : JSON.parse(row.payload),
});

/** The log list's WHERE: fixed SQL text per combination of filters, the values as parameters. */
function deliveryWhere(webhookId: string, filter: DeliveryFilter, add: (value: unknown) => string): string {
  const clauses = [`d.webhook_id = ${add(webhookId)}`];
  if (filter.status !== null) clauses.push(`d.status = ${add(filter.status)}`);
  if (filter.from !== null) clauses.push(`d.timestamp >= ${add(filter.from)}`);
  if (filter.before !== null) clauses.push(`d.timestamp < ${add(filter.before)}`);
  return clauses.join(' AND ');
}

async function writeDelivery(sql: Sql, d: LoggedDelivery): Promise<void> {
  await sql.query(
    `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, response_code, response_body,
      success, status, duration_ms, timestamp, retry_count, error_message)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      d.id,
      d.webhookId,
      d.eventId,
      d.eventType,
      d.responseCode,
      d.responseBody,
      d.success,
      d.status,
      d.durationMs,
      d.timestamp,
      d.retryCount,
      d.errorMessage,
    ],
  );
}

/**
 * A batch's successes (docs/store.md, "Deliveries in batches"): the rows in one insert, their
 * events' earlier pending rows closed in one update (only when some were retried), one slot
 * upsert per webhook. Arrays as parameters: one statement text for any number of rows.
 */
async function recordDelivered(unit: Sql, attempts: readonly DeliveredAttempt[]): Promise<void> {
  if (attempts.length === 0) return;
  const retried = attempts.filter((attempt) => attempt.retryCount > 0).map((attempt) => attempt.eventId);
  if (retried.length > 0) {
    await unit.query(
      `UPDATE webhook_deliveries SET status = 'failed' WHERE status = 'pending' AND event_id = ANY($1::text[])`,
      [retried],
    );
  }
  const column = <K extends keyof DeliveredAttempt>(key: K) => attempts.map((attempt) => attempt[key]);
  await unit.query(
    `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, response_code, response_body,
      success, status, duration_ms, timestamp, retry_count, error_message)
     SELECT id, webhook_id, event_id, event_type, response_code, response_body, true, 'success', duration_ms,
       timestamp, retry_count, error_message
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::integer[], $6::text[], $7::bigint[],
       $8::text[], $9::integer[], $10::text[])
       AS b(id, webhook_id, event_id, event_type, response_code, response_body, duration_ms, timestamp,
         retry_count, error_message)`,
    [
      column('id'),
      column('webhookId'),
      column('eventId'),
      column('eventType'),
      column('responseCode'),
      column('responseBody'),
      column('durationMs'),
      column('timestamp'),
      column('retryCount'),
      column('errorMessage'),
    ],
  );
  for (const [webhookId, { count, latest }] of perWebhook(attempts)) {
    const firstEvent = attempts.find((attempt) => attempt.webhookId === webhookId)?.eventId;
    await countInSlot(unit, {
      webhookId,
      success: count,
      failure: 0,
      timestamp: latest,
      eventId: firstEvent,
    });
  }
}

/** Bumps the counters in the event's slot, not the webhook's row: see COUNT_SLOTS. A missing webhook breaks the key. */
async function countInSlot(
  unit: Sql,
  bump: {
    webhookId: string;
    success: number;
    failure: number;
    timestamp: string;
    eventId: string | undefined;
  },
): Promise<void> {
  await unit.query(
    `INSERT INTO webhook_count_slots AS s (webhook_id, slot, success_count, failure_count, last_triggered)
     VALUES ($1, coalesce((SELECT seq FROM webhook_events WHERE id = $5), 0) % ${COUNT_SLOTS}, $2, $3, $4)
     ON CONFLICT (webhook_id, slot) DO UPDATE SET success_count = s.success_count + excluded.success_count,
       failure_count = s.failure_count + excluded.failure_count,
       last_triggered = greatest(s.last_triggered, excluded.last_triggered)`,
    [bump.webhookId, bump.success, bump.failure, bump.timestamp, bump.eventId],
  );
}

export function createWebhooksRepo(sql: Sql): WebhooksRepo {
  const one = async (text: string, values: unknown[]) => {
    const row = await first<WebhookRow>(sql, text, values);
    return row && webhookFromRow(row);
  };
  return {
    insert: async (w) =>
      void (await sql.query(
        `INSERT INTO webhooks (id, client_id, url, event_triggers, token_enc, status, created_at, last_triggered,
          success_count, failure_count, deleted_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          w.id,
          w.clientId,
          w.url,
          JSON.stringify(w.eventTriggers),
          w.tokenSealed,
          w.status,
          w.createdAt,
          w.lastTriggered,
          w.successCount,
          w.failureCount,
          w.deletedAt,
        ],
      )),
    findById: (id) => one(`SELECT ${WEBHOOK_COLUMNS} FROM ${WEBHOOKS} WHERE w.id = $1`, [id]),
    findLiveByUrl: (clientId, url) =>
      one(
        `SELECT ${WEBHOOK_COLUMNS} FROM ${WEBHOOKS} WHERE w.client_id = $1 AND w.url = $2 AND w.deleted_at IS NULL`,
        [clientId, url],
      ),
    listLiveByClient: async (clientId) =>
      (
        await all<WebhookRow>(
          sql,
          `SELECT ${WEBHOOK_COLUMNS} FROM ${WEBHOOKS} WHERE w.client_id = $1 AND w.deleted_at IS NULL
           ORDER BY w.created_at, w.id`,
          [clientId],
        )
      ).map(webhookFromRow),
    softDelete: async (id, at) =>
      (await changes(sql, 'UPDATE webhooks SET deleted_at = $1 WHERE id = $2 AND deleted_at IS NULL', [
        at,
        id,
      ])) === 1,
    setStatus: async (id, status) =>
      void (await sql.query('UPDATE webhooks SET status = $1 WHERE id = $2', [status, id])),
    insertDelivery: (delivery) => writeDelivery(sql, delivery),
    recordAttempt: (attempt) =>
      sql.atomic(async (unit) => {
        const { willRetry, ...fields } = attempt;
        const retryCount =
          attempt.retryCount ??
          (
            await first<{ n: number }>(
              unit,
              'SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = $1 AND event_id = $2',
              [attempt.webhookId, attempt.eventId],
            )
          )?.n ??
          0;
        const delivery: LoggedDelivery = {
          ...fields,
          status: attempt.success ? 'success' : willRetry ? 'pending' : 'failed',
          retryCount,
        };
        if (delivery.retryCount > 0) {
          await unit.query(
            `UPDATE webhook_deliveries SET status = 'failed' WHERE webhook_id = $1 AND event_id = $2 AND status = 'pending'`,
            [attempt.webhookId, attempt.eventId],
          );
        }
        await writeDelivery(unit, delivery);
        await countInSlot(unit, {
          webhookId: attempt.webhookId,
          success: attempt.success ? 1 : 0,
          failure: attempt.success ? 0 : 1,
          timestamp: attempt.timestamp,
          eventId: attempt.eventId,
        });
        return delivery;
      }),
    recordDelivered: (attempts) => sql.atomic((unit) => recordDelivered(unit, attempts)),
    listDeliveries: async (webhookId, filter, page) => {
      const params = parameters();
      const where = deliveryWhere(webhookId, filter, params.add);
      const counts = await first<{ total: number; succeeded: number | null; failed: number | null }>(
        sql,
        `SELECT count(*) AS total, count(*) FILTER (WHERE d.success) AS succeeded,
           count(*) FILTER (WHERE NOT d.success) AS failed
         FROM webhook_deliveries d WHERE ${where}`,
        params.values,
      );
      const rows = await all<DeliveryRow>(
        sql,
        `SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERIES} WHERE ${where}
         ORDER BY d.timestamp DESC, d.id DESC LIMIT ${params.add(page.pageSize)} OFFSET ${params.add(
           (page.pageIndex - 1) * page.pageSize,
         )}`,
        params.values,
      );
      return {
        items: rows.map(deliveryFromRow),
        totalCount: counts?.total ?? 0,
        successCount: counts?.succeeded ?? 0,
        failureCount: counts?.failed ?? 0,
      };
    },
    deliveriesOfRound: async (roundId) =>
      (
        await all<DeliveryRow>(
          sql,
          `SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERIES} WHERE e.round_id = $1 ORDER BY d.timestamp, d.id`,
          [roundId],
        )
      ).map(deliveryFromRow),
    failingSince: async (webhookId) =>
      (
        await first<{ since: string | null }>(
          sql,
          `SELECT min(timestamp) AS since FROM webhook_deliveries WHERE webhook_id = $1 AND NOT success
            AND timestamp > coalesce((SELECT max(timestamp) FROM webhook_deliveries
              WHERE webhook_id = $1 AND success), '')`,
          [webhookId],
        )
      )?.since ?? null,
  };
}
