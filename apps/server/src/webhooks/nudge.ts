import type { WebhookResult } from '../ops/metrics.ts';

/**
 * Webhook deliveries in a process of their own (WORKERS > 1 on the embedded file): the workers
 * queue events in their rounds' units and tell the delivering process (the primary) that
 * something was queued; it drains the outbox. What crosses is a word, not the events: the
 * delivering process reads them from the file, as a single process does after its own commit.
 */

/** The message a worker sends the primary over the cluster's IPC channel. */
export const DELIVERY_NUDGE = { raspa: 'webhook-events-queued' } as const;

/** Whether a cluster message is a worker's nudge (the Socket.IO adapter's own messages are not). */
export function isDeliveryNudge(message: unknown): boolean {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { raspa?: unknown }).raspa === DELIVERY_NUDGE.raspa
  );
}

/**
 * A nudge that sends at most one message per turn of the event loop: a group commit answers many
 * units in one turn and each queues an event, and one word is enough for the drain to read them all.
 * `defer` is when the turn ends (setImmediate; tests pass their own).
 */
export function coalescedNudge(
  send: () => void,
  defer: (callback: () => void) => void = (callback) => void setImmediate(callback),
): () => void {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    defer(() => {
      pending = false;
      send();
    });
  };
}

/** An attempt as the metrics count it: its result and, once delivered, its lag in seconds. */
export type SettledAttempt = [result: WebhookResult, lagSeconds: number | null];

/**
 * The primary's attempts, sent to a worker to count: the primary serves no /metrics, and a worker
 * counts them as it counts its own rounds (each process's counters are its own).
 */
export interface SettledReport {
  raspa: 'webhook-attempts-settled';
  attempts: SettledAttempt[];
}

export function isSettledReport(message: unknown): message is SettledReport {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { raspa?: unknown }).raspa === 'webhook-attempts-settled' &&
    Array.isArray((message as { attempts?: unknown }).attempts)
  );
}

/**
 * A `webhookAttempt` that collects the attempts of one turn of the event loop and sends them in
 * one report (a batch of answers settles in one turn).
 */
export function batchedReports(
  send: (report: SettledReport) => void,
  defer: (callback: () => void) => void = (callback) => void setImmediate(callback),
): (result: WebhookResult, lagSeconds?: number) => void {
  let attempts: SettledAttempt[] = [];
  const flush = coalescedNudge(() => {
    const report: SettledReport = { raspa: 'webhook-attempts-settled', attempts };
    attempts = [];
    send(report);
  }, defer);
  return (result, lagSeconds) => {
    attempts.push([result, lagSeconds ?? null]);
    flush();
  };
}
