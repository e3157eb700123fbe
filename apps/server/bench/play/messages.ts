import type { Latency } from '../kit/stats.ts';

/**
 * What the play benches' child processes answer over IPC (kit/child.ts `ask`): one type for the
 * side that answers and the side that asks.
 */

/** players-process `run`: the players' loop over a stretch of seconds. */
export interface RunResult {
  elapsed: number;
  rounds: number;
  buys: number;
  buyMs: Latency;
  revealMs: Latency;
  errors: number;
  errorSamples: unknown[];
}

/** operator-process `counts`: the wallet's calls and the webhook events received so far. */
export interface OperatorCounts {
  walletCalls: number;
  events: number;
  /** Webhook requests (a batch is one for several events). */
  hookRequests: number;
  distinctEvents: number;
}
