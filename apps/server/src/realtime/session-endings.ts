import { PLAY_EVENTS, type PlayLang, playErrorMessage, SESSION_END_CODES } from '@raspa/core';
import type { Namespace, Socket } from 'socket.io';
import { z } from 'zod';
import type { SessionEnding, SessionEndNotifier } from '../services/session-endings.ts';
import type { SocketRequests } from './socket-requests.ts';

const sessionRoom = (sessionId: string) => `session:${sessionId}`;
/** The server-side event that carries an ending between processes. */
export const SESSION_ENDED_EVENT = 'raspa:session-ended';

/** An ending as it crosses between processes: read again on arrival, as anything on the channel. */
const sessionEndingSchema = z.object({
  sessionIds: z.array(z.string().min(1).max(100)).min(1),
  code: z.enum(SESSION_END_CODES),
});

/**
 * Ends sessions on the play namespace of every process (docs/player-protection.md): each process
 * forgets the sessions (its play records' cache), answers each of their sockets' requests in flight
 * (`requests`: a buy under way answers its round or the code), then tells the socket `session-ended`
 * with the code and its sentence in the socket's language, and closes it. The process whose service ended
 * them does it for its own sockets and sends the ending to the others once (serverSideEmit on the
 * adapter: cluster IPC between workers, NOTIFY between PostgreSQL instances). Endings are rare, so
 * unlike the pushes (player-pushes.ts) they always cross: no process has to know where the sockets are.
 */
export function createSessionEndings(
  play: Namespace,
  options: {
    otherProcesses: boolean;
    forget(sessionId: string): void;
    langOf(socket: Socket): PlayLang;
    requests: SocketRequests;
  },
): { add(socket: Socket, sessionId: string): void; notifier: SessionEndNotifier } {
  const endHere = ({ sessionIds, code }: SessionEnding) => {
    for (const sessionId of sessionIds) {
      options.forget(sessionId);
      for (const socketId of [...(play.adapter.rooms.get(sessionRoom(sessionId)) ?? [])]) {
        const socket = play.sockets.get(socketId);
        if (!socket) continue;
        void options.requests.ending(socket, code).then(() => {
          if (socket.disconnected) return;
          socket.emit(PLAY_EVENTS.sessionEnded, {
            code,
            message: playErrorMessage(code, options.langOf(socket)),
          });
          // Closed by the server: the page's client does not reconnect by itself (and would be refused).
          socket.disconnect(true);
        });
      }
    }
  };
  play.on(SESSION_ENDED_EVENT, (raw: unknown) => {
    const ending = sessionEndingSchema.safeParse(raw);
    if (ending.success) endHere(ending.data);
  });
  return {
    add: (socket, sessionId) => void socket.join(sessionRoom(sessionId)),
    notifier: {
      ended(ending) {
        endHere(ending);
        if (options.otherProcesses) play.serverSideEmit(SESSION_ENDED_EVENT, ending);
      },
    },
  };
}
