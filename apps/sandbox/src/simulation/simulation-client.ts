import type { Ladder, PlayerResults, PoolSimulationState } from '@raspa/core';
import type { WorkerReply, WorkerRequest } from './messages.ts';

/** The sandbox plays at most this many tickets of a pool (the first ones, in the pool's order). */
export const MAX_SIMULATED_TICKETS = 10_000_000;
/** Tickets per step: small enough for a smooth progress bar and a prompt cancel. */
const POOL_CHUNK = 250_000;

export interface PoolRun {
  /** The final state, or null when cancelled. */
  readonly finished: Promise<{ state: PoolSimulationState; elapsedMs: number } | null>;
  cancel(): void;
}

/** One Web Worker running the core's simulations; answers are matched to requests by id. */
export class SimulationClient {
  private readonly worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  private readonly waiting = new Map<number, (reply: WorkerReply) => void>();
  private nextId = 1;

  constructor() {
    this.worker.addEventListener('message', (event: MessageEvent<WorkerReply>) => {
      this.waiting.get(event.data.id)?.(event.data);
    });
  }

  playPool(
    ladder: Ladder,
    seed: Uint8Array,
    tickets: number,
    onProgress: (state: PoolSimulationState, elapsedMs: number) => void,
  ): PoolRun {
    const id = this.nextId++;
    const finished = new Promise<{ state: PoolSimulationState; elapsedMs: number } | null>(
      (resolve, reject) => {
        this.waiting.set(id, (reply) => {
          if (reply.type === 'progress') {
            onProgress(reply.state, reply.elapsedMs);
            return;
          }
          this.waiting.delete(id);
          if (reply.type === 'pool-done') resolve({ state: reply.state, elapsedMs: reply.elapsedMs });
          else if (reply.type === 'cancelled') resolve(null);
          else if (reply.type === 'failed') reject(new Error(reply.message));
        });
      },
    );
    this.send({ type: 'pool', id, ladder, seed, tickets, chunk: POOL_CHUNK });
    return { finished, cancel: () => this.send({ type: 'cancel', id }) };
  }

  playerResults(
    ladder: Ladder,
    cards: number,
    trials: number,
    seed: number,
  ): Promise<{ results: PlayerResults; elapsedMs: number }> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (reply) => {
        this.waiting.delete(id);
        if (reply.type === 'players-done') resolve({ results: reply.results, elapsedMs: reply.elapsedMs });
        else if (reply.type === 'failed') reject(new Error(reply.message));
      });
      this.send({ type: 'players', id, ladder, cards, trials, seed });
    });
  }

  terminate(): void {
    this.worker.terminate();
    this.waiting.clear();
  }

  private send(request: WorkerRequest): void {
    this.worker.postMessage(request);
  }
}
