import type { OutboxHead } from '../store/records.ts';

/**
 * Which webhooks the dispatcher starts sending to in a pass, and how long it may sleep before the
 * next pass. A webhook is served by one drain at a time; one that broke is paused a while. Rules
 * only: the dispatcher reads the heads, the clocks and its own state.
 */

export interface Serving {
  /** Webhooks with a drain under way. */
  busy: Pick<ReadonlySet<string>, 'has'>;
  /** Drains that may still start (concurrency minus those under way). */
  room: number;
}

/**
 * The webhooks to start a drain for, in head order: their oldest queued event is due at `now`
 * (ISO, compared as the store writes it), they have no drain under way and are not paused.
 */
export function dueWebhooks(
  heads: readonly OutboxHead[],
  now: string,
  serving: Serving & { paused: Pick<ReadonlySet<string>, 'has'> },
): string[] {
  const start: string[] = [];
  for (const { webhookId, nextAttemptAt } of heads) {
    if (start.length >= serving.room) break;
    if (nextAttemptAt > now || serving.busy.has(webhookId) || serving.paused.has(webhookId)) continue;
    if (!start.includes(webhookId)) start.push(webhookId);
  }
  return start;
}

/**
 * Milliseconds until the next pass (never below 0): when the next waiting head is due, or a paused
 * webhook's pause ends, and at most `pollMs` (so a moved clock or an event queued by another
 * process is noticed). With no room, only `pollMs`: each drain that ends starts a pass anyway.
 * `now`: the injected clock (ms), which `nextAttemptAt` is on; `pauseLeft`: webhookId → real
 * milliseconds left of its pause, for paused webhooks only.
 */
export function nextPassIn(
  heads: readonly OutboxHead[],
  now: number,
  serving: Serving & { pauseLeft: ReadonlyMap<string, number>; pollMs: number },
): number {
  let delay = serving.pollMs;
  if (serving.room > 0) {
    for (const { webhookId, nextAttemptAt } of heads) {
      if (serving.busy.has(webhookId)) continue;
      const wait = serving.pauseLeft.get(webhookId) ?? Date.parse(nextAttemptAt) - now;
      delay = Math.min(delay, wait);
    }
  }
  return Math.max(0, delay);
}
