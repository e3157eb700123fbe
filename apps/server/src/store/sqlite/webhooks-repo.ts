import { perWebhook } from '../delivery-tally.ts';
import type { DeliveryFilter, DeliveryRecord, LoggedDelivery, WebhookRecord } from '../records.ts';
import type { WebhooksRepo } from '../repositories.ts';
import { type Db, immediate } from './database.ts';
import { statementCache } from './statement-cache.ts';
import type { Sync } from './sync.ts';

interface WebhookRow extends Omit<WebhookRecord, 'eventTriggers'> {
  eventTriggers: string;
}

interface DeliveryRow extends Omit<DeliveryRecord, 'payload' | 'success'> {
  payload: string | null;
  success: 0 | 1;
}

const WEBHOOK_COLUMNS = `id, client_id AS clientId, url, event_triggers AS eventTriggers, token_enc AS tokenSealed,
  status, created_at AS createdAt, last_triggered AS lastTriggered, success_count AS successCount,
  failure_count AS failureCount, deleted_at AS deletedAt`;

/** A log row with its event's payload (stored once, in the outbox); `d` is webhook_deliveries. */
const DELIVERY_COLUMNS = `d.id, d.webhook_id AS webhookId, d.event_id AS eventId, d.event_type AS eventType,
  e.payload, d.response_code AS responseCode, d.response_body AS responseBody, d.success, d.status,
  d.duration_ms AS durationMs, d.timestamp, d.retry_count AS retryCount, d.error_message AS errorMessage`;
const DELIVERIES = 'webhook_deliveries d LEFT JOIN webhook_events e ON e.id = d.event_id';

const webhookFromRow = (row: WebhookRow): WebhookRecord => ({
  ...row,
  eventTriggers: JSON.parse(row.eventTriggers),
});

const deliveryFromRow = (row: DeliveryRow): DeliveryRecord => ({
  ...row,
  payload: row.payload === null ? null : JSON.parse(row.payload),
  success: row.success === 1,
});

/** The log list's WHERE: fixed SQL text per combination of filters, the values as parameters. */
function deliveryWhere(webhookId: string, filter: DeliveryFilter) {
  const clauses = ['d.webhook_id = @webhookId'];
  const params: Record<string, string> = { webhookId };
  if (filter.status !== null) {
    clauses.push('d.status = @status');
    params.status = filter.status;
  }
  if (filter.from !== null) {
    clauses.push('d.timestamp >= @from');
    params.from = filter.from;
  }
  if (filter.before !== null) {
    clauses.push('d.timestamp < @before');
    params.before = filter.before;
  }
  return { sql: clauses.join(' AND '), params };
}

export function createWebhooksRepo(db: Db): Sync<WebhooksRepo> {
  const statement = statementCache(db);
  const insert = db.prepare(`INSERT INTO webhooks (id, client_id, url, event_triggers, token_enc, status,
    created_at, last_triggered, success_count, failure_count, deleted_at) VALUES (@id, @clientId, @url,
    @eventTriggers, @tokenSealed, @status, @createdAt, @lastTriggered, @successCount, @failureCount, @deletedAt)`);
  const byId = db.prepare<[string], WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = ?`);
  const liveByUrl = db.prepare<[string, string], WebhookRow>(
    `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE client_id = ? AND url = ? AND deleted_at IS NULL`,
  );
  const liveByClient = db.prepare<[string], WebhookRow>(
    `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE client_id = ? AND deleted_at IS NULL ORDER BY created_at, id`,
  );
  const softDelete = db.prepare<[string, string]>(
    'UPDATE webhooks SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL',
  );
  const setStatus = db.prepare<[string, string]>('UPDATE webhooks SET status = ? WHERE id = ?');
  const insertDelivery = db.prepare(`INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type,
    response_code, response_body, success, status, duration_ms, timestamp, retry_count, error_message) VALUES
    (@id, @webhookId, @eventId, @eventType, @responseCode, @responseBody, @success, @status, @durationMs,
    @timestamp, @retryCount, @errorMessage)`);
  const earlierAttempts = db.prepare<[string, string], { n: number }>(
    'SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = ? AND event_id = ?',
  );
  const closePending = db.prepare<[string, string]>(
    `UPDATE webhook_deliveries SET status = 'failed' WHERE webhook_id = ? AND event_id = ? AND status = 'pending'`,
  );
  const countAttempt = db.prepare<{ id: string; success: number; failure: number; timestamp: string }>(
    `UPDATE webhooks SET success_count = success_count + @success, failure_count = failure_count + @failure,
      last_triggered = CASE WHEN last_triggered IS NULL OR last_triggered < @timestamp THEN @timestamp
        ELSE last_triggered END
      WHERE id = @id`,
  );

  // A batch as one JSON array each: one prepared statement for any number of rows.
  const insertDelivered = db.prepare<[string]>(`INSERT INTO webhook_deliveries (id, webhook_id, event_id,
    event_type, response_code, response_body, success, status, duration_ms, timestamp, retry_count, error_message)
    SELECT value ->> 'id', value ->> 'webhookId', value ->> 'eventId', value ->> 'eventType',
      value ->> 'responseCode', value ->> 'responseBody', 1, 'success', value ->> 'durationMs',
      value ->> 'timestamp', value ->> 'retryCount', value ->> 'errorMessage' FROM json_each(?)`);
  const closePendingOf = db.prepare<[string]>(
    `UPDATE webhook_deliveries SET status = 'failed' WHERE status = 'pending'
      AND event_id IN (SELECT value FROM json_each(?))`,
  );

  const ofRound = db.prepare<[string], DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERIES} WHERE e.round_id = ? ORDER BY d.timestamp, d.id`,
  );

  const failingSince = db.prepare<[string, string], { since: string | null }>(
    `SELECT min(timestamp) AS since FROM webhook_deliveries WHERE webhook_id = ? AND success = 0
      AND timestamp > coalesce((SELECT max(timestamp) FROM webhook_deliveries WHERE webhook_id = ? AND success = 1), '')`,
  );

  const writeDelivery = (delivery: LoggedDelivery) =>
    void insertDelivery.run({ ...delivery, success: delivery.success ? 1 : 0 });

  return {
    insert: (webhook) =>
      void insert.run({ ...webhook, eventTriggers: JSON.stringify(webhook.eventTriggers) }),
    findById: (id) => {
      const row = byId.get(id);
      return row && webhookFromRow(row);
    },
    findLiveByUrl: (clientId, url) => {
      const row = liveByUrl.get(clientId, url);
      return row && webhookFromRow(row);
    },
    listLiveByClient: (clientId) => liveByClient.all(clientId).map(webhookFromRow),
    softDelete: (id, at) => softDelete.run(at, id).changes === 1,
    setStatus: (id, status) => void setStatus.run(status, id),
    insertDelivery: writeDelivery,
    recordAttempt: (attempt) =>
      immediate(db, () => {
        const { willRetry, ...fields } = attempt;
        const delivery: LoggedDelivery = {
          ...fields,
          status: attempt.success ? 'success' : willRetry ? 'pending' : 'failed',
          retryCount: attempt.retryCount ?? earlierAttempts.get(attempt.webhookId, attempt.eventId)?.n ?? 0,
        };
        if (delivery.retryCount > 0) closePending.run(attempt.webhookId, attempt.eventId);
        writeDelivery(delivery);
        const counted = countAttempt.run({
          id: attempt.webhookId,
          success: attempt.success ? 1 : 0,
          failure: attempt.success ? 0 : 1,
          timestamp: attempt.timestamp,
        });
        if (counted.changes !== 1) throw new Error(`webhook ${attempt.webhookId} does not exist`);
        return delivery;
      }),
    recordDelivered: (attempts) =>
      immediate(db, () => {
        if (attempts.length === 0) return;
        // Event ids are unique across webhooks: the event id alone finds its earlier rows.
        const retried = attempts
          .filter((attempt) => attempt.retryCount > 0)
          .map((attempt) => attempt.eventId);
        if (retried.length > 0) closePendingOf.run(JSON.stringify(retried));
        insertDelivered.run(JSON.stringify(attempts));
        for (const [webhookId, { count, latest }] of perWebhook(attempts)) {
          const counted = countAttempt.run({ id: webhookId, success: count, failure: 0, timestamp: latest });
          if (counted.changes !== 1) throw new Error(`webhook ${webhookId} does not exist`);
        }
      }),
    listDeliveries: (webhookId, filter, page) => {
      const where = deliveryWhere(webhookId, filter);
      const rows = statement<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERIES} WHERE ${where.sql}
         ORDER BY d.timestamp DESC, d.id DESC LIMIT @limit OFFSET @offset`,
      ).all({ ...where.params, limit: page.pageSize, offset: (page.pageIndex - 1) * page.pageSize });
      const counts = statement<{ total: number; succeeded: number | null; failed: number | null }>(
        `SELECT count(*) AS total, sum(d.success) AS succeeded, sum(1 - d.success) AS failed
         FROM webhook_deliveries d WHERE ${where.sql}`,
      ).get(where.params);
      return {
        items: rows.map(deliveryFromRow),
        totalCount: counts?.total ?? 0,
        successCount: counts?.succeeded ?? 0,
        failureCount: counts?.failed ?? 0,
      };
    },
    deliveriesOfRound: (roundId) => ofRound.all(roundId).map(deliveryFromRow),
    failingSince: (webhookId) => failingSince.get(webhookId, webhookId)?.since ?? null,
  };
}
