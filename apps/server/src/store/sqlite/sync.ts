/** How a call runs: once the connection is free (outside a unit). */
export type CallRunner = <T>(call: () => T) => Promise<T>;

/**
 * A repository (store/repos/) as the Store outside a unit shows it: each method run through `run`.
 * Its methods answer with a promise, and on SQLite run to their end in the turn they start (every
 * statement answers at once), so `run` decides when the whole method runs: after the running
 * batch, never between two of its statements.
 */
export function liftAsync<R extends object>(repo: R, run: CallRunner): R {
  const lifted: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(repo as Record<string, (...args: unknown[]) => unknown>)) {
    lifted[name] = (...args: unknown[]) => run(() => method(...args));
  }
  return lifted as R;
}
