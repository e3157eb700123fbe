/** Runs a committed unit's callbacks in order: a failing one must not keep the others or the caller from their answer. */
export function runCallbacks(callbacks: Array<() => void>): void {
  for (const callback of callbacks) {
    try {
      callback();
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}
