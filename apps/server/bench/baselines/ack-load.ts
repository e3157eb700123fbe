import { io, type Socket } from 'socket.io-client';
import { serveParent } from '../kit/child.ts';
import { latency } from '../kit/stats.ts';

/**
 * The bare Socket.IO baseline's load generator (its own process). `connect` opens N clients over
 * WebSocket, as the page connects; `run` has each emit an event with an acknowledgement and await
 * the answer, in a loop, for D seconds, and answers the count and the latency percentiles.
 */
const CONNECT_LIMIT_MS = 30_000;
const ACK_LIMIT_MS = 5000;
const sockets: Socket[] = [];

function connect(url: string): Promise<Socket> {
  const socket = io(`${url}/play`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    timeout: CONNECT_LIMIT_MS,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** One client's loop; an emit unanswered for 5 s counts as an error, not a hang. */
async function loop(socket: Socket, deadline: number, samples: number[]): Promise<number> {
  let errors = 0;
  for (let n = 0; Date.now() < deadline; n++) {
    const start = performance.now();
    try {
      await socket.timeout(ACK_LIMIT_MS).emitWithAck('echo', { roundId: 'round_0123456789', n });
      samples.push(performance.now() - start);
    } catch {
      errors++;
    }
  }
  return errors;
}

serveParent(async (type, body) => {
  if (type === 'connect') {
    const started = performance.now();
    // At most 50 handshakes in flight: a crowd arriving rather than one burst.
    for (let i = 0; i < Number(body.players); i += 50) {
      const batch = Math.min(50, Number(body.players) - i);
      sockets.push(...(await Promise.all(Array.from({ length: batch }, () => connect(String(body.url))))));
    }
    return { connectMs: Math.round(performance.now() - started) };
  }
  if (type === 'run') {
    const samples: number[] = [];
    const started = performance.now();
    const deadline = Date.now() + Number(body.seconds) * 1000;
    const errors = await Promise.all(sockets.map((socket) => loop(socket, deadline, samples)));
    const elapsed = (performance.now() - started) / 1000;
    return {
      acks: samples.length,
      elapsed,
      latencyMs: latency(samples),
      errors: errors.reduce((a, b) => a + b, 0),
    };
  }
  throw new Error(`unknown request ${type}`);
});
