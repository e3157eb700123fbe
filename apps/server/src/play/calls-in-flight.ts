/**
 * The wallet calls this process is sending right now, by transactionId: the one place that keeps
 * two senders here (a buy or a reveal, and the retrier) from sending the same call at once, even
 * when a call outlives its in-flight time (`nextAttemptAt`) and comes due while still being sent.
 * In memory, so it coordinates this process only.
 */
export interface CallsInFlight {
  /** Whether this process is sending the call now. */
  isSending(transactionId: string): boolean;
  /**
   * Runs `send` while holding the call; resolves `undefined` without running it when the call is
   * already being sent here.
   */
  sending<T>(transactionId: string, send: () => Promise<T>): Promise<T | undefined>;
}

export function createCallsInFlight(): CallsInFlight {
  const busy = new Set<string>();
  return {
    isSending: (transactionId) => busy.has(transactionId),
    async sending(transactionId, send) {
      if (busy.has(transactionId)) return undefined;
      busy.add(transactionId);
      try {
        return await send();
      } finally {
        busy.delete(transactionId);
      }
    },
  };
}
