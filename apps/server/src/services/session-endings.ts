import type { SessionEndCode } from '@raspa/core';

/** Sessions an operator just ended, and why (the play error their sockets are told). */
export interface SessionEnding {
  sessionIds: string[];
  code: SessionEndCode;
}

/**
 * Where the services say that sessions ended, once the unit that ended them committed: the realtime
 * layer tells their sockets on every process, closes them, and makes every process forget them
 * (realtime/session-endings.ts). The services never see a socket.
 */
export interface SessionEndNotifier {
  ended(ending: SessionEnding): void;
}

/**
 * A SessionEndNotifier that forwards to whichever target is attached later: the realtime layer
 * attaches to the HTTP server after the services exist. With none attached (no sockets), the store
 * alone refuses the sessions' next requests.
 */
export function createSessionEndRelay(): SessionEndNotifier & { attach(target: SessionEndNotifier): void } {
  let target: SessionEndNotifier | undefined;
  return {
    attach: (next) => {
      target = next;
    },
    ended: (ending) => target?.ended(ending),
  };
}
