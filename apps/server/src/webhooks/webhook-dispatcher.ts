import { performance } from 'node:perf_hooks';
import { canonicalBody } from '@raspa/core/signer';
import type { Deps } from '../deps.ts';
import { checkWebhookUrl, type HostLookup, systemLookup } from '../services/webhook-url-policy.ts';
import type { OutboxEvent, OutboxHead } from '../store/outbox-repo.ts';
import type { DeliveryAttempt, WebhookRecord } from '../store/webhooks-repo.ts';
import { signedRequestHeader, standardWebhookSignature } from './webhook-signatures.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Waits after the 1st, 2nd, … failed attempt of an event (CONTRACT §7); after the last, it is given up. */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

export interface DispatcherOptions {
  /** Milliseconds to wait after each failed attempt; its length is the number of retries. */
  schedule?: readonly number[];
  /** An answer (status line) must come within this; default 15 s. */
  timeoutMs?: number;
  /** An event whose first failure is this old is given up; default 5 days. */
  giveUpAfterMs?: number;
  /** A webhook failing (no success) for this long is disabled; default giveUpAfterMs. */
  disableAfterMs?: number;
  fetch?: typeof globalThis.fetch;
  /** Skip the URL policy; default: the `allowPrivateWebhooks` setting, read at each attempt. */
  allowPrivate?: boolean;
  /** Host resolution for the URL policy. */
  lookup?: HostLookup;
  /** Webhooks served at once; each webhook gets one request at a time. */
  concurrency?: number;
  /** Longest the running dispatcher sleeps before looking at the queue again; default 30 s. */
  pollMs?: number;
  /** How much of an answer's body the log keeps; default 2 KiB. */
  maxResponseBodyBytes?: number;
}

export type DispatcherDeps = Pick<Deps, 'store' | 'clock' | 'newId' | 'secrets' | 'logger' | 'settings'>;

export interface WebhookDispatcher {
  /** Picks up everything queued (after a restart too) and keeps delivering until stop(). */
  start(): void;
  /** Takes no new deliveries and resolves once the ones in flight are settled. */
  stop(): Promise<void>;
  /** Something was queued: look now (does nothing unless started). */
  nudge(): void;
  /**
   * Delivers everything due at the injected clock's now, each webhook's events in order, and
   * resolves with the number of attempts made (tests move the clock and call this).
   */
  runOnce(): Promise<number>;
}

/** What came back from one attempt, before it is judged. */
interface Exchange {
  /** When the request was sent (the log's timestamp, the webhook-timestamp header). */
  at: Date;
  responseCode: number | null;
  responseBody: string;
  durationMs: number;
  /** Why no usable answer came (time-out, network, refused URL); null when one did. */
  failure: string | null;
}

/** After an unexpected error (a bug, the disk), a webhook is left alone this long (real time). */
const FAULT_PAUSE_MS = 30 * SECOND;

const isSuccess = (code: number | null) => code !== null && code >= 200 && code < 300;

function answerMessage(code: number): string | null {
  if (isSuccess(code)) return null;
  if (code === 410) return 'the receiver answered 410 Gone: the webhook is disabled';
  if (code >= 300 && code < 400) return `the receiver answered ${code}; redirects are not followed`;
  return `the receiver answered ${code}`;
}

/** A network error in a few words, without the URL (it may carry credentials). */
function networkMessage(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  const text = typeof code === 'string' ? code : cause instanceof Error ? cause.message : String(cause);
  return `could not reach the receiver: ${text}`;
}

/**
 * The start of a body, at most `limit` bytes, cut on a character boundary. A body that stops
 * (time-out, reset) midway keeps what arrived.
 */
async function readStart(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // keep what came
  } finally {
    reader.cancel().catch(() => {});
  }
  // stream: true holds back a multi-byte character cut in half instead of writing U+FFFD.
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, limit), { stream: true });
}

/**
 * Sends the webhook outbox (CONTRACT §7). Per webhook strictly in `seq` order: an event is tried
 * only once every earlier one is delivered or given up; webhooks proceed in parallel. All state
 * lives in SQLite (webhook_events, webhook_deliveries), so a restart resumes where it stopped;
 * an attempt in flight during a crash is sent again (receivers deduplicate on `webhook-id`).
 */
export function createWebhookDispatcher(
  deps: DispatcherDeps,
  options: DispatcherOptions = {},
): WebhookDispatcher {
  const { store, logger } = deps;
  const schedule = options.schedule ?? DEFAULT_RETRY_SCHEDULE;
  const timeoutMs = options.timeoutMs ?? 15 * SECOND;
  const giveUpAfterMs = options.giveUpAfterMs ?? 5 * DAY;
  const disableAfterMs = options.disableAfterMs ?? giveUpAfterMs;
  const fetchFn = options.fetch ?? globalThis.fetch;
  const lookup = options.lookup ?? systemLookup;
  const concurrency = options.concurrency ?? 16;
  const pollMs = options.pollMs ?? 30 * SECOND;
  const maxBodyBytes = options.maxResponseBodyBytes ?? 2048;
  const allowPrivate = () => options.allowPrivate ?? deps.settings.allowPrivateWebhooks;

  /** webhookId → its drain: one request at a time per webhook. */
  const inFlight = new Map<string, Promise<void>>();
  /** webhookId → performance.now() before which it is skipped. */
  const faulted = new Map<string, number>();
  let attemptsMade = 0;
  let started = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;

  /** Sends one attempt; the URL is checked again first, since DNS can change after registration. */
  async function exchange(webhook: WebhookRecord, event: OutboxEvent, body: string): Promise<Exchange> {
    if (!allowPrivate()) {
      const verdict = await checkWebhookUrl(webhook.url, lookup);
      if (!verdict.ok) {
        const failure = `the url was refused: ${verdict.reason}`;
        return { at: deps.clock(), responseCode: null, responseBody: '', durationMs: 0, failure };
      }
    }
    let token: string;
    try {
      token = deps.secrets.open(webhook.tokenSealed);
    } catch {
      // Another server key than the one it was sealed with: retried and given up like any failure.
      const failure = 'the webhook’s signatureToken cannot be read (was the server key changed?)';
      return { at: deps.clock(), responseCode: null, responseBody: '', durationMs: 0, failure };
    }
    const at = deps.clock();
    const timestamp = Math.floor(at.getTime() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Raspa-Webhooks/1',
      'x-signed-request': signedRequestHeader(body, token),
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': standardWebhookSignature(event.id, timestamp, body, token),
    };
    const controller = new AbortController();
    const deadline = setTimeout(() => controller.abort(), timeoutMs);
    const startedAt = performance.now();
    const elapsed = () => Math.round(performance.now() - startedAt);
    try {
      const response = await fetchFn(webhook.url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: controller.signal,
      });
      const responseBody = await readStart(response, maxBodyBytes);
      return { at, responseCode: response.status, responseBody, durationMs: elapsed(), failure: null };
    } catch (error) {
      const failure = controller.signal.aborted ? `no answer within ${timeoutMs} ms` : networkMessage(error);
      return { at, responseCode: null, responseBody: '', durationMs: elapsed(), failure };
    } finally {
      clearTimeout(deadline);
    }
  }

  /** Logs the attempt and moves the event (and maybe the webhook) on, in one transaction. */
  async function settle(webhook: WebhookRecord, event: OutboxEvent, result: Exchange): Promise<void> {
    const attempts = event.attempts + 1;
    const success = isSuccess(result.responseCode);
    const timestamp = result.at.toISOString();
    const logged: Omit<DeliveryAttempt, 'willRetry'> = {
      id: deps.newId(),
      webhookId: webhook.id,
      eventId: event.id,
      eventType: event.eventType,
      payload: event.payload,
      responseCode: result.responseCode,
      responseBody: result.responseBody,
      success,
      durationMs: result.durationMs,
      timestamp,
      errorMessage:
        result.failure ?? (result.responseCode === null ? null : answerMessage(result.responseCode)),
    };
    // Group-committed with the rounds' writes: one fsync serves many.
    if (success) {
      await store.batch(() => {
        store.webhooks.recordAttempt({ ...logged, willRetry: false });
        store.outbox.markDelivered(event.id, attempts);
      });
      logger.debug('webhook delivered', { webhookId: webhook.id, eventId: event.id, attempts });
      return;
    }
    const now = deps.clock().getTime();
    const firstFailureAt = event.firstFailureAt ?? timestamp;
    const gone = result.responseCode === 410;
    await store.batch(() => {
      // Read before this attempt is logged: when did the current run of failures start?
      const failingSince = store.webhooks.failingSince(webhook.id) ?? timestamp;
      const disable = gone || now - Date.parse(failingSince) >= disableAfterMs;
      const delay = schedule[attempts - 1];
      const expired = now - Date.parse(firstFailureAt) >= giveUpAfterMs;
      const willRetry = !disable && !expired && delay !== undefined;
      store.webhooks.recordAttempt({ ...logged, willRetry });
      if (willRetry) {
        const nextAttemptAt = new Date(now + delay).toISOString();
        store.outbox.scheduleRetry(event.id, { attempts, nextAttemptAt, firstFailureAt });
        return;
      }
      store.outbox.markFailed(event.id, { attempts, firstFailureAt });
      logger.warn('webhook event given up', { webhookId: webhook.id, eventId: event.id, attempts });
      if (disable) {
        store.webhooks.setStatus(webhook.id, 'disabled');
        const dropped = store.outbox.dropQueued(webhook.id);
        logger.warn('webhook disabled', {
          webhookId: webhook.id,
          reason: gone ? '410 Gone' : 'failing for too long',
          dropped,
        });
      }
    });
  }

  /** One event: true when an attempt was made (false: dropped, its webhook is gone or disabled). */
  async function deliver(event: OutboxEvent): Promise<boolean> {
    const webhook = store.webhooks.findById(event.webhookId);
    if (!webhook || webhook.deletedAt !== null || webhook.status !== 'active') {
      const dropped = store.outbox.dropQueued(event.webhookId);
      logger.info('webhook events dropped', { webhookId: event.webhookId, dropped });
      return false;
    }
    const body = canonicalBody({ event: event.eventType, payload: event.payload });
    await settle(webhook, event, await exchange(webhook, event, body));
    return true;
  }

  /** A webhook's due events, one after the other, until one is not due or none is left. */
  async function drain(webhookId: string): Promise<void> {
    try {
      while (!stopping) {
        const event = store.outbox.headOf(webhookId);
        if (!event || event.nextAttemptAt > deps.clock().toISOString()) return;
        if (await deliver(event)) attemptsMade++;
      }
    } catch (error) {
      faulted.set(webhookId, performance.now() + FAULT_PAUSE_MS);
      logger.error('webhook delivery broke', {
        webhookId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  function isFaulted(webhookId: string): boolean {
    const until = faulted.get(webhookId);
    if (until === undefined) return false;
    if (until > performance.now()) return true;
    faulted.delete(webhookId);
    return false;
  }

  /** Starts a drain for each webhook with a due event and none in flight, up to `concurrency`. */
  function pump(): void {
    if (stopping) return;
    let heads: OutboxHead[] = [];
    try {
      heads = store.outbox.heads();
      const now = deps.clock().toISOString();
      for (const { webhookId, nextAttemptAt } of heads) {
        if (inFlight.size >= concurrency) break;
        if (nextAttemptAt > now || inFlight.has(webhookId) || isFaulted(webhookId)) continue;
        const work = drain(webhookId).finally(() => {
          inFlight.delete(webhookId);
          pump();
        });
        inFlight.set(webhookId, work);
      }
    } catch (error) {
      logger.error('webhook queue unreadable', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
    if (started) arm(heads);
  }

  /**
   * Sleeps until the next head waiting for its time is due, at most pollMs (so a moved clock or
   * an event queued by another process is noticed). A full house needs no timer: each drain
   * that ends pumps again.
   */
  function arm(heads: readonly OutboxHead[]): void {
    clearTimeout(timer);
    if (stopping) return;
    let delay = pollMs;
    if (inFlight.size < concurrency) {
      const now = deps.clock().getTime();
      for (const { webhookId, nextAttemptAt } of heads) {
        if (inFlight.has(webhookId)) continue;
        const pausedUntil = isFaulted(webhookId) ? faulted.get(webhookId) : undefined;
        const wait =
          pausedUntil !== undefined ? pausedUntil - performance.now() : Date.parse(nextAttemptAt) - now;
        delay = Math.min(delay, wait);
      }
    }
    timer = setTimeout(pump, Math.max(0, delay));
    timer.unref();
  }

  return {
    start() {
      if (started) return;
      started = true;
      stopping = false;
      pump();
    },
    async stop() {
      stopping = true;
      started = false;
      clearTimeout(timer);
      while (inFlight.size > 0) await Promise.all(inFlight.values());
    },
    nudge() {
      if (started) pump();
    },
    async runOnce() {
      const before = attemptsMade;
      pump();
      while (inFlight.size > 0) await Promise.all(inFlight.values());
      return attemptsMade - before;
    },
  };
}
