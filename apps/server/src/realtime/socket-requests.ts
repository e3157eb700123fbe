import type { SessionEndCode } from '@raspa/core';
import type { Socket } from 'socket.io';

/** A request in flight: its work and answer, and how to answer it `SERVICE_STOPPING` at a stop's deadline. */
interface InFlight {
  answered: Promise<unknown>;
  stopping(): void;
}

/**
 * The play requests each socket has in flight, so that ending its session, or stopping the process,
 * answers them before the socket is closed (the play protocol promises one answer per request): a
 * buy whose bet was taken just before the ending committed still answers its round (issue 32). Once
 * the ending is known on this process, a new request of the socket is refused at once with its
 * code, so the wait is only for what was already under way (at most a wallet call and its
 * time-out). A stop does the same for every socket with `SERVICE_STOPPING` (issue 36).
 */
export function createSocketRequests() {
  const inFlight = new WeakMap<Socket, Set<Promise<unknown>>>();
  const endings = new WeakMap<Socket, SessionEndCode>();
  /** Every socket's requests in flight: a stop waits for them all. */
  const all = new Set<InFlight>();
  let stopped = false;
  return {
    /** The code a new request of this socket is refused with at once: its session is ending, or the process stopping. */
    endedWith: (socket: Socket): SessionEndCode | 'SERVICE_STOPPING' | undefined =>
      endings.get(socket) ?? (stopped ? 'SERVICE_STOPPING' : undefined),

    /**
     * Keeps `answered` (a request's work and its answer) in flight until it settles; `stopping`
     * answers it SERVICE_STOPPING if a stop's deadline comes first (a later answer is then dropped).
     */
    track(socket: Socket, answered: Promise<unknown>, stopping: () => void): void {
      let requests = inFlight.get(socket);
      if (!requests) {
        requests = new Set();
        inFlight.set(socket, requests);
      }
      const held = requests;
      const request = { answered, stopping };
      held.add(answered);
      all.add(request);
      void answered
        .finally(() => {
          held.delete(answered);
          all.delete(request);
        })
        .catch(() => {});
    },

    /** Marks the socket's session ended with `code`; resolves once its requests in flight are answered. */
    async ending(socket: Socket, code: SessionEndCode): Promise<void> {
      endings.set(socket, code);
      const requests = inFlight.get(socket);
      while (requests && requests.size > 0) await Promise.allSettled([...requests]);
    },

    /**
     * The process stops: every new request is refused SERVICE_STOPPING at once; resolves once
     * every request already in flight is answered.
     */
    async stop(): Promise<void> {
      stopped = true;
      while (all.size > 0) await Promise.allSettled([...all].map((request) => request.answered));
    },

    /** A stop's deadline: every request still in flight is answered SERVICE_STOPPING now; how many. */
    answerRemaining(): number {
      stopped = true;
      const remaining = [...all];
      for (const request of remaining) {
        request.stopping();
        all.delete(request);
      }
      return remaining.length;
    },
  };
}

export type SocketRequests = ReturnType<typeof createSocketRequests>;
