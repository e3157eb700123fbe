import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { runCallbacks } from '../run-callbacks.ts';
import type { UnitOptions } from '../store.ts';
import { run, type Sql } from './sql.ts';

/** What a unit's work may ask of the unit itself. */
export interface UnitControl {
  afterCommit(callback: () => void): void;
}

/** One open unit (a transaction, or a savepoint inside one) and what runs once it commits. */
interface UnitScope {
  client: pg.PoolClient;
  committed: Array<() => void>;
  /** Settled once the nested units started so far in this unit have ended. */
  nestedDone?: Promise<unknown>;
  /** Ended: a call still carrying this async context goes to the pool. */
  ended: boolean;
}

export interface Units {
  /** Runs `work` as a unit, or nested in the current unit (a savepoint): see Store.transaction. */
  unit<T>(work: (sql: Sql, control: UnitControl) => Promise<T>, options?: UnitOptions): Promise<T>;
  /**
   * The statements of a call made on the Store: in the current unit if there is one (its async
   * context), else each on the pool. The repositories of every unit are built over it once.
   */
  outside: Sql;
}

/** Serialization failure and deadlock: the unit's work is run again from the start. */
const RETRIED = new Set(['40001', '40P01']);
/**
 * A unique violation in a `rowLocks` unit: another unit inserted the same key (a player's second
 * live round, a pool's next number) after this one looked. Run again, the unit's reads see that
 * row and decide as they would have one after the other; a key that is taken for good fails on
 * the second run.
 */
const UNIQUE_VIOLATION = '23505';
const UNIQUE_RERUNS = 1;
/**
 * A bound, so a unit that keeps colliding fails instead of spinning: retried units run one at a
 * time (see `oneAtATime`), so a retry collides only with the first attempts still arriving.
 */
export const MAX_ATTEMPTS = 30;

const codeOf = (error: unknown) =>
  typeof error === 'object' && error !== null ? ((error as { code?: string }).code ?? '') : '';

/** A short random wait before running a unit again, so units that collided do not collide again. */
const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 ** attempt, 50)));

/**
 * Units as real PostgreSQL transactions at SERIALIZABLE: concurrent units behave as if they ran
 * one after another, whatever they read before they write. `rowLocks` units run at READ
 * COMMITTED instead: they decide on rows their repositories lock (sql.ts `inUnit`), so they wait
 * rather than abort. A unit PostgreSQL aborts (serialization failure, deadlock) is rolled back
 * and its work run again, up to MAX_ATTEMPTS times; the afterCommit callbacks of an attempt
 * that rolled back are dropped, so each runs once, after the commit that counts. Nested units
 * are savepoints of the unit's connection, run one after another (savepoints are a stack), at
 * their outer unit's level.
 */
export function createUnits(pool: pg.Pool, ready: () => Promise<void>): Units {
  const scopeOfContext = new AsyncLocalStorage<UnitScope>();
  const current = () => {
    const scope = scopeOfContext.getStore();
    return scope && !scope.ended ? scope : undefined;
  };

  const onClient = (scope: UnitScope): Sql => {
    const sql: Sql = {
      query: (text, values) => run(scope.client, text, values),
      atomic: (work) => work(sql),
      inUnit: true,
    };
    return sql;
  };

  const outside: Sql = {
    query: async (text, values) => {
      const scope = current();
      if (scope) return run(scope.client, text, values);
      await ready();
      return run(pool, text, values);
    },
    atomic: (work) => {
      const scope = current();
      if (scope) return work(onClient(scope));
      return unit((sql) => work(sql));
    },
    get inUnit() {
      return current() !== undefined;
    },
  };

  async function savepoint<T>(
    outer: UnitScope,
    work: (sql: Sql, control: UnitControl) => Promise<T>,
  ): Promise<T> {
    const scope: UnitScope = { client: outer.client, committed: [], ended: false };
    await outer.client.query('SAVEPOINT nested');
    try {
      const value = await scopeOfContext.run(scope, () =>
        work(onClient(scope), { afterCommit: (callback) => void scope.committed.push(callback) }),
      );
      await outer.client.query('RELEASE SAVEPOINT nested');
      outer.committed.push(...scope.committed);
      return value;
    } catch (error) {
      await outer.client.query('ROLLBACK TO SAVEPOINT nested');
      await outer.client.query('RELEASE SAVEPOINT nested');
      throw error;
    } finally {
      scope.ended = true;
    }
  }

  function nested<T>(outer: UnitScope, work: (sql: Sql, control: UnitControl) => Promise<T>): Promise<T> {
    const started = (outer.nestedDone ?? Promise.resolve()).then(() => savepoint(outer, work));
    outer.nestedDone = started.catch(() => {});
    return started;
  }

  async function attempt<T>(
    work: (sql: Sql, control: UnitControl) => Promise<T>,
    options: UnitOptions,
  ): Promise<{ value: T; committed: Array<() => void> }> {
    const client = await pool.connect();
    const scope: UnitScope = { client, committed: [], ended: false };
    let broken: Error | undefined;
    try {
      await client.query(
        options.rowLocks ? 'BEGIN ISOLATION LEVEL READ COMMITTED' : 'BEGIN ISOLATION LEVEL SERIALIZABLE',
      );
      const value = await scopeOfContext.run(scope, () =>
        work(onClient(scope), { afterCommit: (callback) => void scope.committed.push(callback) }),
      );
      await scope.nestedDone;
      await client.query('COMMIT');
      return { value, committed: scope.committed };
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackFailed) {
        // The connection is gone or unusable: the pool must not hand it out again.
        broken = rollbackFailed as Error;
      }
      throw error;
    } finally {
      scope.ended = true;
      client.release(broken);
    }
  }

  /**
   * Units that collided run again one at a time in this process: on a hot row (a pool's draw
   * counter) a burst of units would otherwise keep colliding with each other on every retry.
   */
  let retrying: Promise<unknown> = Promise.resolve();
  function oneAtATime<T>(run: () => Promise<T>): Promise<T> {
    const turn = retrying.then(run);
    retrying = turn.catch(() => {});
    return turn;
  }

  async function unit<T>(
    work: (sql: Sql, control: UnitControl) => Promise<T>,
    options: UnitOptions = {},
  ): Promise<T> {
    const outer = current();
    if (outer) return nested(outer, work);
    await ready();
    let uniqueReruns = 0;
    for (let tries = 1; ; tries++) {
      try {
        const run = () => attempt(work, options);
        const { value, committed } = await (tries === 1 ? run() : oneAtATime(run));
        runCallbacks(committed);
        return value;
      } catch (error) {
        const code = codeOf(error);
        const rerun =
          RETRIED.has(code) ||
          (code === UNIQUE_VIOLATION && options.rowLocks === true && uniqueReruns++ < UNIQUE_RERUNS);
        if (!rerun || tries >= MAX_ATTEMPTS) throw error;
        await backoff(tries);
      }
    }
  }

  return { unit, outside };
}
