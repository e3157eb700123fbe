/**
 * How answered attempts are written (docs/store.md, "Deliveries in batches"): one write at a time,
 * and each takes what has been answered since the last one began. Successes in a row go together,
 * as one unit of multi-row statements, so a busy webhook costs a few statements per batch rather
 * than per event; a failure goes alone, after the successes answered before it, because its retry
 * rule reads the log (when did the webhook's current run of failures start?). A rule only:
 * attempt.ts keeps the queue and does the writing.
 */

/** The most successes one unit writes: keeps a multi-row statement's parameters well in bounds. */
export const MAX_BATCH = 256;

/** How many of the waiting answers (oldest first) the next write takes; 0 when none wait. */
export function nextBatch(waiting: readonly { success: boolean }[], max = MAX_BATCH): number {
  if (waiting.length === 0) return 0;
  if (!waiting[0]?.success) return 1;
  const firstFailure = waiting.findIndex((answer) => !answer.success);
  return Math.min(firstFailure === -1 ? waiting.length : firstFailure, max);
}
