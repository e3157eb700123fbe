import type { PlayRound } from '@raspa/core';
import { describe, expect, it } from 'vitest';
import { HostAnnouncer } from './host-announcer.ts';
import { type BridgeWindow, HostBridge } from './host-bridge.ts';

const round = (roundId: string, level: number, prize: number): PlayRound =>
  ({ roundId, level, prize, price: 250, status: 'open' }) as PlayRound;

describe('HostAnnouncer', () => {
  it('announces each round once, and each new balance once, in major units', () => {
    const posted: unknown[] = [];
    const win: BridgeWindow = {
      parent: { postMessage: (message) => posted.push(message) },
      addEventListener: () => {},
      removeEventListener: () => {},
    };
    const host = new HostAnnouncer(new HostBridge(win, 's', true));
    host.setGame('fera-sortuda', 'BRL', ['https://casino.example']);
    host.roundOpened(round('r1', 3, 1250));
    host.roundOpened(round('r1', 3, 1250));
    host.balance(99_750);
    host.balance(99_750);
    expect(host.anyClosed).toBe(false);
    host.roundClosed(round('r1', 3, 1250));
    host.roundClosed(round('r1', 3, 1250));
    expect(host.anyClosed).toBe(true);
    expect(posted).toEqual([
      {
        source: 'raspa',
        sessionId: 's',
        type: 'round-open',
        roundId: 'r1',
        price: 2.5,
        currency: 'BRL',
        gameModel: 'fera-sortuda',
      },
      { source: 'raspa', sessionId: 's', type: 'balance', balance: 997.5, currency: 'BRL' },
      {
        source: 'raspa',
        sessionId: 's',
        type: 'round-close',
        roundId: 'r1',
        won: true,
        level: 3,
        prize: 12.5,
        currency: 'BRL',
        gameModel: 'fera-sortuda',
      },
    ]);
  });
});
