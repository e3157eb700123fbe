import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { runCallbacks } from '../run-callbacks.ts';
import { BUSY_TIMEOUT_MS, type Db } from './database.ts';
import type { CallRunner } from './sync.ts';

/** What a unit's work may ask of the unit itself. */
export interface UnitControl {
  /** Runs `callback` once the unit is committed (never if it rolls back). */
  afterCommit(callback: () => void): void;
}

interface Unit {
  work: (control: UnitControl) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The unit an async context runs in: its batch (a context may outlive it) and its callbacks. */
interface UnitScope {
  batch: object;
  committed: Array<() => void>;
  /** Settled once the nested units started so far in this unit have ended (see `nested`). */
  nestedDone?: Promise<unknown>;
}

export interface GroupCommit {
  /** Runs `work` as one unit of the next batch, or nested in the current unit: see Store.transaction. */
  unit<T>(work: (control: UnitControl) => Promise<T>): Promise<T>;
  /** Runs a call made outside every unit: once no batch holds the connection's transaction. */
  outside: CallRunner;
  /** Whether the caller runs inside a unit (a unit it starts would nest in it). */
  readonly inUnit: boolean;
}

const isBusy = (error: unknown) => (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY';

/**
 * Opens the batch's transaction. BEGIN IMMEDIATE takes the write lock; when another process holds
 * it (another worker on the same file, the admin command), SQLite's busy handler would sleep on
 * this thread, stalling every socket of this process. So it is tried without waiting and retried
 * after short timers, the event loop free meanwhile, up to BUSY_TIMEOUT_MS; then SQLITE_BUSY is
 * thrown as before. A read-only connection cannot take the lock; its BEGIN still reads one snapshot.
 */
async function begin(db: Db): Promise<void> {
  if (db.readonly) {
    db.exec('BEGIN');
    return;
  }
  const deadline = performance.now() + BUSY_TIMEOUT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, 16)) {
    db.pragma('busy_timeout = 0');
    try {
      db.exec('BEGIN IMMEDIATE');
      return;
    } catch (error) {
      if (!isBusy(error) || performance.now() > deadline) throw error;
    } finally {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

const controlOf = (scope: UnitScope): UnitControl => ({
  afterCommit: (callback) => void scope.committed.push(callback),
});

/**
 * Group commit: units queued in one turn of the event loop run in one BEGIN IMMEDIATE transaction,
 * each inside its own savepoint, and are answered after the single commit. A durable commit
 * (synchronous=FULL) costs milliseconds of fsync; this spends it once per batch instead of once
 * per unit, without weakening durability: nobody hears "done" before the data is on disk.
 *
 * The units are async (the Store interface is), but every call they make on this adapter answers
 * at once, so a batch holds the one connection only for a few microtask turns. Calls from outside
 * the batch wait for it to end rather than land inside its transaction or read what it has not
 * committed; calls from inside (known by the async context) run at once.
 */
export function createGroupCommit(db: Db): GroupCommit {
  const scopeOfContext = new AsyncLocalStorage<UnitScope>();
  let queue: Unit[] = [];
  let scheduled = false;
  /** The batch holding the connection's transaction, and a promise settled when it ends. */
  let running: { batch: object; done: Promise<void> } | undefined;
  const currentScope = () => {
    const scope = scopeOfContext.getStore();
    return running && scope?.batch === running.batch ? scope : undefined;
  };

  async function flush(): Promise<void> {
    let began: unknown;
    try {
      await begin(db);
    } catch (error) {
      began = error;
    }
    // Units queued while the lock was awaited join this batch.
    scheduled = false;
    const units = queue;
    queue = [];
    if (began !== undefined) {
      for (const unit of units) unit.reject(began);
      return;
    }
    const batch = {};
    let free = () => {};
    running = { batch, done: new Promise((resolve) => (free = resolve)) };
    const outcomes: Array<
      { ok: true; value: unknown; committed: Array<() => void> } | { ok: false; error: unknown }
    > = [];
    try {
      for (const unit of units) {
        const scope: UnitScope = { batch, committed: [] };
        db.exec('SAVEPOINT unit');
        try {
          const value = await scopeOfContext.run(scope, () => unit.work(controlOf(scope)));
          db.exec('RELEASE unit');
          outcomes.push({ ok: true, value, committed: scope.committed });
        } catch (error) {
          db.exec('ROLLBACK TO unit');
          db.exec('RELEASE unit');
          outcomes.push({ ok: false, error });
        }
      }
      db.exec('COMMIT');
    } catch (error) {
      // The transaction could not commit: nothing of the batch is on disk.
      if (db.open && db.inTransaction) db.exec('ROLLBACK');
      for (const unit of units) unit.reject(error);
      return;
    } finally {
      running = undefined;
      free();
    }
    for (const [i, unit] of units.entries()) {
      const outcome = outcomes[i];
      if (!outcome?.ok) {
        unit.reject(outcome?.error);
        continue;
      }
      runCallbacks(outcome.committed);
      unit.resolve(outcome.value);
    }
  }

  /**
   * A unit inside a unit: its own savepoint; its callbacks join the outer unit's if it commits.
   * Savepoints are a stack, so nested units of one unit run one after another: two interleaved
   * ones would roll back or release each other's savepoint.
   */
  function nested<T>(outer: UnitScope, work: (control: UnitControl) => Promise<T>): Promise<T> {
    const run = (outer.nestedDone ?? Promise.resolve()).then(() => savepoint(outer, work));
    outer.nestedDone = run.catch(() => {});
    return run;
  }

  async function savepoint<T>(outer: UnitScope, work: (control: UnitControl) => Promise<T>): Promise<T> {
    const scope: UnitScope = { batch: outer.batch, committed: [] };
    db.exec('SAVEPOINT nested');
    try {
      const value = await scopeOfContext.run(scope, () => work(controlOf(scope)));
      db.exec('RELEASE nested');
      outer.committed.push(...scope.committed);
      return value;
    } catch (error) {
      db.exec('ROLLBACK TO nested');
      db.exec('RELEASE nested');
      throw error;
    }
  }

  return {
    unit<T>(work: (control: UnitControl) => Promise<T>): Promise<T> {
      const outer = currentScope();
      if (outer) return nested(outer, work);
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => void flush());
        }
      });
    },
    async outside<T>(call: () => T): Promise<T> {
      while (running && !currentScope()) await running.done;
      return call();
    },
    get inUnit() {
      return currentScope() !== undefined;
    },
  };
}
