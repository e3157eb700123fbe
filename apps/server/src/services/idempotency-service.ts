import type { Deps } from '../deps.ts';

/** How long a key holds its answer (Stripe's 24 h), from the moment it was first used. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

export type IdempotencyBegin =
  /** The key was free (or expired): it is now claimed by this request, which runs. */
  | { kind: 'execute' }
  /** The first request with the key finished: answer with what it answered. */
  | { kind: 'replay'; status: number; body: string }
  /** The key belongs to a request with another method, path or body. */
  | { kind: 'mismatch' }
  /** The first request with the key has not finished (or was cut off by a crash). */
  | { kind: 'in-progress' };

/**
 * Idempotency keys of the API's writes (docs/api.md "Retrying safely: Idempotency-Key"), scoped to the
 * API client. Each step is its own committed transaction, in this order: claim, then the handler's
 * own writes (committed inside the services before the handler returns), then the answer. So a
 * stored answer always describes writes that committed; a crash between the last two leaves the
 * claim in progress, which answers 409 until it expires and is never replayed nor run again (we
 * cannot tell whether the handler's writes committed, and running them twice is the worse error).
 */
export function createIdempotencyService(deps: Pick<Deps, 'store' | 'clock'>) {
  const { store, clock } = deps;
  return {
    begin(clientId: string, key: string, fingerprint: string): Promise<IdempotencyBegin> {
      const now = clock();
      return store.transaction(async (tx): Promise<IdempotencyBegin> => {
        // Expired keys go first, so an expired one is free again and the table stays a day deep.
        await tx.idempotency.deleteExpired(now.toISOString());
        const claimed = await tx.idempotency.insertClaim({
          clientId,
          key,
          fingerprint,
          createdAt: now.toISOString(),
          expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS).toISOString(),
        });
        if (claimed) return { kind: 'execute' };
        const held = await tx.idempotency.find(clientId, key);
        if (!held) throw new Error('idempotency key vanished inside its transaction');
        if (held.fingerprint !== fingerprint) return { kind: 'mismatch' };
        if (held.state === 'in_progress' || held.responseStatus === null || held.responseBody === null) {
          return { kind: 'in-progress' };
        }
        return { kind: 'replay', status: held.responseStatus, body: held.responseBody };
      });
    },
    /** Stores the answer of a claimed key, once the handler's writes have committed. */
    async complete(clientId: string, key: string, status: number, body: string): Promise<void> {
      const completedAt = clock().toISOString();
      await store.transaction((tx) => tx.idempotency.complete(clientId, key, { status, body, completedAt }));
    },
    /** Frees a claimed key whose request ended without an answer to keep (a 5xx: nothing committed). */
    async release(clientId: string, key: string): Promise<void> {
      await store.transaction((tx) => tx.idempotency.release(clientId, key));
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
