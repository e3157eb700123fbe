import type { Ladder, PlayerResults, PoolSimulationState } from '@raspa/core';

/** What the page asks the simulation worker. */
export type WorkerRequest =
  | { type: 'pool'; id: number; ladder: Ladder; seed: Uint8Array; tickets: number; chunk: number }
  | { type: 'cancel'; id: number }
  | { type: 'players'; id: number; ladder: Ladder; cards: number; trials: number; seed: number };

/** What the worker answers; `id` ties each answer to its request. */
export type WorkerReply =
  | { type: 'progress'; id: number; state: PoolSimulationState; elapsedMs: number }
  | { type: 'pool-done'; id: number; state: PoolSimulationState; elapsedMs: number }
  | { type: 'cancelled'; id: number }
  | { type: 'players-done'; id: number; results: PlayerResults; elapsedMs: number }
  | { type: 'failed'; id: number; message: string };
