/**
 * When to try a wallet call again after an attempt without a definite answer: quickly at first,
 * then every 10 minutes. Prizes keep trying for at least `prizeGiveUpMs` (24 h) before the round is
 * flagged for reconciliation (docs/contract.md §6); rollbacks never give up.
 */
export interface WalletRetryPolicy {
  delaysMs: readonly number[];
  prizeGiveUpMs: number;
  /** An in-flight call is left alone this long before the retrier may take it over. */
  inFlightMs: number;
}

export const DEFAULT_WALLET_RETRY: WalletRetryPolicy = {
  delaysMs: [1_000, 5_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000],
  prizeGiveUpMs: 24 * 3600 * 1000,
  inFlightMs: 30_000,
};

export function retryDelay(policy: WalletRetryPolicy, attempts: number): number {
  const { delaysMs } = policy;
  return delaysMs[Math.min(Math.max(attempts - 1, 0), delaysMs.length - 1)] ?? 600_000;
}

/** `ms` after the ISO time `at`, as an ISO time. */
export function isoAfter(at: string, ms: number): string {
  return new Date(Date.parse(at) + ms).toISOString();
}

/** Until when a call just sent is left to its sender: past it, the retrier may take it over. */
export function inFlightUntil(policy: WalletRetryPolicy, now: string): string {
  return isoAfter(now, policy.inFlightMs);
}

/** When a call that got no definite answer on its `attempts`-th attempt is tried again. */
export function nextAttemptAt(policy: WalletRetryPolicy, attempts: number, now: string): string {
  return isoAfter(now, retryDelay(policy, attempts));
}

/**
 * Whether a prize that just failed again is given up (its round then flagged for reconciliation):
 * once it has been tried for `prizeGiveUpMs` since it was committed. Bets are never retried (they
 * are rolled back) and rollbacks never give up.
 */
export function prizeGivesUp(policy: WalletRetryPolicy, prize: { createdAt: string }, now: string): boolean {
  return Date.parse(now) - Date.parse(prize.createdAt) >= policy.prizeGiveUpMs;
}
