import type { Server as HttpServer } from 'node:http';
import {
  type Ack,
  PLAY_NAMESPACE,
  type PlayErrorCode,
  type PlayLang,
  type PlayRequest,
  parsePlayRequest,
  playErrorMessage,
  playLangOf,
} from '@raspa/core';
import { Server, type ServerOptions, type Socket } from 'socket.io';
import { type Logger, withLogContext } from '../logger.ts';
import type { PlayFailure, PlayNotifier, PlayResult, PlayService } from '../play/play-service.ts';
import type { SessionEndNotifier } from '../services/session-endings.ts';
import type { SessionService } from '../services/session-service.ts';
import { createPlayerPushes } from './player-pushes.ts';
import { createSessionEndings } from './session-endings.ts';
import { createSocketRequests } from './socket-requests.ts';

interface SocketData {
  sessionId: string;
  playerId: string;
  lang: PlayLang;
}

/**
 * The play protocol over Socket.IO (docs/play-protocol.md): one thin handler that reads each
 * message with the shared zod schemas (parsePlayRequest), calls the play service and answers through
 * the acknowledgement, exactly once, whenever the page sent one.
 * A connection is authenticated by the session token of its gameUrl. The pushes go through
 * player-pushes.ts; `node` names this process to the others (with an adapter).
 */
export function attachPlaySockets(
  httpServer: HttpServer,
  deps: { play: PlayService; sessions: SessionService; logger: Logger },
  options: { adapter?: ServerOptions['adapter']; node?: string } = {},
): PlaySockets {
  // With several processes, the adapter carries a push to the player's pages on the others. And
  // WebSocket only: Node's cluster hands each connection to any process, so the two connections of
  // an HTTP long-polling session would land on different ones (it needs sticky routing).
  const io = new Server(httpServer, {
    serveClient: false,
    maxHttpBufferSize: 16 * 1024,
    ...(options.adapter && { adapter: options.adapter, transports: ['websocket'] }),
  });
  const play = io.of(PLAY_NAMESPACE);
  const pushes = createPlayerPushes(play, {
    otherProcesses: options.adapter !== undefined,
    node: options.node ?? 'alone',
  });
  const requests = createSocketRequests();
  const endings = createSessionEndings(play, {
    otherProcesses: options.adapter !== undefined,
    forget: (sessionId) => deps.play.forgetSession(sessionId),
    langOf: (socket) => (socket.data as SocketData).lang,
    requests,
  });

  play.use((socket, next) => {
    const token: unknown = socket.handshake.auth?.token;
    if (typeof token !== 'string') {
      next(new Error('SESSION_EXPIRED'));
      return;
    }
    void deps.sessions.openSession(token).then(
      (opened) => {
        if (!opened.ok) {
          next(new Error(opened.code));
          return;
        }
        const { live } = opened;
        const data: SocketData = {
          sessionId: live.session.id,
          playerId: live.player.id,
          lang: playLangOf(live.session.lang),
        };
        socket.data = data;
        next();
      },
      (error: unknown) => {
        deps.logger.error('session lookup failed', { error: String(error) });
        next(new Error('INTERNAL_ERROR'));
      },
    );
  });

  play.on('connection', (socket: Socket) => {
    const data = socket.data as SocketData;
    pushes.add(socket, data.playerId);
    endings.add(socket, data.sessionId);
    const run = (request: PlayRequest): Promise<PlayResult<unknown>> => {
      switch (request.type) {
        case 'state':
          return deps.play.state(data.sessionId);
        case 'buy':
          return deps.play.buy(data.sessionId);
        case 'reveal':
          return deps.play.reveal(data.sessionId, request.roundId);
        case 'realityCheckAck':
          return deps.play.acknowledgeRealityCheck(data.sessionId);
        case 'history':
          return deps.play.history(data.sessionId);
      }
    };
    // One listener for every event, so no shape of arguments (none, no callback, a callback in the
    // wrong place, extra ones, an unknown event) can slip past a handler and leave the page waiting.
    socket.onAny((event: unknown, ...args: unknown[]) => {
      const ack =
        typeof args.at(-1) === 'function' ? (args.pop() as (answer: Ack<unknown>) => void) : undefined;
      let answered = false;
      const reply = (answer: Ack<unknown>) => {
        if (answered || !ack) return;
        answered = true;
        ack(answer);
      };
      // A refusal may carry its own sentence and details (player protection: play-runtime.ts PlayFailure).
      const refuse = ({ ok: _, code, message, ...details }: PlayFailure) =>
        reply({
          ok: false,
          error: { code, message: message ?? playErrorMessage(code, data.lang), ...details },
        });
      const failWith = (code: PlayErrorCode) => refuse({ ok: false, code });
      const request = parsePlayRequest(event, args);
      if (!request) {
        failWith('INVALID_REQUEST');
        return;
      }
      // Its session is ending: answered now, so the socket closes as soon as the requests before it are.
      const ended = requests.endedWith(socket);
      if (ended) {
        failWith(ended);
        return;
      }
      // The work runs even when the page sent no acknowledgement callback; only the reply is skipped.
      // Every line logged for this request names the session (never the token).
      let work: Promise<PlayResult<unknown>>;
      try {
        work = withLogContext({ sessionId: data.sessionId }, () => run(request));
      } catch (error) {
        work = Promise.reject(error);
      }
      const done = work.then(
        (result) => (result.ok ? reply({ ok: true, data: result.data }) : refuse(result)),
        (error: unknown) => {
          deps.logger.error('play request failed', {
            sessionId: data.sessionId,
            error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          });
          failWith('INTERNAL_ERROR');
        },
      );
      // Until answered: an ending of the session, or a stop, waits for it before closing the socket.
      requests.track(socket, done, () => failWith('SERVICE_STOPPING'));
    });
  });

  return {
    notifier: pushes.notifier,
    sessionEndings: endings.notifier,
    stopTaking: () => requests.stop(),
    answerRemaining: () => requests.answerRemaining(),
    async close() {
      // Each connection first, its answers written out (Socket.IO's own close discards what is still
      // buffered): a transport closed by the server is one every Socket.IO client reconnects after,
      // through the load balancer to another instance.
      await Promise.all(
        [...new Set([...play.sockets.values()].map((socket) => socket.conn))].map(closeConnection),
      );
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}

/** What the process does with its players' sockets (server.ts). */
export interface PlaySockets {
  notifier: PlayNotifier;
  sessionEndings: SessionEndNotifier;
  /**
   * Refuses every new request `SERVICE_STOPPING` at once and resolves once every request in flight
   * is answered.
   */
  stopTaking(): Promise<void>;
  /** A stop's deadline: answers each request still in flight `SERVICE_STOPPING`; how many. */
  answerRemaining(): number;
  /** Closes every connection once what was written to it is sent (clients reconnect), then the server. */
  close(): Promise<void>;
}

/** Closes an Engine.IO connection after its write buffer drains. */
function closeConnection(connection: Socket['conn']): Promise<void> {
  return new Promise<void>((resolve) => {
    if (connection.readyState === 'closed') return resolve();
    connection.once('close', () => resolve());
    connection.close();
  });
}
