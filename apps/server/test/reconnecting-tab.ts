import { io, type Socket } from 'socket.io-client';

/** A player's page as Socket.IO runs it: it reconnects by itself after a lost connection. */
export interface Tab {
  socket: Socket;
  /** Why its connection dropped, each time. */
  drops: string[];
  /** The answer, 'lost' when the connection dropped first, 'unanswered' after 45 s without either. */
  ask(event: string, payload?: unknown): Promise<any>;
}

/** Connects a tab of the player of `token` to `url` (an instance, or the load balancer). */
export async function openTab(url: string, token: string): Promise<Tab> {
  const socket = io(`${url}/play`, {
    auth: { token },
    transports: ['websocket'],
    forceNew: true,
    reconnectionDelay: 100,
    reconnectionDelayMax: 500,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  const drops: string[] = [];
  socket.on('disconnect', (reason) => drops.push(reason));
  return {
    socket,
    drops,
    ask: (event, payload) =>
      new Promise((resolve) => {
        const lost = () => resolve('lost');
        socket.once('disconnect', lost);
        const answered = (error: Error | null, answer: unknown) => {
          socket.off('disconnect', lost);
          resolve(error ? 'unanswered' : answer);
        };
        // A ceiling against a hang, so a request left without an answer fails the test with its name.
        const timed = socket.timeout(45_000);
        if (payload === undefined) timed.emit(event, answered);
        else timed.emit(event, payload, answered);
      }),
  };
}
