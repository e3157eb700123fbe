import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { serveParent } from '../kit/child.ts';

/**
 * The bare Socket.IO baseline's server: the service's Socket.IO version and options on a plain
 * HTTP server, one namespace, one event answered at once through its acknowledgement. Nothing
 * else runs in this process, so its rate is what Socket.IO itself costs on this machine.
 */
const httpServer = createServer();
// The options of src/realtime/play-socket.ts, so the two differ only by the work behind the event.
const io = new Server(httpServer, { serveClient: false, maxHttpBufferSize: 16 * 1024 });
io.of('/play').on('connection', (socket) => {
  socket.on('echo', (payload: unknown, ack: unknown) => {
    if (typeof ack === 'function') ack({ ok: true, data: payload });
  });
});
const listening = new Promise<number>((resolve) =>
  httpServer.listen(0, '127.0.0.1', () => resolve((httpServer.address() as AddressInfo).port)),
);
serveParent(async () => ({ port: await listening }));
