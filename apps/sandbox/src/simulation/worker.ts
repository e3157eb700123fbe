// The simulation worker: plays pools and simulates players off the page's thread, with the core's
// own functions. A pool is played in chunks; between chunks the worker yields so a cancel gets in.
import { playerResults, seededRng, startPoolSimulation } from '@raspa/core';
import type { WorkerReply, WorkerRequest } from './messages.ts';

const cancelled = new Set<number>();
const reply = (message: WorkerReply) => self.postMessage(message);
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

self.addEventListener('message', (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  try {
    if (request.type === 'cancel') cancelled.add(request.id);
    else if (request.type === 'pool') void playPool(request);
    else if (request.type === 'players') {
      const started = performance.now();
      const results = playerResults(request.ladder, request.cards, request.trials, seededRng(request.seed));
      reply({ type: 'players-done', id: request.id, results, elapsedMs: performance.now() - started });
    }
  } catch (error) {
    reply({ type: 'failed', id: request.id, message: (error as Error).message });
  }
});

async function playPool(request: Extract<WorkerRequest, { type: 'pool' }>): Promise<void> {
  const { id } = request;
  try {
    const started = performance.now();
    const run = startPoolSimulation(request.ladder, request.seed, { tickets: request.tickets });
    while (!run.done) {
      await nextTask();
      if (cancelled.delete(id)) {
        reply({ type: 'cancelled', id });
        return;
      }
      const state = run.step(request.chunk);
      const elapsedMs = performance.now() - started;
      reply(
        state.done ? { type: 'pool-done', id, state, elapsedMs } : { type: 'progress', id, state, elapsedMs },
      );
    }
  } catch (error) {
    reply({ type: 'failed', id, message: (error as Error).message });
  }
}
