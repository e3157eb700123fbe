import { performance } from 'node:perf_hooks';
import type { Deps } from '../deps.ts';
import type { DeliveryAttempt, OutboxEvent, WebhookRecord } from '../store/records.ts';
import { ROW_LOCKS } from '../store/store.ts';
import { deliveryRequest } from './build-request.ts';
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
export async function sendEvent(
  deps: Pick<AttemptDeps, 'clock' | 'sender'>,
  { webhook, token }: Target,
  event: Pick<OutboxEvent, 'id' | 'eventType' | 'payload'>,
): Promise<Exchange> {
  if (!token.ok) {
    return { at: deps.clock(), responseCode: null, responseBody: '', durationMs: 0, failure: token.failure };
  }
  const at = deps.clock();
  const { headers, body } = deliveryRequest(event, token.value, at);
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
  };
}

/** An attempt answered and waiting to be recorded. */
interface Answered {
  webhook: WebhookRecord;
  event: OutboxEvent;
  result: Exchange;
  success: boolean;
  /** When the answer (or its time-out) came: when a failure is judged. */
  answeredAt: Date;
  recorded: { resolve: (success: boolean) => void; reject: (error: unknown) => void };
}

export function createDeliveryAttempt(deps: AttemptDeps): DeliverAttempt {
  const { store, logger, policy } = deps;

  /**
   * Successes in one unit: their log rows, the events delivered, one counter bump per webhook
   * (docs/store.md, "Deliveries in batches"). Group-committed with the rounds' writes on SQLite.
   */
  async function recordSuccesses(batch: readonly Answered[]): Promise<void> {
    await store.transaction(async (tx) => {
      await tx.webhooks.recordDelivered(
        batch.map(({ webhook, event, result }) => ({
          ...attemptLog(deps.newId(), webhook.id, event, result),
          success: true as const,
          // The event's attempts so far are its earlier rows: the repo need not count them.
          retryCount: event.attempts,
        })),
      );
      await tx.outbox.markDeliveredMany(
        batch.map(({ event }) => ({ id: event.id, attempts: event.attempts + 1 })),
      );
    }, ROW_LOCKS);
    for (const { webhook, event } of batch) {
      logger.debug('webhook delivered', {
        webhookId: webhook.id,
        eventId: event.id,
        attempts: event.attempts + 1,
      });
      deps.onSettled?.('delivered', event);
    }
  }

  /** Logs a failed attempt and moves the event (and maybe the webhook) on, in one transaction. */
  async function recordFailure({ webhook, event, result, answeredAt: now }: Answered): Promise<void> {
    const attempts = event.attempts + 1;
    const answer = readAnswer(result.responseCode, result.failure);
    const timestamp = result.at.toISOString();
    const logged = { ...attemptLog(deps.newId(), webhook.id, event, result), retryCount: event.attempts };
    const settled = await store.transaction(async (tx) => {
      // Read before this attempt is logged: when did the current run of failures start?
      const failingSince = await tx.webhooks.failingSince(webhook.id);
      const next = afterFailure(
        { attempts, at: timestamp, firstFailureAt: event.firstFailureAt, failingSince, gone: answer.gone },
        now,
        policy,
      );
      await tx.webhooks.recordAttempt({ ...logged, willRetry: next.retry });
      const { firstFailureAt } = next;
      if (next.retry) {
        await tx.outbox.scheduleRetry(event.id, {
          attempts,
          nextAttemptAt: next.nextAttemptAt,
          firstFailureAt,
        });
        return { next };
      }
      await tx.outbox.markFailed(event.id, { attempts, firstFailureAt });
      if (next.disable === null) return { next };
      await tx.webhooks.setStatus(webhook.id, 'disabled');
      return { next, dropped: await tx.outbox.dropQueued(webhook.id) };
    }, ROW_LOCKS);
    // Logged once committed: the transaction does nothing but store work.
    const { next, dropped } = settled;
    if (!next.retry) {
      logger.warn('webhook event given up', { webhookId: webhook.id, eventId: event.id, attempts });
      if (next.disable !== null) {
        logger.warn('webhook disabled', { webhookId: webhook.id, reason: next.disable, dropped });
      }
    }
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

  return async (to, event, onAnswer) => {
    const result = await sendEvent(deps, to, event);
    const answeredAt = deps.clock();
    const { success } = readAnswer(result.responseCode, result.failure);
    onAnswer?.(success);
    return new Promise<boolean>((resolve, reject) => {
      waiting.push({
        webhook: to.webhook,
        event,
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
  };
}
