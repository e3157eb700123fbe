import { performance } from 'node:perf_hooks';
import type { Deps } from '../deps.ts';
import type { DeliveryAttempt, OutboxEvent, WebhookRecord } from '../store/records.ts';
import { ROW_LOCKS } from '../store/store.ts';
import { batchRequest, type DeliveryRequest, deliveryRequest } from './build-request.ts';
import type { WebhookSender } from './post.ts';
import { readAnswer } from './read-answer.ts';
import { nextBatch } from './record-batches.ts';
import { afterFailure, type RetryPolicy } from './retry-policy.ts';

/**
 * One attempt of one event (docs/contract.md §7): posts it, then logs it and moves the event on:
 * delivered, or retried later, given up, the webhook disabled, as retry-policy.ts decides.
 * Answers are written one unit at a time, as record-batches.ts groups them: the successes
 * answered meanwhile in one unit of multi-row statements, a failure alone in its own. The I/O
 * only; the rules are in the modules it imports.
 */

/** A webhook as one drain sends to it: the opened token is read once per batch. */
export interface Target {
  webhook: WebhookRecord;
  /** The signatureToken, or why it cannot be used (the token unreadable). */
  token: { ok: true; value: string } | { ok: false; failure: string };
}

/** A webhook with its token opened, or why it cannot be (another server key than it was sealed with). */
export function openTarget(secrets: Pick<Deps['secrets'], 'open'>, webhook: WebhookRecord): Target {
  try {
    return { webhook, token: { ok: true, value: secrets.open(webhook.tokenSealed) } };
  } catch {
    // Retried and given up like any failure.
    const failure = 'the webhook’s signatureToken cannot be read (was the server key changed?)';
    return { webhook, token: { ok: false, failure } };
  }
}

/** How an attempt ended, for the metrics. */
export type AttemptResult = 'delivered' | 'failed' | 'given_up';

export interface AttemptDeps extends Pick<Deps, 'store' | 'clock' | 'newId' | 'logger'> {
  sender: Pick<WebhookSender, 'post'>;
  policy: RetryPolicy;
  /** Told how each attempt ended, once it is recorded. */
  onSettled?: ((result: AttemptResult, event: OutboxEvent) => void) | undefined;
}

/**
 * Makes one attempt, logged and recorded; resolves true on a 2xx, once recorded (committed).
 * `onAnswer` is told as soon as the answer is in, before it is recorded.
 */
export type DeliverAttempt = (
  to: Target,
  event: OutboxEvent,
  onAnswer?: (success: boolean) => void,
) => Promise<boolean>;

/**
 * The same for a batch (docs/webhooks.md, "Batches"): one request carrying `events`, one log row per
 * event, all acknowledged or all failed by its answer.
 */
export type DeliverBatch = (
  to: Target,
  events: readonly OutboxEvent[],
  onAnswer?: (success: boolean) => void,
) => Promise<boolean>;

/** What came back from one attempt, before it is judged. */
export interface Exchange {
  /** When the request was sent (the log's timestamp, the webhook-timestamp header). */
  at: Date;
  responseCode: number | null;
  responseBody: string;
  durationMs: number;
  /** Why no usable answer came (time-out, network, refused URL); null when one did. */
  failure: string | null;
}

/** Sends one attempt of an event (the dispatcher's and a manual re-send alike). */
export function sendEvent(
  deps: Pick<AttemptDeps, 'clock' | 'sender'>,
  to: Target,
  event: Pick<OutboxEvent, 'id' | 'eventType' | 'payload'>,
): Promise<Exchange> {
  return sendRequest(deps, to, (token, at) => deliveryRequest(event, token, at));
}

/** Sends one attempt of a batch of events, under the batch's own id (its webhook-id). */
export function sendBatch(
  deps: Pick<AttemptDeps, 'clock' | 'sender'>,
  to: Target,
  batchId: string,
  events: readonly Pick<OutboxEvent, 'id' | 'eventType' | 'payload'>[],
): Promise<Exchange> {
  return sendRequest(deps, to, (token, at) => batchRequest(batchId, events, token, at));
}

async function sendRequest(
  deps: Pick<AttemptDeps, 'clock' | 'sender'>,
  { webhook, token }: Target,
  build: (token: string, at: Date) => DeliveryRequest,
): Promise<Exchange> {
  if (!token.ok) {
    return { at: deps.clock(), responseCode: null, responseBody: '', durationMs: 0, failure: token.failure };
  }
  const at = deps.clock();
  const { headers, body } = build(token.value, at);
  const startedAt = performance.now();
  const sent = await deps.sender.post(webhook.id, webhook.url, headers, body);
  const durationMs = Math.round(performance.now() - startedAt);
  return { at, responseCode: sent.status, responseBody: sent.body, durationMs, failure: sent.failure };
}

/** The delivery-log row of one attempt, as the repo's recordAttempt takes it (less willRetry). */
export function attemptLog(
  id: string,
  webhookId: string,
  event: Pick<OutboxEvent, 'id' | 'eventType'>,
  result: Exchange,
  batchId: string | null = null,
): Omit<DeliveryAttempt, 'willRetry' | 'retryCount'> {
  const answer = readAnswer(result.responseCode, result.failure);
  return {
    id,
    webhookId,
    eventId: event.id,
    eventType: event.eventType,
    responseCode: result.responseCode,
    responseBody: result.responseBody,
    success: answer.success,
    durationMs: result.durationMs,
    timestamp: result.at.toISOString(),
    errorMessage: answer.errorMessage,
    batchId,
  };
}

/** An attempt (of one event, or of a batch) answered and waiting to be recorded. */
interface Answered {
  webhook: WebhookRecord;
  /** One event for a single delivery; a batch's events, oldest first. */
  events: readonly OutboxEvent[];
  /** The batch's id; null for a single delivery. */
  batchId: string | null;
  result: Exchange;
  success: boolean;
  /** When the answer (or its time-out) came: when a failure is judged. */
  answeredAt: Date;
  recorded: { resolve: (success: boolean) => void; reject: (error: unknown) => void };
}

export function createDeliveryAttempt(deps: AttemptDeps): { single: DeliverAttempt; batch: DeliverBatch } {
  const { store, logger, policy } = deps;

  /**
   * Successes in one unit: their log rows, the events delivered, one counter bump per webhook
   * (docs/store.md, "Deliveries in batches"). Group-committed with the rounds' writes on SQLite.
   */
  async function recordSuccesses(batch: readonly Answered[]): Promise<void> {
    await store.transaction(async (tx) => {
      await tx.webhooks.recordAttempts(
        batch.flatMap(({ webhook, events, result, batchId }) =>
          events.map((event) => ({
            ...attemptLog(deps.newId(), webhook.id, event, result, batchId),
            success: true,
            willRetry: false,
            // The event's attempts so far are its earlier rows: the repo need not count them.
            retryCount: event.attempts,
          })),
        ),
      );
      await tx.outbox.markDeliveredMany(
        batch.flatMap(({ events }) =>
          events.map((event) => ({ id: event.id, attempts: event.attempts + 1 })),
        ),
      );
    }, ROW_LOCKS);
    for (const { webhook, events } of batch) {
      for (const event of events) {
        logger.debug('webhook delivered', {
          webhookId: webhook.id,
          eventId: event.id,
          attempts: event.attempts + 1,
        });
        deps.onSettled?.('delivered', event);
      }
    }
  }

  /**
   * Logs a failed attempt (one row per event: a batch's events fail together) and moves each event
   * (and maybe the webhook) on, in one transaction of multi-row statements, however many events
   * the batch had. The run of failures is read once: every event of a batch was in the same request.
   */
  async function recordFailure({
    webhook,
    events,
    batchId,
    result,
    answeredAt: now,
  }: Answered): Promise<void> {
    const answer = readAnswer(result.responseCode, result.failure);
    const timestamp = result.at.toISOString();
    const settled = await store.transaction(async (tx) => {
      // Read before this attempt is logged: when did the current run of failures start?
      const failingSince = await tx.webhooks.failingSince(webhook.id);
      const outcomes = events.map((event) => {
        const attempts = event.attempts + 1;
        const next = afterFailure(
          { attempts, at: timestamp, firstFailureAt: event.firstFailureAt, failingSince, gone: answer.gone },
          now,
          policy,
        );
        return { event, attempts, next };
      });
      await tx.webhooks.recordAttempts(
        outcomes.map(({ event, next }) => ({
          ...attemptLog(deps.newId(), webhook.id, event, result, batchId),
          retryCount: event.attempts,
          willRetry: next.retry,
        })),
      );
      await tx.outbox.failMany(
        outcomes.map(({ event, attempts, next }) => ({
          id: event.id,
          attempts,
          firstFailureAt: next.firstFailureAt,
          nextAttemptAt: next.retry ? next.nextAttemptAt : null,
        })),
      );
      const disable = outcomes.find(({ next }) => !next.retry && next.disable !== null)?.next;
      if (!disable || disable.retry) return { outcomes };
      await tx.webhooks.setStatus(webhook.id, 'disabled');
      return { outcomes, disabled: disable.disable, dropped: await tx.outbox.dropQueued(webhook.id) };
    }, ROW_LOCKS);
    // Logged once committed: the transaction does nothing but store work.
    for (const { event, attempts, next } of settled.outcomes) {
      if (!next.retry)
        logger.warn('webhook event given up', { webhookId: webhook.id, eventId: event.id, attempts });
    }
    if (settled.disabled) {
      logger.warn('webhook disabled', {
        webhookId: webhook.id,
        reason: settled.disabled,
        dropped: settled.dropped,
      });
    }
    for (const { event, next } of settled.outcomes)
      deps.onSettled?.(next.retry ? 'failed' : 'given_up', event);
  }

  /** Answered attempts waiting, oldest first; one write at a time takes from its head. */
  const waiting: Answered[] = [];
  /** A write is scheduled or running: it will take what is waiting. */
  let writing = false;

  async function write(): Promise<void> {
    try {
      for (let n = nextBatch(waiting); n > 0; n = nextBatch(waiting)) {
        const batch = waiting.splice(0, n);
        try {
          if (batch[0]?.success) await recordSuccesses(batch);
          else if (batch[0]) await recordFailure(batch[0]);
          for (const answered of batch) answered.recorded.resolve(answered.success);
        } catch (error) {
          for (const answered of batch) answered.recorded.reject(error);
        }
      }
    } finally {
      writing = false;
    }
  }

  /** Sends one request, then queues its answer for the next write; resolves once it is recorded. */
  async function attempt(
    to: Target,
    events: readonly OutboxEvent[],
    batchId: string | null,
    exchange: Promise<Exchange>,
    onAnswer?: (success: boolean) => void,
  ): Promise<boolean> {
    const result = await exchange;
    const answeredAt = deps.clock();
    const { success } = readAnswer(result.responseCode, result.failure);
    onAnswer?.(success);
    return new Promise<boolean>((resolve, reject) => {
      waiting.push({
        webhook: to.webhook,
        events,
        batchId,
        result,
        success,
        answeredAt,
        recorded: { resolve, reject },
      });
      // The write starts on the next turn: answers read in the same turn of I/O join its batch.
      if (!writing) {
        writing = true;
        setImmediate(() => void write());
      }
    });
  }

  const single: DeliverAttempt = (to, event, onAnswer) =>
    attempt(to, [event], null, sendEvent(deps, to, event), onAnswer);
  const batch: DeliverBatch = (to, events, onAnswer) => {
    const batchId = deps.newId();
    return attempt(to, events, batchId, sendBatch(deps, to, batchId, events), onAnswer);
  };
  return { single, batch };
}
