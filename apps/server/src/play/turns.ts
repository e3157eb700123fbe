/**
 * Work on one key runs one at a time in this process, in the order it was asked for; different
 * keys run side by side. A failed turn does not stop the next. In memory: other processes are not
 * kept apart by it.
 */
export interface Turns {
  take<T>(key: string, run: () => Promise<T>): Promise<T>;
}

export function createTurns(): Turns {
  const last = new Map<string, Promise<unknown>>();
  return {
    take(key, run) {
      const before = last.get(key) ?? Promise.resolve();
      const mine = before.then(run);
      const done = mine.then(
        () => undefined,
        () => undefined,
      );
      last.set(key, done);
      // The map holds a key only while a turn on it is waiting or running.
      void done.then(() => {
        if (last.get(key) === done) last.delete(key);
      });
      return mine;
    },
  };
}
