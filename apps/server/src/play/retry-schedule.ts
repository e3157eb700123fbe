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
