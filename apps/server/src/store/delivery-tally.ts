import type { QueuedAttempt } from './records.ts';

/** What one batch adds to a webhook's counters. */
export interface WebhookTally {
  success: number;
  failure: number;
  /** The latest attempt's timestamp: its lastTriggered. */
  latest: string;
  /** The webhook's first event in the batch (PostgreSQL counts in that event's slot). */
  firstEvent: string;
}

/** A batch of attempts per webhook, so both adapters bump each webhook's counters once per batch. */
export function perWebhook(attempts: readonly QueuedAttempt[]): Map<string, WebhookTally> {
  const tally = new Map<string, WebhookTally>();
  for (const { webhookId, timestamp, success, eventId } of attempts) {
    const seen = tally.get(webhookId) ?? { success: 0, failure: 0, latest: timestamp, firstEvent: eventId };
    tally.set(webhookId, {
      ...seen,
      success: seen.success + (success ? 1 : 0),
      failure: seen.failure + (success ? 0 : 1),
      // ISO timestamps compare as strings; Math.max would not take them.
      // biome-ignore lint/complexity/useMathMinMax: strings, not numbers
      latest: seen.latest < timestamp ? timestamp : seen.latest,
    });
  }
  return tally;
}
