import type { StoreHealth } from '../store/records.ts';

export interface Readiness {
  /** Whether this instance can serve now: started, not shutting down, its database answering. */
  check(): Promise<StoreHealth>;
  /** The start-up work after listening (main.ts: the first start's demo client) is done. */
  started(): void;
  /** SIGTERM: from now on /ready answers 503, so a load balancer stops sending work here. */
  stopping(): void;
}

export function createReadiness(
  storeHealth: () => Promise<StoreHealth>,
  options: { starting?: boolean } = {},
): Readiness {
  let state: 'starting' | 'serving' | 'stopping' = options.starting ? 'starting' : 'serving';
  return {
    async check() {
      if (state === 'starting') return { ok: false, reason: 'the instance is starting' };
      if (state === 'stopping') return { ok: false, reason: 'the instance is shutting down' };
      try {
        return await storeHealth();
      } catch (error) {
        return { ok: false, reason: `the database does not answer: ${String(error)}` };
      }
    },
    started() {
      if (state === 'starting') state = 'serving';
    },
    stopping() {
      state = 'stopping';
    },
  };
}
