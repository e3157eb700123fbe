import type { DeliveredAttempt } from './records.ts';

/**
 * A batch of successful attempts per webhook: how many, and the latest timestamp (its
 * lastTriggered), so both adapters bump each webhook's counters once per batch.
 */
export function perWebhook(
  attempts: readonly DeliveredAttempt[],
): Map<string, { count: number; latest: string }> {
  const tally = new Map<string, { count: number; latest: string }>();
  for (const { webhookId, timestamp } of attempts) {
    const seen = tally.get(webhookId) ?? { count: 0, latest: timestamp };
    // ISO timestamps compare as strings; Math.max would not take them.
    // biome-ignore lint/complexity/useMathMinMax: strings, not numbers
    const latest = seen.latest < timestamp ? timestamp : seen.latest;
    tally.set(webhookId, { count: seen.count + 1, latest });
  }
  return tally;
}
