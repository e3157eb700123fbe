import type { StoreHealth } from '../store/ops-repo.ts';

export interface Readiness {
  /** Whether this instance can serve now: not shutting down and its database answering. */
  check(): StoreHealth;
  /** SIGTERM: from now on /ready answers 503, so a load balancer stops sending work here. */
  stopping(): void;
}

export function createReadiness(storeHealth: () => StoreHealth): Readiness {
  let stopping = false;
  return {
    check: () => (stopping ? { ok: false, reason: 'the instance is shutting down' } : storeHealth()),
    stopping: () => {
      stopping = true;
    },
  };
}
