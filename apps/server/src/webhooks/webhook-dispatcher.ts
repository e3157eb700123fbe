import { performance } from 'node:perf_hooks';
import { canonicalBody } from '@raspa/core/signer';
import type { Deps } from '../deps.ts';
import type { HostLookup } from '../outbound/host-resolution.ts';
import type { DeliveryAttempt, OutboxEvent, OutboxHead, WebhookRecord } from '../store/records.ts';
import { createWebhookSender } from './webhook-sender.ts';
import { signedRequestHeader, standardWebhookSignature } from './webhook-signatures.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Waits after the 1st, 2nd, … failed attempt of an event (docs/contract.md §7); after the last, it is given up. */
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
  /** Private addresses allowed; default: the `allowPrivateOutbound` setting, read at each connection. */
  allowPrivate?: boolean;
  /** Host resolution for the address policy; default: `deps.resolveHost`. */
  lookup?: HostLookup;
  /** Webhooks served at once. */
  concurrency?: number;
  /**
   * Events in flight per webhook once its receiver has answered 2xx, each on its own connection;
   * default 32. 1 = one at a time: the receiver then gets every event strictly in order.
   */
  inFlightPerWebhook?: number;
  /** Longest the running dispatcher sleeps before looking at the queue again; default 30 s. */
  pollMs?: number;
  /** How much of an answer's body the log keeps; default 2 KiB. */
  maxResponseBodyBytes?: number;
  /** Told how each attempt ended, once it is recorded (the metrics). */
  onSettled?: (result: 'delivered' | 'failed' | 'given_up', event: OutboxEvent) => void;
}

export type DispatcherDeps = Pick<
  Deps,
  'store' | 'clock' | 'newId' | 'secrets' | 'logger' | 'settings' | 'resolveHost'
>;

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

/** A webhook as one drain sends to it: the opened token is read once per batch. */
interface Target {
  webhook: WebhookRecord;
  /** The signatureToken, or why it cannot be used (the token unreadable). */
  token: { ok: true; value: string } | { ok: false; failure: string };
}

export const DEFAULT_IN_FLIGHT_PER_WEBHOOK = 32;

/** A drain re-reads its webhook (deleted? disabled?) at least this often. */
const TARGET_TTL_MS = SECOND;

/** After an unexpected error (a bug, the disk), a webhook is left alone this long (real time). */
const FAULT_PAUSE_MS = 30 * SECOND;

const isSuccess = (code: number | null) => code !== null && code >= 200 && code < 300;

function answerMessage(code: number): string | null {
  if (isSuccess(code)) return null;
  if (code === 410) return 'the receiver answered 410 Gone: the webhook is disabled';
  if (code >= 300 && code < 400) return `the receiver answered ${code}; redirects are not followed`;
  return `the receiver answered ${code}`;
}

/**
 * Sends the webhook outbox (docs/contract.md §7). Per webhook in `seq` (round) order: a webhook starts
 * with one event at a time; after a 2xx, up to `inFlightPerWebhook` go out at once, still started
 * in order, so a busy webhook is not held to one round trip per event (a receiver may then see
 * events of different rounds overtake each other; a round's own events never overlap: its
 * close-round is sent only after its open-round has been answered). A failure stops the webhook's
 * sending: nothing after the failed event is sent before its retry (only those already in flight
 * may be accepted meanwhile), and the next attempt starts with one event again. Webhooks proceed
 * in parallel. All state lives in the store
 * (webhook_events, webhook_deliveries), so a restart resumes where it stopped; an attempt in
 * flight during a crash is sent again (receivers deduplicate on `webhook-id`).
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
  const concurrency = options.concurrency ?? 16;
  const perWebhook = Math.max(1, options.inFlightPerWebhook ?? DEFAULT_IN_FLIGHT_PER_WEBHOOK);
  const pollMs = options.pollMs ?? 30 * SECOND;
  const sender = createWebhookSender({
    timeoutMs,
    connections: perWebhook,
    maxBodyBytes: options.maxResponseBodyBytes ?? 2048,
    // The address policy is applied per connection, by the sender: see pinned-connector.ts.
    policy: {
      lookup: options.lookup ?? deps.resolveHost,
      allowPrivate: () => options.allowPrivate ?? deps.settings.allowPrivateOutbound,
    },
  });

  /** webhookId → its drain: one drain per webhook. */
  const inFlight = new Map<string, Promise<void>>();
  /** webhookId → performance.now() before which it is skipped. */
  const faulted = new Map<string, number>();
  let attemptsMade = 0;
  let started = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;

  /**
   * The webhook if it may still receive (else its queue is dropped), with its token opened. Its
   * address is checked by the sender at each connection (DNS can change after registration).
   */
  async function lookUp(webhookId: string): Promise<Target | undefined> {
    const webhook = await store.webhooks.findById(webhookId);
    if (!webhook || webhook.deletedAt !== null || webhook.status !== 'active') {
      // No transaction needed: a webhook never comes back from deleted or disabled.
      const dropped = await store.outbox.dropQueued(webhookId);
      logger.info('webhook events dropped', { webhookId, dropped });
      sender.forget(webhookId);
      return undefined;
    }
    try {
      return { webhook, token: { ok: true, value: deps.secrets.open(webhook.tokenSealed) } };
    } catch {
      // Another server key than the one it was sealed with: retried and given up like any failure.
      const failure = 'the webhook’s signatureToken cannot be read (was the server key changed?)';
      return { webhook, token: { ok: false, failure } };
    }
  }

  /** Sends one attempt of an event. */
  async function exchange({ webhook, token }: Target, event: OutboxEvent): Promise<Exchange> {
    if (!token.ok) {
      return {
        at: deps.clock(),
        responseCode: null,
        responseBody: '',
        durationMs: 0,
        failure: token.failure,
      };
    }
    const body = canonicalBody({ event: event.eventType, payload: event.payload });
    const at = deps.clock();
    const timestamp = Math.floor(at.getTime() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Raspa-Webhooks/1',
      'x-signed-request': signedRequestHeader(body, token.value),
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': standardWebhookSignature(event.id, timestamp, body, token.value),
    };
    const startedAt = performance.now();
    const sent = await sender.post(webhook.id, webhook.url, headers, body);
    const durationMs = Math.round(performance.now() - startedAt);
    return { at, responseCode: sent.status, responseBody: sent.body, durationMs, failure: sent.failure };
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
      await store.transaction(async (tx) => {
        await tx.webhooks.recordAttempt({ ...logged, willRetry: false });
        await tx.outbox.markDelivered(event.id, attempts);
      });
      logger.debug('webhook delivered', { webhookId: webhook.id, eventId: event.id, attempts });
      options.onSettled?.('delivered', event);
      return;
    }
    const now = deps.clock().getTime();
    const firstFailureAt = event.firstFailureAt ?? timestamp;
    const gone = result.responseCode === 410;
    const outcome = await store.transaction(async (tx) => {
      // Read before this attempt is logged: when did the current run of failures start?
      const failingSince = (await tx.webhooks.failingSince(webhook.id)) ?? timestamp;
      const disable = gone || now - Date.parse(failingSince) >= disableAfterMs;
      const delay = schedule[attempts - 1];
      const expired = now - Date.parse(firstFailureAt) >= giveUpAfterMs;
      const willRetry = !disable && !expired && delay !== undefined;
      await tx.webhooks.recordAttempt({ ...logged, willRetry });
      if (willRetry) {
        const nextAttemptAt = new Date(now + delay).toISOString();
        await tx.outbox.scheduleRetry(event.id, { attempts, nextAttemptAt, firstFailureAt });
        return { retrying: true } as const;
      }
      await tx.outbox.markFailed(event.id, { attempts, firstFailureAt });
      if (!disable) return { retrying: false } as const;
      await tx.webhooks.setStatus(webhook.id, 'disabled');
      return { retrying: false, dropped: await tx.outbox.dropQueued(webhook.id) } as const;
    });
    // Logged once committed: the transaction does nothing but store work.
    if (!outcome.retrying) {
      logger.warn('webhook event given up', { webhookId: webhook.id, eventId: event.id, attempts });
      if ('dropped' in outcome) {
        logger.warn('webhook disabled', {
          webhookId: webhook.id,
          reason: gone ? '410 Gone' : 'failing for too long',
          dropped: outcome.dropped,
        });
      }
    }
    options.onSettled?.(outcome.retrying ? 'failed' : 'given_up', event);
  }

  /** One attempt of one event, logged; true on a 2xx. */
  async function attempt(to: Target, event: OutboxEvent): Promise<boolean> {
    const result = await exchange(to, event);
    await settle(to.webhook, event, result);
    attemptsMade++;
    return isSuccess(result.responseCode);
  }

  /**
   * A webhook's due events in seq order, until one is not due, none is left or one fails. The
   * first goes alone; once one has had a 2xx, up to `perWebhook` are in flight.
   */
  async function drain(webhookId: string): Promise<void> {
    const sending = new Set<Promise<unknown>>();
    const roundsInFlight = new Set<string>();
    /** Read, but waiting for their round's earlier event to be answered; oldest first. */
    const held: OutboxEvent[] = [];
    let lastSeq = -1;
    let healthy = false;
    let failed = false;
    let to: { target: Target; readAt: number } | undefined;
    const room = () => (healthy ? perWebhook : 1) - sending.size;

    const send = (target: Target, event: OutboxEvent) => {
      roundsInFlight.add(event.roundId);
      const work = attempt(target, event).then((ok) => {
        roundsInFlight.delete(event.roundId);
        if (ok) healthy = true;
        else failed = true;
      });
      sending.add(work);
      void work.finally(() => sending.delete(work)).catch(() => {});
    };

    try {
      for (;;) {
        if (!stopping && !failed && room() > 0) {
          if (!to || performance.now() - to.readAt > TARGET_TTL_MS) {
            const target = await lookUp(webhookId);
            if (!target) break;
            to = { target, readAt: performance.now() };
          }
          const target = to.target;
          const free = room() - held.filter((event) => !roundsInFlight.has(event.roundId)).length;
          const read =
            free > 0 && held.length < perWebhook
              ? await store.outbox.queuedAfter(webhookId, lastSeq, free)
              : [];
          // Chosen only now, in one synchronous step: while the store answered, attempts may have
          // ended (a failure: nothing more may start; a 2xx: a held close-round may go) or stop() come.
          if (!stopping && !failed) {
            const limit = room();
            const ready: OutboxEvent[] = [];
            for (let i = 0; i < held.length && ready.length < limit; ) {
              const event = held[i] as OutboxEvent;
              if (roundsInFlight.has(event.roundId)) i++;
              else {
                ready.push(...held.splice(i, 1));
                roundsInFlight.add(event.roundId);
              }
            }
            const now = deps.clock().toISOString();
            for (const event of read) {
              // A retry not yet due holds back everything after it.
              if (event.nextAttemptAt > now) break;
              lastSeq = event.seq;
              // Held (seq order) if its round is in flight, or if held events freed meanwhile took the room.
              if (ready.length >= limit || roundsInFlight.has(event.roundId)) held.push(event);
              else {
                ready.push(event);
                roundsInFlight.add(event.roundId);
              }
            }
            for (const event of ready) send(target, event);
          }
        }
        if (sending.size === 0) return;
        await Promise.race(sending);
      }
    } catch (error) {
      faulted.set(webhookId, performance.now() + FAULT_PAUSE_MS);
      logger.error('webhook delivery broke', {
        webhookId,
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      await Promise.allSettled(sending);
    }
  }

  function isFaulted(webhookId: string): boolean {
    const until = faulted.get(webhookId);
    if (until === undefined) return false;
    if (until > performance.now()) return true;
    faulted.delete(webhookId);
    return false;
  }

  /** The pump pass under way, if any, and whether another was asked for meanwhile. */
  let pumping: Promise<void> | undefined;
  let pumpAgain = false;

  /**
   * Runs a pump pass, one at a time: a call made during a pass gets one more pass after it (a
   * burst of nudges costs one read of the heads), and resolves once that pass has run.
   */
  function pump(): Promise<void> {
    if (stopping) return Promise.resolve();
    if (pumping) {
      pumpAgain = true;
      return pumping;
    }
    const passes = async () => {
      try {
        do {
          pumpAgain = false;
          await pass();
        } while (pumpAgain && !stopping);
      } finally {
        pumping = undefined;
      }
    };
    pumping = passes();
    return pumping;
  }

  /** Starts a drain for each webhook with a due event and none in flight, up to `concurrency`. */
  async function pass(): Promise<void> {
    let heads: OutboxHead[] = [];
    try {
      heads = await store.outbox.heads();
      if (stopping) return;
      const now = deps.clock().toISOString();
      // No await from here on: the in-flight check and claim of a webhook are one step.
      for (const { webhookId, nextAttemptAt } of heads) {
        if (inFlight.size >= concurrency) break;
        if (nextAttemptAt > now || inFlight.has(webhookId) || isFaulted(webhookId)) continue;
        const work = drain(webhookId).finally(() => {
          inFlight.delete(webhookId);
          // Returned: the drain stays in flight until the next pass has started what follows it,
          // so runOnce and stop() see those too.
          return pump();
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
    timer = setTimeout(() => void pump(), Math.max(0, delay));
    timer.unref();
  }

  return {
    start() {
      if (started) return;
      started = true;
      stopping = false;
      void pump();
    },
    async stop() {
      stopping = true;
      started = false;
      clearTimeout(timer);
      // A pass still reading the heads starts nothing once it sees `stopping`.
      await pumping;
      while (inFlight.size > 0) await Promise.all(inFlight.values());
      await sender.close();
    },
    nudge() {
      if (started) void pump();
    },
    async runOnce() {
      const before = attemptsMade;
      await pump();
      while (inFlight.size > 0) await Promise.all(inFlight.values());
      return attemptsMade - before;
    },
  };
}
