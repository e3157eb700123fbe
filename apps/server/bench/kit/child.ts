import { type ChildProcess, fork } from 'node:child_process';
import { stopProcess } from './processes.ts';

/**
 * A bench part in its own process (a load generator, an operator), spoken to over IPC: each
 * `ask` sends `{ id, type, ...body }` and resolves with the child's `{ id, ...answer }`.
 */
export interface BenchChild {
  process: ChildProcess;
  ask<T>(type: string, body?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

export function forkChild(file: URL, nodeFlags: string[] = []): BenchChild {
  const child = fork(file, [], { execArgv: [...nodeFlags, '--import', 'tsx'], stdio: 'inherit' });
  let next = 0;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  child.on('message', (message: { id: number; error?: string }) => {
    const pending = waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    if (message.error) pending.reject(new Error(message.error));
    else pending.resolve(message);
  });
  child.on('exit', (code) => {
    for (const pending of waiting.values()) pending.reject(new Error(`${file.pathname} exited (${code})`));
    waiting.clear();
  });
  return {
    process: child,
    ask: <T>(type: string, body: Record<string, unknown> = {}) =>
      new Promise<T>((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
        child.send({ id, type, ...body });
      }),
    stop: () => stopProcess(child, 5000),
  };
}

/** The child's side: answers each request with what `handle` returns (or its error). */
export function serveParent(
  handle: (type: string, body: Record<string, unknown>) => Promise<Record<string, unknown>>,
): void {
  process.on('message', (message: { id: number; type: string } & Record<string, unknown>) => {
    void handle(message.type, message).then(
      (answer) => process.send?.({ ...answer, id: message.id }),
      (error: unknown) =>
        process.send?.({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  // The parent's end is the child's end: no orphan load generators.
  process.on('disconnect', () => process.exit(0));
}
