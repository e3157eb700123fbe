import { AsyncLocalStorage } from 'node:async_hooks';
import { isoNow } from '../clock.ts';
import type { Deps } from '../deps.ts';
import type { AuditRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

/**
 * The audit entry of a write that is running (docs/contract.md §11): who, which operation, from
 * where, and the record it names in its path (null when it creates one: the id comes from the
 * unit it writes, see idOf).
 */
export interface PendingAudit {
  clientId: string;
  actor: AuditRecord['actor'];
  operation: string;
  ip: string;
  targetId: string | null;
}

interface Scope {
  entry: PendingAudit;
  /** A store unit carries the entry (set before the unit runs; cleared if it fails). */
  claimed: boolean;
  /** The entry was committed with its unit. */
  written: boolean;
  /** The write is over: units started later (a timer it set) carry nothing. */
  open: boolean;
}

/**
 * The id of the record a unit created, from what it returned: its `id` (`{id, …}`), else the `id`
 * of the first record it returned beside other things (`{game: {id}, ladder}`, `{player, userToken}`).
 */
export function idOf(result: unknown): string | null {
  const own = (value: unknown) => {
    const id = (value as { id?: unknown } | null)?.id;
    return typeof id === 'string' && id !== '' ? id : null;
  };
  if (result === null || typeof result !== 'object') return null;
  return (
    own(result) ??
    Object.values(result)
      .map(own)
      .find((id) => id !== null) ??
    null
  );
}

/** An audit row from an entry, stamped now. */
export function auditRow(deps: Pick<Deps, 'newId' | 'clock'>, entry: PendingAudit): AuditRecord {
  return {
    id: deps.newId(),
    clientId: entry.clientId,
    actor: entry.actor,
    operation: entry.operation,
    targetId: entry.targetId,
    ip: entry.ip,
    at: isoNow(deps),
  };
}

/**
 * Writes a request's audit entry in the same store transaction as the write it records. The HTTP
 * layer runs each authenticated write's handler inside `run(entry, …)`; the services get a store
 * from `store(…)` whose first unit started during that handler also inserts the entry, so the
 * write and its record commit together or not at all (a unit that fails takes its entry down with
 * it, and the next unit of the same write carries it instead). `run` answers whether a unit
 * carried it: a write that succeeded through no unit at all (a single-statement write, or none)
 * is recorded by the caller right after, as a row of its own.
 *
 * Scoped with AsyncLocalStorage so that no service signature has to carry the entry; the scope
 * closes when the handler returns, so work it left behind (a timer, a nudge) records nothing.
 */
export function createAuditScope(deps: Pick<Deps, 'newId' | 'clock'>) {
  const current = new AsyncLocalStorage<Scope>();

  return {
    /** Runs a write's handler with its audit entry pending; `written`: a unit committed it. */
    async run<T>(entry: PendingAudit, handler: () => Promise<T>): Promise<{ result: T; written: boolean }> {
      const scope: Scope = { entry, claimed: false, written: false, open: true };
      try {
        const result = await current.run(scope, handler);
        return { result, written: scope.written };
      } finally {
        scope.open = false;
      }
    },

    /** `store` whose units carry the pending audit entry of the write they run for. */
    store(store: Store): Store {
      const audited: Store = Object.create(store);
      audited.transaction = async (work) => {
        const scope = current.getStore();
        if (!scope?.open || scope.claimed) return store.transaction(work);
        scope.claimed = true;
        try {
          const result = await store.transaction(async (tx) => {
            const done = await work(tx);
            const { entry } = scope;
            await tx.audit.insert(auditRow(deps, { ...entry, targetId: entry.targetId ?? idOf(done) }));
            return done;
          });
          scope.written = true;
          return result;
        } catch (error) {
          scope.claimed = false;
          throw error;
        }
      };
      return audited;
    },
  };
}

export type AuditScope = ReturnType<typeof createAuditScope>;
