import { describe, expect, it, vi } from 'vitest';
import type { HeldRound, RoundRecord } from '../store/records.ts';
import type { PlayRuntime } from './play-runtime.ts';
import { createPrizeFlow } from './prize-flow.ts';

const NOW = '2026-03-01T12:00:00.000Z';
const wonRound = {
  id: 'round-1',
  playerId: 'player-1',
  status: 'open',
  level: 2,
  cardJson: '{}',
  prizeMinor: 500,
  paidMinor: 200,
  prizeTransactionId: 'prize-1',
  createdAt: NOW,
  endAt: null,
} as unknown as RoundRecord;
const held = { round: wonRound, calls: [], player: { balanceMinor: 9_800 } } as unknown as HeldRound;

describe('closing a won round', () => {
  it('answers a closer whose prize this process is sending already with the round as it stands', async () => {
    // The retrier here took the prize over between this closer's read and its send: sendFirst
    // answers nothing, and the round is no longer what the closer read.
    const closed = { ...wonRound, status: 'closed', endAt: NOW } as RoundRecord;
    const findRound = vi.fn(async () => closed);
    const pushed = vi.fn();
    const runtime = {
      deps: { store: { rounds: { findHeldRound: async () => held, findRound } }, clock: () => new Date(NOW) },
      notifier: { round: pushed },
      retry: { delaysMs: [1_000], prizeGiveUpMs: 86_400_000, inFlightMs: 30_000 },
    } as unknown as PlayRuntime;
    const flow = createPrizeFlow(runtime, { sendFirst: async () => undefined });

    const answer = await flow.closeRound('round-1', 'player-1');

    expect(findRound).toHaveBeenCalledWith('round-1');
    expect(answer?.round.status).toBe('closed');
    expect(pushed).toHaveBeenCalledWith('player-1', expect.objectContaining({ status: 'closed' }));
  });
});
