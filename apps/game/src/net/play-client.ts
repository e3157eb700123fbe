import {
  ackSchema,
  type BuyAnswer,
  balanceEventSchema,
  buyAnswerSchema,
  type HistoryAnswer,
  historyAnswerSchema,
  PLAY_EVENTS,
  PLAY_NAMESPACE,
  PLAY_REQUESTS,
  type PlayError,
  type PlayErrorCode,
  type PlayRound,
  type PlayState,
  playRoundSchema,
  playStateSchema,
  type RealityCheckAckAnswer,
  type RevealAnswer,
  realityCheckAckAnswerSchema,
  revealAnswerSchema,
  SESSION_END_CODES,
  type SessionEndCode,
  sessionEndedEventSchema,
} from '@raspa/core';
import { io, type Socket } from 'socket.io-client';
import type { z } from 'zod';

/** A server error code, or OFFLINE when the request could not be sent or answered in time. */
export type ClientErrorCode = PlayErrorCode | 'OFFLINE';
/** A refusal keeps what the server sent with it: a reality check's figures, a too-soon buy's retryAt. */
export type Answer<T> =
  | { ok: true; data: T }
  | ({ ok: false; code: ClientErrorCode; message?: string } & Pick<PlayError, 'realityCheck' | 'retryAt'>);

export type ConnectionStatus = 'connecting' | 'online' | 'offline' | 'expired';

/** The connect_error messages of a session that will never connect again. */
const SESSION_OVER = new Set<string>(['SESSION_EXPIRED', ...SESSION_END_CODES]);

export interface PlayClientEvents {
  status(status: ConnectionStatus): void;
  balance(balance: number): void;
  round(round: PlayRound): void;
  /** The session was ended (by its operator, or the player's exclusion): told before `status('expired')`. */
  ended?(code: SessionEndCode): void;
}

const isSessionEnd = (code: string): code is SessionEndCode =>
  (SESSION_END_CODES as readonly string[]).includes(code);

/**
 * The page's side of the play protocol (docs/play-protocol.md): one Socket.IO connection to /play,
 * authenticated with the session token, requests answered through typed acknowledgements checked
 * with the core's schemas. Socket.IO reconnects by itself after a lost connection; the status
 * tells the page, which then asks for the state again to resume the open round.
 */
export class PlayClient {
  private readonly socket: Socket;
  private status: ConnectionStatus = 'connecting';

  constructor(
    token: string,
    private readonly events: PlayClientEvents,
    private readonly timeoutMs: number,
  ) {
    this.socket = io(PLAY_NAMESPACE, {
      auth: { token },
      // WebSocket first (one round trip less than polling's upgrade); polling if it is blocked.
      transports: ['websocket', 'polling'],
      tryAllTransports: true,
      reconnectionDelay: 500,
      reconnectionDelayMax: 4000,
    });
    this.socket.on('connect', () => this.setStatus('online'));
    this.socket.on('disconnect', (reason) => {
      if (this.status === 'expired') return;
      this.setStatus('offline');
      // A disconnect decided by the server is not retried by Socket.IO; ours is.
      if (reason === 'io server disconnect') this.socket.connect();
    });
    this.socket.on('connect_error', (error: Error) => {
      // Expired, or ended by the operator or an exclusion: reconnecting cannot help.
      if (SESSION_OVER.has(error.message)) {
        if (isSessionEnd(error.message)) this.events.ended?.(error.message);
        this.setStatus('expired');
        this.socket.disconnect();
        return;
      }
      this.setStatus('offline');
    });
    this.socket.on(PLAY_EVENTS.balance, (payload: unknown) => {
      const parsed = balanceEventSchema.safeParse(payload);
      if (parsed.success) this.events.balance(parsed.data.balance);
    });
    this.socket.on(PLAY_EVENTS.round, (payload: unknown) => {
      const parsed = playRoundSchema.safeParse(payload);
      if (parsed.success) this.events.round(parsed.data);
    });
    this.socket.on(PLAY_EVENTS.sessionExpired, () => {
      this.setStatus('expired');
      this.socket.disconnect();
    });
    // The server closes the socket right after: the page says why, then treats it as over.
    this.socket.on(PLAY_EVENTS.sessionEnded, (payload: unknown) => {
      const parsed = sessionEndedEventSchema.safeParse(payload);
      this.events.ended?.(parsed.success ? parsed.data.code : 'SESSION_ENDED');
      this.setStatus('expired');
      this.socket.disconnect();
    });
  }

  get online(): boolean {
    return this.socket.connected;
  }

  state(): Promise<Answer<PlayState>> {
    return this.request(PLAY_REQUESTS.state, undefined, playStateSchema);
  }

  buy(): Promise<Answer<BuyAnswer>> {
    return this.request(PLAY_REQUESTS.buy, {}, buyAnswerSchema);
  }

  reveal(roundId: string): Promise<Answer<RevealAnswer>> {
    return this.request(PLAY_REQUESTS.reveal, { roundId }, revealAnswerSchema);
  }

  /** The player's last rounds of this game, newest first (docs/play-protocol.md, `history`). */
  history(): Promise<Answer<HistoryAnswer>> {
    return this.request(PLAY_REQUESTS.history, {}, historyAnswerSchema);
  }

  /** "Keep playing" at a reality check. */
  realityCheckAck(): Promise<Answer<RealityCheckAckAnswer>> {
    return this.request(PLAY_REQUESTS.realityCheckAck, {}, realityCheckAckAnswerSchema);
  }

  close(): void {
    this.socket.close();
  }

  private setStatus(status: ConnectionStatus): void {
    if (status === this.status) return;
    this.status = status;
    this.events.status(status);
  }

  private async request<T extends z.ZodType>(
    event: string,
    payload: unknown,
    schema: T,
  ): Promise<Answer<z.infer<T>>> {
    // Never queue a request while offline: a buy sent minutes later would surprise the player.
    if (!this.socket.connected) return { ok: false, code: 'OFFLINE' };
    let answer: unknown;
    try {
      const timed = this.socket.timeout(this.timeoutMs);
      answer =
        payload === undefined ? await timed.emitWithAck(event) : await timed.emitWithAck(event, payload);
    } catch {
      return { ok: false, code: 'OFFLINE' };
    }
    const parsed = ackSchema(schema).safeParse(answer);
    if (!parsed.success) return { ok: false, code: 'INVALID_REQUEST' };
    const ack = parsed.data as { ok: true; data: z.infer<T> } | { ok: false; error: PlayError };
    if (ack.ok) return { ok: true, data: ack.data };
    const { code, message, realityCheck, retryAt } = ack.error;
    return {
      ok: false,
      code: code as PlayErrorCode,
      message,
      ...(realityCheck && { realityCheck }),
      ...(retryAt !== undefined && { retryAt }),
    };
  }
}
