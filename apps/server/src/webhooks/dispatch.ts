import { performance } from 'node:perf_hooks';
import { SETTING_DEFAULTS } from '../config.ts';
import type { Deps } from '../deps.ts';
import type { HostLookup } from '../outbound/host-resolution.ts';
import type { OutboxEvent, OutboxHead } from '../store/records.ts';
import { type AttemptResult, createDeliveryAttempt } from './attempt.ts';
import { createWebhookDrain } from './drain.ts';
import { dueWebhooks, nextPassIn } from './due-webhooks.ts';
import { createWebhookSender } from './post.ts';
import { createManualResend, type ResendEvent } from './resend.ts';
import { DEFAULT_GIVE_UP_AFTER_MS, DEFAULT_RETRY_SCHEDULE, type RetryPolicy } from './retry-policy.ts';

export { DEFAULT_RETRY_SCHEDULE };

const SECOND = 1000;

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
  onSettled?: (result: AttemptResult, event: OutboxEvent) => void;
  /** This process's name on the leases it takes (default: a new id). */
  leaseOwner?: string;
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
  /** Sends one event again now, outside the queue, on the webhook's connections (resend.ts). */
  resend: ResendEvent;
}

export const DEFAULT_IN_FLIGHT_PER_WEBHOOK = SETTING_DEFAULTS.WEBHOOK_IN_FLIGHT;

/** After an unexpected error (a bug, the disk), a webhook is left alone this long (real time). */
const FAULT_PAUSE_MS = 30 * SECOND;
/**
 * A drain holds its webhook's lease this long past its last renewal (every third of it): past the
 * 15 s time-out of an attempt, so a live drain never loses it; a dead process's expires.
 */
const LEASE_MS = 60 * SECOND;
/** A webhook another process is draining is looked at again after this (real time). */
const HELD_ELSEWHERE_PAUSE_MS = SECOND;

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
 *
 * This module dispatches: which webhooks a pass starts draining and when the next pass runs
 * (due-webhooks.ts decides), one pass at a time, start/stop. The steps of a delivery, one file
 * each in this folder: enqueue.ts (queue an event in its round's transaction), dispatch.ts (this),
 * drain.ts (send one webhook's queue in the order send-order.ts allows), attempt.ts (make one
 * attempt and record it, in the batches record-batches.ts forms), build-request.ts (what is
 * posted, signed by signatures.ts), post.ts (the HTTP connections), read-answer.ts (what the
 * answer means), retry-policy.ts (whether a failure is retried, given up or disables the
 * webhook); resend.ts (a person's re-send), nudge.ts (word from worker processes), wiring.ts
 * (the outbox and the dispatcher put together).
 */
export function createWebhookDispatcher(
  deps: DispatcherDeps,
  options: DispatcherOptions = {},
): WebhookDispatcher {
  const { store, logger } = deps;
  const giveUpAfterMs = options.giveUpAfterMs ?? DEFAULT_GIVE_UP_AFTER_MS;
  const policy: RetryPolicy = {
    schedule: options.schedule ?? DEFAULT_RETRY_SCHEDULE,
    giveUpAfterMs,
    disableAfterMs: options.disableAfterMs ?? giveUpAfterMs,
  };
  const timeoutMs = options.timeoutMs ?? 15 * SECOND;
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
  const pausedUntil = new Map<string, number>();
  let attemptsMade = 0;
  let started = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;

  const owner = options.leaseOwner ?? deps.newId();
  const leaseUntil = () => new Date(deps.clock().getTime() + LEASE_MS).toISOString();

  /**
   * Runs a webhook's drain under its lease (webhook_leases), so one process at a time sends a
   * webhook's queue and the ordering rule holds across processes. Held elsewhere: skipped for a
   * moment; that process sends what is queued.
   */
  async function leased(webhookId: string, work: () => Promise<void>): Promise<void> {
    const now = deps.clock().toISOString();
    if (!(await store.outbox.claimWebhook(webhookId, owner, now, leaseUntil()))) {
      pausedUntil.set(webhookId, performance.now() + HELD_ELSEWHERE_PAUSE_MS);
      return;
    }
    const keep = (what: string, renewal: Promise<unknown>) =>
      void renewal.catch((error: unknown) =>
        logger.warn(`webhook lease: could not ${what}`, { webhookId, error: String(error) }),
      );
    const renew = setInterval(
      () =>
        keep('renew', store.outbox.claimWebhook(webhookId, owner, deps.clock().toISOString(), leaseUntil())),
      LEASE_MS / 3,
    );
    renew.unref();
    try {
      await work();
    } finally {
      clearInterval(renew);
      keep('release', store.outbox.releaseWebhook(webhookId, owner));
    }
  }

  const deliver = createDeliveryAttempt({ ...deps, sender, policy, onSettled: options.onSettled });
  const drain = createWebhookDrain({
    ...deps,
    sender,
    perWebhook,
    attempt: async (to, event, onAnswer) => {
      const delivered = await deliver.single(to, event, onAnswer);
      attemptsMade++;
      return delivered;
    },
    batch: async (to, events, onAnswer) => {
      const delivered = await deliver.batch(to, events, onAnswer);
      attemptsMade++;
      return delivered;
    },
    stopping: () => stopping,
    onFault: (webhookId) => pausedUntil.set(webhookId, performance.now() + FAULT_PAUSE_MS),
  });

  /** Webhooks paused after a fault → real milliseconds left; ended pauses are forgotten. */
  function pauses(): Map<string, number> {
    const left = new Map<string, number>();
    const realNow = performance.now();
    for (const [webhookId, until] of pausedUntil) {
      if (until > realNow) left.set(webhookId, until - realNow);
      else pausedUntil.delete(webhookId);
    }
    return left;
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
      // No await from here on: the in-flight check and claim of a webhook are one step.
      const start = dueWebhooks(heads, deps.clock().toISOString(), {
        busy: inFlight,
        room: concurrency - inFlight.size,
        paused: pauses(),
      });
      for (const webhookId of start) {
        const work = leased(webhookId, () => drain(webhookId)).finally(() => {
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

  /** Sleeps until the next pass is due (due-webhooks.ts says when). */
  function arm(heads: readonly OutboxHead[]): void {
    clearTimeout(timer);
    if (stopping) return;
    const delay = nextPassIn(heads, deps.clock().getTime(), {
      busy: inFlight,
      room: concurrency - inFlight.size,
      pauseLeft: pauses(),
      pollMs,
    });
    timer = setTimeout(() => void pump(), delay);
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
    resend: createManualResend({ ...deps, sender }),
    async runOnce() {
      const before = attemptsMade;
      await pump();
      while (inFlight.size > 0) await Promise.all(inFlight.values());
      return attemptsMade - before;
    },
  };
}
