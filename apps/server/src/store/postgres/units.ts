import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { runCallbacks } from '../run-callbacks.ts';
import type { UnitOptions } from '../store.ts';
import { type RoundTrips, uncounted } from './round-trips.ts';
import { prepared, type Sql } from './sql.ts';

/** What a unit's work may ask of the unit itself. */
export interface UnitControl {
  afterCommit(callback: () => void): void;
  /** The next statement is the unit's last: its COMMIT is sent with it (Transaction.lastStatement). */
  lastStatement(): void;
}

/** One open unit (a transaction, or a savepoint inside one) and what runs once it commits. */
interface UnitScope {
  client: pg.PoolClient;
  committed: Array<() => void>;
  /** Settled once the nested units started so far in this unit have ended. */
  nestedDone?: Promise<unknown>;
  /** Ended: a call still carrying this async context goes to the pool. */
  ended: boolean;
  /**
   * Statements sent without waiting for their answer (BEGIN, SAVEPOINT, RELEASE on a pipelined
   * connection): awaited before the unit commits, so a failure among them fails the unit.
   */
  unanswered: Promise<unknown>[];
  /** The work said its next statement is the last: COMMIT goes out right behind it. */
  lastNext?: boolean;
  /** The COMMIT sent with the last statement, awaited instead of sending one at the end. */
  commit?: Promise<pg.QueryResult>;
}

export interface UnitsOptions {
  /**
   * The pool's connections are in pipeline mode (`pg`'s `pipeline: true`): a statement is written
   * at once even while earlier ones on the connection wait for their answer. Then a unit's BEGIN
   * and savepoints ride with the statement that follows them, and the statements a repository
   * sends together (`Promise.all` on a unit's Sql) go in one round trip.
   */
  pipelined?: boolean;
  /** The round-trip diagnostic (STATEMENT_STATS). */
  trips?: RoundTrips;
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
export function createUnits(pool: pg.Pool, ready: () => Promise<void>, options: UnitsOptions = {}): Units {
  const pipelined = options.pipelined === true;
  const trips = options.trips ?? uncounted;
  const scopeOfContext = new AsyncLocalStorage<UnitScope>();
  const current = () => {
    const scope = scopeOfContext.getStore();
    return scope && !scope.ended ? scope : undefined;
  };

  /** Statements sent on each connection and not answered yet: a pipelined one rides with them. */
  const waiting = new WeakMap<pg.PoolClient, number>();
  function send<Row extends pg.QueryResultRow>(
    client: pg.PoolClient,
    query: string | pg.QueryConfig,
  ): Promise<pg.QueryResult<Row>> {
    const before = waiting.get(client) ?? 0;
    trips.sent(pipelined ? before : 0);
    waiting.set(client, before + 1);
    const answered = client.query<Row>(query);
    const done = () => void waiting.set(client, (waiting.get(client) ?? 1) - 1);
    void answered.then(done, done);
    return answered;
  }

  /** Sends `text` and, on a pipelined connection, goes on without its answer (see `unanswered`). */
  function sendAhead(scope: UnitScope, text: string): Promise<unknown> {
    const answered = send(scope.client, text);
    if (!pipelined) return answered;
    // Handled here so a unit that fails first does not leave it unhandled; still awaited at commit.
    void answered.catch(() => {});
    scope.unanswered.push(answered);
    return Promise.resolve();
  }

  /** Sends `texts` in one round trip when pipelined (else one after another); the first failure throws. */
  async function together(client: pg.PoolClient, texts: readonly string[]): Promise<void> {
    if (!pipelined) {
      for (const text of texts) await send(client, text);
      return;
    }
    const answers = texts.map((text) => send(client, text));
    for (const answer of answers) void answer.catch(() => {});
    for (const answer of answers) await answer;
  }

  async function runOn<Row extends object>(
    on: pg.PoolClient | pg.Pool,
    text: string,
    values: readonly unknown[] | undefined,
  ): Promise<{ rows: Row[]; rowCount: number }> {
    let result: pg.QueryResult<Row & pg.QueryResultRow>;
    if (on instanceof pg.Pool) {
      trips.sent(0);
      result = await on.query<Row & pg.QueryResultRow>(prepared(text, values));
    } else result = await send<Row & pg.QueryResultRow>(on, prepared(text, values));
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  }

  /**
   * A statement of an open unit. After the one the work called the last, COMMIT is written at once
   * behind it (pipelined: the same round trip), so the unit ends without a round trip of its own.
   */
  function runIn<Row extends object>(
    scope: UnitScope,
    text: string,
    values: readonly unknown[] | undefined,
  ): Promise<{ rows: Row[]; rowCount: number }> {
    if (scope.commit) return Promise.reject(new Error('a statement after the last one of its unit'));
    const answered = runOn<Row>(scope.client, text, values);
    if (scope.lastNext) {
      scope.lastNext = false;
      const commit = send(scope.client, 'COMMIT');
      // Awaited at the unit's end; handled here so a unit that fails first leaves nothing unhandled.
      void commit.catch(() => {});
      scope.commit = commit;
    }
    return answered;
  }

  const onClient = (scope: UnitScope): Sql => {
    const sql: Sql = {
      query: (text, values) => runIn(scope, text, values),
      atomic: (work) => work(sql),
      inUnit: true,
    };
    return sql;
  };

  const outside: Sql = {
    query: async (text, values) => {
      const scope = current();
      if (scope) return runIn(scope, text, values);
      await ready();
      return runOn(pool, text, values);
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
    const scope: UnitScope = { client: outer.client, committed: [], ended: false, unanswered: [] };
    await sendAhead(outer, 'SAVEPOINT nested');
    try {
      const value = await scopeOfContext.run(scope, () =>
        work(onClient(scope), {
          afterCommit: (callback) => void scope.committed.push(callback),
          // A savepoint's statements are not the transaction's last: its outer unit commits.
          lastStatement: () => {},
        }),
      );
      // What the nested unit sent ahead belongs to the outer transaction: awaited at its commit.
      outer.unanswered.push(...scope.unanswered);
      await sendAhead(outer, 'RELEASE SAVEPOINT nested');
      outer.committed.push(...scope.committed);
      return value;
    } catch (error) {
      await together(outer.client, ['ROLLBACK TO SAVEPOINT nested', 'RELEASE SAVEPOINT nested']);
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
    trips.checkout(pool.idleCount === 0 && pool.totalCount >= (pool.options.max ?? 10));
    const client = await pool.connect();
    const scope: UnitScope = { client, committed: [], ended: false, unanswered: [] };
    // Only on a pipelined connection can COMMIT be written before the last statement's answer.
    const lastStatement = pipelined
      ? () => {
          scope.lastNext = true;
        }
      : () => {};
    trips.unit();
    let broken: Error | undefined;
    try {
      // Pipelined, BEGIN goes out with the work's first statement instead of a round trip of its own.
      await sendAhead(
        scope,
        options.rowLocks ? 'BEGIN ISOLATION LEVEL READ COMMITTED' : 'BEGIN ISOLATION LEVEL SERIALIZABLE',
      );
      const value = await scopeOfContext.run(scope, () =>
        work(onClient(scope), {
          afterCommit: (callback) => void scope.committed.push(callback),
          lastStatement,
        }),
      );
      await scope.nestedDone;
      await Promise.all(scope.unanswered);
      // PostgreSQL answers COMMIT of a transaction an error aborted with ROLLBACK, not an error:
      // so a COMMIT sent with the last statement also ends a unit whose last statement failed.
      const ended = await (scope.commit ?? send(client, 'COMMIT'));
      if (ended.command !== 'COMMIT') throw new Error(`the unit did not commit (${ended.command})`);
      return { value, committed: scope.committed };
    } catch (error) {
      try {
        await send(client, 'ROLLBACK');
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
