import { describe, expect, it } from 'vitest';
import { type BridgeWindow, HostBridge } from './host-bridge.ts';

function fakeWindow() {
  const posted: Array<{ message: unknown; origin: string }> = [];
  let listener: ((event: MessageEvent) => void) | undefined;
  const win: BridgeWindow = {
    parent: { postMessage: (message, origin) => posted.push({ message, origin }) },
    addEventListener: (_type, handler) => {
      listener = handler;
    },
    removeEventListener: () => {
      listener = undefined;
    },
  };
  const receive = (origin: string, data: unknown) => {
    const replies: Array<{ message: unknown; origin: string }> = [];
    const source = {
      postMessage: (message: unknown, target: string) => replies.push({ message, origin: target }),
    };
    listener?.({ origin, data, source } as unknown as MessageEvent);
    return replies;
  };
  return { win, posted, receive };
}

describe('HostBridge', () => {
  it('posts each message to every allowed origin, and to no other', () => {
    const { win, posted } = fakeWindow();
    const bridge = new HostBridge(win, 'session-1', true);
    bridge.setAllowedOrigins([
      'https://casino.example',
      'http://localhost:3000',
      'not an origin',
      'https://a.example/path',
    ]);
    bridge.send({ type: 'balance', balance: 12.5, currency: 'BRL' });
    expect(posted).toEqual([
      {
        message: { source: 'raspa', sessionId: 'session-1', type: 'balance', balance: 12.5, currency: 'BRL' },
        origin: 'https://casino.example',
      },
      {
        message: { source: 'raspa', sessionId: 'session-1', type: 'balance', balance: 12.5, currency: 'BRL' },
        origin: 'http://localhost:3000',
      },
    ]);
  });

  it('posts nothing without allowed origins, or when the page is not framed', () => {
    const alone = fakeWindow();
    new HostBridge(alone.win, 's', true).send({ type: 'balance', balance: 1, currency: 'BRL' });
    expect(alone.posted).toEqual([]);
    const top = fakeWindow();
    const bridge = new HostBridge(top.win, 's', false);
    bridge.setAllowedOrigins(['https://casino.example']);
    bridge.send({ type: 'balance', balance: 1, currency: 'BRL' });
    expect(top.posted).toEqual([]);
  });

  it('answers hello from an allowed origin and ignores every other origin', () => {
    const { win, receive } = fakeWindow();
    const bridge = new HostBridge(win, 's', true);
    bridge.setAllowedOrigins(['https://casino.example']);
    bridge.setReadyInfo({ gameModel: 'oxe-ganhei', balance: 10 });
    const hello = { source: 'raspa-host', type: 'hello' };
    expect(receive('https://evil.example', hello)).toEqual([]);
    expect(receive('https://casino.example', { source: 'raspa-host', type: 'buy' })).toEqual([]);
    expect(receive('https://casino.example', hello)).toEqual([
      {
        message: { source: 'raspa', sessionId: 's', type: 'ready', gameModel: 'oxe-ganhei', balance: 10 },
        origin: 'https://casino.example',
      },
    ]);
  });
});
