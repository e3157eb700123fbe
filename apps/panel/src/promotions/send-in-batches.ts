import { inBatches } from './player-ids.ts';

/** How far a list sent in several calls got: every id, or the ids before the call that failed, and its error. */
export type BatchOutcome = { sent: number; error?: undefined } | { sent: number; error: unknown };

/**
 * Sends a list in calls of at most `size` items, one after the other (the service takes 10,000 players
 * per call), saying after each how many are sent. Stops at the first call that fails: the calls before
 * it stay done, and the outcome says how many items they carried.
 */
export async function sendInBatches<T>(
  items: readonly T[],
  size: number,
  send: (batch: T[], index: number) => Promise<unknown>,
  progress: (sent: number, total: number) => void = () => {},
): Promise<BatchOutcome> {
  let sent = 0;
  progress(0, items.length);
  for (const [index, batch] of inBatches(items, size).entries()) {
    try {
      await send(batch, index);
    } catch (error) {
      return { sent, error };
    }
    sent += batch.length;
    progress(sent, items.length);
  }
  return { sent };
}
