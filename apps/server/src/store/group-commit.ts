import type { Db } from './database.ts';
import { immediate } from './database.ts';

interface Unit {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: units queued in one turn of the event loop run in one BEGIN IMMEDIATE transaction,
 * each inside its own savepoint (better-sqlite3 nests transactions that way), and are answered
 * after the single commit. A durable commit (synchronous=FULL) costs milliseconds of fsync; this
 * spends it once per batch instead of once per unit, without weakening durability: nobody hears
 * "done" before the data is on disk.
 */
export function createGroupCommit(db: Db) {
  let queue: Unit[] = [];
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    const units = queue;
    queue = [];
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      immediate(db, () => {
        for (const unit of units) {
          try {
            outcomes.push({ ok: true, value: db.transaction(unit.work)() });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // The commit itself failed: nothing of the batch is on disk.
      for (const unit of units) unit.reject(error);
      return;
    }
    units.forEach((unit, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) unit.resolve(outcome.value);
      else unit.reject(outcome?.error);
    });
  }

  return function batch<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
  };
}
