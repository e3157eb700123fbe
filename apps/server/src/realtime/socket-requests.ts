import type { SessionEndCode } from '@raspa/core';
import type { Socket } from 'socket.io';

/**
 * The play requests each socket has in flight, so that ending its session answers them before the
 * socket is closed (the play protocol promises one answer per request): a buy whose bet was taken
 * just before the ending committed still answers its round (issue 32). Once the ending is known on
 * this process, a new request of the socket is refused at once with its code, so the wait is only
 * for what was already under way (at most a wallet call and its time-out).
 */
export function createSocketRequests() {
  const inFlight = new WeakMap<Socket, Set<Promise<unknown>>>();
  const endings = new WeakMap<Socket, SessionEndCode>();
  return {
    /** The code a new request of this socket is refused with at once: its session is ending. */
    endedWith: (socket: Socket): SessionEndCode | undefined => endings.get(socket),

    /** Keeps `answered` (a request's work and its answer) in flight until it settles. */
    track(socket: Socket, answered: Promise<unknown>): void {
      let requests = inFlight.get(socket);
      if (!requests) {
        requests = new Set();
        inFlight.set(socket, requests);
      }
      const held = requests;
      held.add(answered);
      void answered.finally(() => held.delete(answered)).catch(() => {});
    },

    /** Marks the socket's session ended with `code`; resolves once its requests in flight are answered. */
    async ending(socket: Socket, code: SessionEndCode): Promise<void> {
      endings.set(socket, code);
      const requests = inFlight.get(socket);
      while (requests && requests.size > 0) await Promise.allSettled([...requests]);
    },
  };
}

export type SocketRequests = ReturnType<typeof createSocketRequests>;
