import type { Server as HttpServer } from 'node:http';
import {
  type Ack,
  buyRequestSchema,
  PLAY_EVENTS,
  PLAY_NAMESPACE,
  PLAY_REQUESTS,
  type PlayErrorCode,
  type PlayLang,
  playErrorMessage,
  revealRequestSchema,
} from '@raspa/core';
import { Server, type Socket } from 'socket.io';
import { type Logger, withLogContext } from '../logger.ts';
import type { PlayNotifier, PlayResult, PlayService } from '../play/play-service.ts';
import type { SessionService } from '../services/session-service.ts';

interface SocketData {
  sessionId: string;
  playerId: string;
  lang: PlayLang;
}

const playerRoom = (playerId: string) => `player:${playerId}`;
const asLang = (lang: string): PlayLang => (lang === 'pt' || lang === 'es' ? lang : 'en');

/**
 * The play protocol over Socket.IO (docs/play-protocol.md): thin handlers that check the message
 * with the shared zod schemas, call the play service and answer through the acknowledgement.
 * A connection is authenticated by the session token of its gameUrl.
 */
export function attachPlaySockets(
  httpServer: HttpServer,
  deps: { play: PlayService; sessions: SessionService; logger: Logger },
): { notifier: PlayNotifier; close(): Promise<void> } {
  const io = new Server(httpServer, { serveClient: false, maxHttpBufferSize: 16 * 1024 });
  const play = io.of(PLAY_NAMESPACE);

  play.use((socket, next) => {
    const token: unknown = socket.handshake.auth?.token;
    const live = typeof token === 'string' ? deps.sessions.resolveSessionToken(token) : undefined;
    if (!live) {
      next(new Error('SESSION_EXPIRED'));
      return;
    }
    const data: SocketData = {
      sessionId: live.session.id,
      playerId: live.player.id,
      lang: asLang(live.session.lang),
    };
    socket.data = data;
    next();
  });

  play.on('connection', (socket: Socket) => {
    const data = socket.data as SocketData;
    void socket.join(playerRoom(data.playerId));
    // The work runs even when the page sent no acknowledgement callback; only the reply is skipped.
    const answer = <T>(ack: unknown, work: () => Promise<PlayResult<T>>) => {
      const reply = typeof ack === 'function' ? (ack as (answer: Ack<T>) => void) : () => {};
      const failWith = (code: PlayErrorCode) =>
        reply({ ok: false, error: { code, message: playErrorMessage(code, data.lang) } });
      // Every line logged for this request names the session (never the token).
      withLogContext({ sessionId: data.sessionId }, work).then(
        (result) => (result.ok ? reply({ ok: true, data: result.data }) : failWith(result.code)),
        (error: unknown) => {
          deps.logger.error('play request failed', {
            sessionId: data.sessionId,
            error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          });
          failWith('INTERNAL_ERROR');
        },
      );
    };
    const invalid = async () => ({ ok: false, code: 'INVALID_REQUEST' }) as const;

    socket.on(PLAY_REQUESTS.state, (ack: unknown) => answer(ack, () => deps.play.state(data.sessionId)));
    socket.on(PLAY_REQUESTS.buy, (payload: unknown, ack?: unknown) => {
      // The payload is optional: `emit('buy', ack)` is fine too.
      if (typeof payload === 'function') return answer(payload, () => deps.play.buy(data.sessionId));
      if (!buyRequestSchema.safeParse(payload).success) return answer(ack, invalid);
      answer(ack, () => deps.play.buy(data.sessionId));
    });
    socket.on(PLAY_REQUESTS.reveal, (payload: unknown, ack: unknown) => {
      const request = revealRequestSchema.safeParse(payload);
      if (!request.success) return answer(ack, invalid);
      answer(ack, () => deps.play.reveal(data.sessionId, request.data.roundId));
    });
  });

  return {
    notifier: {
      balance: (playerId, balance) =>
        void play.to(playerRoom(playerId)).emit(PLAY_EVENTS.balance, { balance }),
      round: (playerId, round) => void play.to(playerRoom(playerId)).emit(PLAY_EVENTS.round, round),
    },
    close: () => new Promise<void>((resolve) => io.close(() => resolve())),
  };
}
