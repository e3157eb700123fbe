import { describe, expect, it } from 'vitest';
import { countedAdapter, crossProcessKind, MessageType } from './counted-adapter.ts';

describe('the count of messages between processes', () => {
  it('names each of the adapters’ message types', () => {
    const kinds = Array.from({ length: 13 }, (_, i) => crossProcessKind(i + 1));
    expect(kinds).toEqual([
      'heartbeat', // INITIAL_HEARTBEAT
      'heartbeat', // HEARTBEAT
      'push', // BROADCAST
      'other', // SOCKETS_JOIN
      'other', // SOCKETS_LEAVE
      'other', // DISCONNECT_SOCKETS
      'other', // FETCH_SOCKETS
      'other', // FETCH_SOCKETS_RESPONSE
      'presence', // SERVER_SIDE_EMIT
      'presence', // SERVER_SIDE_EMIT_RESPONSE
      'other', // BROADCAST_CLIENT_COUNT
      'other', // BROADCAST_ACK
      'heartbeat', // ADAPTER_CLOSE
    ]);
    expect(crossProcessKind(MessageType.SERVER_SIDE_EMIT, 'raspa:session-ended')).toBe('session_end');
  });

  it('counts every message an adapter it makes sends, and sends it', async () => {
    const sent: unknown[] = [];
    // Socket.IO's factories are plain functions called with `new`, as this one.
    function factory(this: unknown, nsp: unknown) {
      return {
        nsp,
        doPublish: async (message: { type: number }) => sent.push(message),
        doPublishResponse: async (_to: string, response: { type: number }) => sent.push(response),
      };
    }
    const counted: string[] = [];
    const Made = countedAdapter(factory as never, (kind) => counted.push(kind)) as unknown as new (
      nsp: unknown,
    ) => {
      nsp: unknown;
      doPublish(message: { type: number }): Promise<unknown>;
      doPublishResponse(to: string, response: { type: number }): Promise<unknown>;
    };
    const adapter = new Made('/play');
    expect(adapter.nsp).toBe('/play');
    await adapter.doPublish({ type: MessageType.BROADCAST });
    await adapter.doPublish({ type: MessageType.HEARTBEAT });
    await adapter.doPublishResponse('other', { type: MessageType.SERVER_SIDE_EMIT_RESPONSE });
    expect(counted).toEqual(['push', 'heartbeat', 'presence']);
    expect(sent).toHaveLength(3);
  });
});
