/** A repository's synchronous face: what better-sqlite3 lets the SQLite adapter write. */
export type Sync<R> = {
  [K in keyof R]: R[K] extends (...args: infer A) => Promise<infer T> ? (...args: A) => T : never;
};

/** How a lifted call runs: at once (inside a unit) or once the connection is free (outside). */
export type CallRunner = <T>(call: () => T) => Promise<T>;

/** The async repository over a synchronous one: each method goes through `run`. */
export function lift<R extends object>(repo: Sync<R>, run: CallRunner): R {
  const lifted: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(repo as Record<string, (...args: unknown[]) => unknown>)) {
    lifted[name] = (...args: unknown[]) => run(() => method(...args));
  }
  return lifted as R;
}

/**
 * The same over a repository written once (store/repos/): its methods already answer with a
 * promise, and on SQLite run to their end in the turn they start (every statement answers at
 * once), so `run` decides when the whole method runs, as for a synchronous one.
 */
export const liftAsync = <R extends object>(repo: R, run: CallRunner): R =>
  lift(repo as unknown as Sync<R>, run);
