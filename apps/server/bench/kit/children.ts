import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

/** A message between a bench and one of its child processes: a `type` and whatever goes with it. */
export interface BenchMessage {
  type: string;
  [field: string]: unknown;
}

/**
 * A bench module (a TypeScript file) as its own process, `node --import tsx <file> <args>`, with an
 * IPC channel for its results, so a load generator never shares an event loop with what it loads.
 */
export function startChild(
  file: URL,
  args: string[] = [],
  options: { nodeFlags?: string[]; env?: Record<string, string> } = {},
): ChildProcess {
  return spawn(
    process.execPath,
    [...(options.nodeFlags ?? []), '--import', 'tsx', fileURLToPath(file), ...args],
    {
      cwd: serverDir,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
}

/**
 * The next message of `type` from `child` (progress messages of other types go to `onOther`);
 * throws on a `failed` message (`{type: 'failed', message}`), once `limitMs` has passed, or when
 * the child has exited first.
 */
export function nextMessage<T extends BenchMessage>(
  child: ChildProcess,
  type: T['type'],
  limitMs: number,
  onOther: (message: BenchMessage) => void = () => {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (message: BenchMessage) => {
      if (message.type === 'failed') {
        done();
        reject(new Error(`child ${child.pid} failed: ${String(message.message)}`));
      } else if (message.type !== type) onOther(message);
      else {
        done();
        resolve(message as T);
      }
    };
    const onExit = (code: number | null, signal: string | null) => {
      done();
      reject(new Error(`child ${child.pid} exited (${signal ?? code}) before sending "${type}"`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`child ${child.pid} sent no "${type}" within ${limitMs} ms`));
    }, limitMs);
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** In a child: sends a message to the bench; resolves once it is handed to the channel. */
export function toParent(message: BenchMessage): Promise<void> {
  const send = process.send?.bind(process);
  if (!send) throw new Error('this module runs as a child of a bench (no IPC channel)');
  return new Promise((resolve, reject) => {
    send(message, undefined, {}, (error: Error | null) => (error ? reject(error) : resolve()));
  });
}

/** In a child: never outlive the bench (the IPC channel closes when it goes, even on SIGKILL). */
export function exitWithParent(): void {
  process.once('disconnect', () => process.exit(0));
}
