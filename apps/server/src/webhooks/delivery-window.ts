/**
 * How many of a webhook's events a drain keeps in flight once its receiver has answered a 2xx.
 *
 * The window starts at `STARTING_WINDOW` and doubles for each `STEP_MS` the queue's head is late
 * (due and not yet sent), up to `cap` (WEBHOOK_IN_FLIGHT). On a busy machine the deliveries share
 * one event loop with the rounds, and their share follows the work each side has pending: 100
 * players flat out left a 32-event window delivering under half of the events (5.2 s of lag after
 * 10 s), where 256 kept pace (issue 34 item 5, docs/benchmarks.md). A window that widens only when
 * late keeps the receiver's connections few while it keeps up, and gives the deliveries their share
 * when it does not. Rules only; the drain measures how late its head is.
 */

/** The window of a drain that keeps up (WEBHOOK_IN_FLIGHT's default before it became the cap). */
export const STARTING_WINDOW = 32;
/** Each step of lateness doubles the window: 32 → 64 → 128 → 256 over 0.75 s. */
export const STEP_MS = 250;

/** `cap` ≥ 1; `lateMs`: how long the oldest due event has waited (0 or less: on time). */
export function deliveryWindow(input: { cap: number; lateMs: number }): number {
  const steps = Math.floor(Math.max(0, input.lateMs) / STEP_MS);
  // 2 ** 16 × 32 passes any cap a setting allows (256), without overflowing on a huge lateness.
  return Math.min(input.cap, STARTING_WINDOW * 2 ** Math.min(steps, 16));
}

/** How late the oldest of `events` is at `now` (ms since the epoch); 0 with none. */
export function headLateness(events: readonly { nextAttemptAt: string }[], now: number): number {
  let oldest = Number.POSITIVE_INFINITY;
  for (const event of events) oldest = Math.min(oldest, Date.parse(event.nextAttemptAt));
  return Number.isFinite(oldest) ? Math.max(0, now - oldest) : 0;
}
