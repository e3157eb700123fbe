import { PLAY_NAMESPACE, PLAY_REQUESTS } from '@raspa/core';
import { io, type Socket } from 'socket.io-client';
import { serveParent } from '../kit/child.ts';
import { rssMb } from '../kit/machine.ts';
import { type Latency, latency } from '../kit/stats.ts';

/**
 * One load-generator process of the idle-connections bench. Asked to `connect` (url, session
 * tokens), it connects each player the way the page does (WebSocket to /play with the session
 * token, then one `state` request, as the page asks for its first state), sending `progress` as it
 * goes; then it holds the connections idle until asked to `close`, counting any the server drops.
 */
export type ConnectOrder = {
  url: string;
  tokens: string[];
  /** Handshakes in flight at once in this process. */
  concurrency: number;
  /** Ask for the state after connecting, as the page does. */
  askState: boolean;
};

export type Connected = {
  connected: number;
  failed: number;
  errors: Record<string, number>;
  connectMs: number;
  stateMs: Latency;
  stateErrors: number;
  rssMb: number | null;
};

export type Closed = {
  /** Connections that ended while they should have been idle (server drop, missed ping). */
  droppedWhileIdle: number;
  dropReasons: Record<string, number>;
};

const CONNECT_LIMIT_MS = 60_000;
const STATE_LIMIT_MS = 30_000;
const sockets: Socket[] = [];
const errors: Record<string, number> = {};
const dropReasons: Record<string, number> = {};
const stateSamples: number[] = [];
let stateErrors = 0;
let failed = 0;
let dropped = 0;
let closing = false;

const countError = (into: Record<string, number>, reason: string) => {
  into[reason] = (into[reason] ?? 0) + 1;
};

async function connectOne(url: string, token: string, askState: boolean): Promise<void> {
  const socket = io(`${url}${PLAY_NAMESPACE}`, {
    auth: { token },
    transports: ['websocket'],
    forceNew: true,
    reconnection: false, // a failed player counts as failed; a retry would hide it
    timeout: CONNECT_LIMIT_MS,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
  } catch (error) {
    socket.close();
    failed++;
    countError(errors, error instanceof Error ? error.message : String(error));
    return;
  }
  sockets.push(socket);
  socket.on('disconnect', (reason) => {
    if (closing) return;
    dropped++;
    countError(dropReasons, reason);
  });
  if (!askState) return;
  const start = performance.now();
  try {
    const answer = await socket.timeout(STATE_LIMIT_MS).emitWithAck(PLAY_REQUESTS.state);
    if (answer?.ok) stateSamples.push(performance.now() - start);
    else {
      stateErrors++;
      countError(errors, `state: ${answer?.error?.code ?? 'no answer'}`);
    }
  } catch {
    stateErrors++;
    countError(errors, 'state: timed out');
  }
}

async function connectAll(order: ConnectOrder): Promise<Connected> {
  const started = performance.now();
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let index = next++; index < order.tokens.length; index = next++) {
      await connectOne(order.url, order.tokens[index] ?? '', order.askState);
      if (++done % 250 === 0) process.send?.({ type: 'progress', done });
    }
  };
  await Promise.all(Array.from({ length: Math.min(order.concurrency, order.tokens.length) }, worker));
  return {
    connected: sockets.length,
    failed,
    errors,
    connectMs: Math.round(performance.now() - started),
    stateMs: latency(stateSamples),
    stateErrors,
    rssMb: rssMb(process.pid),
  };
}

function closeAll(): Closed {
  closing = true;
  for (const socket of sockets) socket.close();
  return { droppedWhileIdle: dropped, dropReasons };
}

serveParent(async (type, body) => {
  if (type === 'connect') return connectAll(body as ConnectOrder);
  if (type === 'close') return closeAll();
  throw new Error(`unknown request ${type}`);
});
