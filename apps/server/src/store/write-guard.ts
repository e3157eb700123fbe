import type { Logger } from '../logger.ts';

/** A call on a store whose instance may not write (its code is older than the database's minimum). */
export class WriteRefusedError extends Error {
  override name = 'WriteRefusedError';
}

/**
 * Whether this instance may write to its database (issue 36, store/write-generation.ts): the
 * adapter decides at open and again at each heartbeat; the store refuses every call once refused,
 * and the server starts its background work only once writable and stops it when refused.
 */
export interface WriteGuard {
  /** Why this instance may not write now (it waits for older instances, or is refused); undefined when it may. */
  blocked(): string | undefined;
  /** Refused for good (this build is older than the database's minimum): the reason. */
  refused(): string | undefined;
  /** Resolves once the instance may write; never when it is refused first. */
  writable: Promise<void>;
  /** It may write now (decided, neither waiting nor refused). */
  isWritable(): boolean;
  /** Called once, when the instance is refused (at open or at a later heartbeat). */
  onRefused(listener: (reason: string) => void): void;
  /**
   * Writes this instance's heartbeat and reads the database's minimum back: refused when a newer
   * build raised it meanwhile. Nothing for a store opened without an instance (tests, commands).
   */
  beat(): Promise<void>;
  /** Stops looking (the store closes): a heartbeat ends, a wait gives up. */
  closing(): void;
  readonly isClosing: boolean;
}

/** The adapter's side: what it reports as it decides, and how it beats. */
export interface WriteGuardControl extends WriteGuard {
  waiting(reason: string): void;
  writing(): void;
  refuse(reason: string): void;
}

export interface WriteGuardOptions {
  /** Logs each change of state once (waiting, refused); silent when absent. */
  logger?: Logger | undefined;
  /**
   * One heartbeat: writes this instance's row, answers the database's minimum and this build's
   * generation. Absent: the store has no instance (beat() does nothing).
   */
  beat?: () => Promise<{ minimum: number; code: number }>;
}

export function createWriteGuard(options: WriteGuardOptions = {}): WriteGuardControl {
  let state:
    | { kind: 'deciding' }
    | { kind: 'waiting'; reason: string }
    | { kind: 'writing' }
    | {
        kind: 'refused';
        reason: string;
      } = { kind: 'deciding' };
  let closing = false;
  const listeners: Array<(reason: string) => void> = [];
  let resolveWritable: () => void = () => {};
  const writable = new Promise<void>((resolve) => {
    resolveWritable = resolve;
  });

  const guard: WriteGuardControl = {
    blocked: () => (state.kind === 'waiting' || state.kind === 'refused' ? state.reason : undefined),
    refused: () => (state.kind === 'refused' ? state.reason : undefined),
    writable,
    isWritable: () => state.kind === 'writing',
    onRefused(listener) {
      if (state.kind === 'refused') listener(state.reason);
      else listeners.push(listener);
    },
    async beat() {
      if (!options.beat || state.kind !== 'writing' || closing) return;
      const { minimum, code } = await options.beat();
      if (minimum > code)
        guard.refuse(
          `this build is generation ${code}; a newer version raised the database's generation to ${minimum} while this instance ran`,
        );
    },
    closing() {
      closing = true;
    },
    get isClosing() {
      return closing;
    },
    waiting(reason) {
      if (state.kind === 'waiting' && state.reason === reason) return;
      state = { kind: 'waiting', reason };
      options.logger?.warn('not serving yet: older instances are alive', { reason });
    },
    writing() {
      if (state.kind === 'refused') return;
      state = { kind: 'writing' };
      resolveWritable();
    },
    refuse(reason) {
      if (state.kind === 'refused') return;
      state = { kind: 'refused', reason };
      // Said once: /ready keeps answering 503 with the reason, without a line per check.
      options.logger?.error('this instance writes nothing: its code is older than the database allows', {
        reason,
      });
      for (const listener of listeners.splice(0)) listener(reason);
    },
  };
  return guard;
}
