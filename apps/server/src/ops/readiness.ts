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
      if (state === 'stopping') return { ok: false, reason: 'the instance is shutting down' };
      let health: StoreHealth;
      try {
        health = await storeHealth();
      } catch (error) {
        health = { ok: false, reason: `the database does not answer: ${String(error)}` };
      }
      // While starting, what the database says comes first (migrations running, a wait for older
      // instances to stop: docs/operating.md, "Upgrading"), as it says why the start takes long.
      if (state === 'starting' && health.ok) return { ok: false, reason: 'the instance is starting' };
      return health;
    },
    started() {
      if (state === 'starting') state = 'serving';
    },
    stopping() {
      state = 'stopping';
    },
  };
}
