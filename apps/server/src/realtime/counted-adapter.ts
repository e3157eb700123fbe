import type { ServerOptions } from 'socket.io';
import type { CrossProcessKind } from '../ops/metrics.ts';
import { SESSION_ENDED_EVENT } from './session-endings.ts';

/**
 * The message types of Socket.IO's cluster adapters (socket.io-adapter's `MessageType`, part of
 * their wire protocol; that package is socket.io's own dependency, not one of ours).
 */
export const MessageType = {
  INITIAL_HEARTBEAT: 1,
  HEARTBEAT: 2,
  BROADCAST: 3,
  SERVER_SIDE_EMIT: 9,
  SERVER_SIDE_EMIT_RESPONSE: 10,
  ADAPTER_CLOSE: 13,
} as const;

/**
 * The kind of one of the Socket.IO cluster adapter's messages, by its type and, for a server-side
 * emit, its event (`event`: the first element of the message's `data.packet`).
 */
export function crossProcessKind(type: number, event?: unknown): CrossProcessKind {
  switch (type) {
    // The play layer broadcasts only pushes; between servers it sends presence and session endings.
    case MessageType.BROADCAST:
      return 'push';
    case MessageType.SERVER_SIDE_EMIT:
      return event === SESSION_ENDED_EVENT ? 'session_end' : 'presence';
    case MessageType.SERVER_SIDE_EMIT_RESPONSE:
      return 'presence';
    case MessageType.INITIAL_HEARTBEAT:
    case MessageType.HEARTBEAT:
    case MessageType.ADAPTER_CLOSE:
      return 'heartbeat';
    default:
      return 'other';
  }
}

type AdapterFactory = ServerOptions['adapter'];
type Published = { type: number; data?: { packet?: unknown } };
type Publish = (...args: unknown[]) => Promise<unknown>;

/**
 * The adapter `factory` makes, each counting every message it sends to the other processes. The
 * cluster adapters (cluster IPC, PostgreSQL NOTIFY) send all of them through `doPublish` and
 * `doPublishResponse`, so those two are wrapped on each adapter made.
 */
export function countedAdapter(
  factory: AdapterFactory,
  count: (kind: CrossProcessKind) => void,
): AdapterFactory {
  // A plain function: Socket.IO calls the factory with `new`.
  return function counted(nsp: unknown) {
    const adapter = new (factory as new (nsp: unknown) => object)(nsp) as Record<string, unknown>;
    for (const name of ['doPublish', 'doPublishResponse'] as const) {
      const send = adapter[name];
      if (typeof send !== 'function') continue;
      adapter[name] = function (this: unknown, ...args: unknown[]) {
        const message = args.at(-1) as Published;
        const packet = message.data?.packet;
        count(crossProcessKind(message.type, Array.isArray(packet) ? packet[0] : undefined));
        return (send as Publish).apply(this, args);
      };
    }
    return adapter;
  } as unknown as AdapterFactory;
}
