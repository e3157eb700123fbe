import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WALLET_RETRY,
  inFlightUntil,
  isoAfter,
  nextAttemptAt,
  prizeGivesUp,
  retryDelay,
  type WalletRetryPolicy,
} from './retry-schedule.ts';

const NOW = '2026-03-01T12:00:00.000Z';
const policy: WalletRetryPolicy = {
  delaysMs: [1_000, 5_000, 60_000],
  prizeGiveUpMs: 86_400_000,
  inFlightMs: 30_000,
};

describe('the wallet retry schedule', () => {
  it('waits the schedule’s delay for the attempt just made, then its last delay forever', () => {
    expect([0, 1, 2, 3, 4, 100].map((attempts) => retryDelay(policy, attempts))).toEqual([
      1_000, 1_000, 5_000, 60_000, 60_000, 60_000,
    ]);
    expect(nextAttemptAt(policy, 2, NOW)).toBe('2026-03-01T12:00:05.000Z');
  });

  it('falls back to 10 minutes with an empty schedule', () => {
    expect(retryDelay({ ...policy, delaysMs: [] }, 3)).toBe(600_000);
  });

  it('by default: quickly at first, then every 10 minutes; never shorter as attempts grow', () => {
    expect(retryDelay(DEFAULT_WALLET_RETRY, 1)).toBe(1_000);
    expect(retryDelay(DEFAULT_WALLET_RETRY, 50)).toBe(600_000);
    fc.assert(
      fc.property(fc.nat(1000), (attempts) => {
        const delay = retryDelay(DEFAULT_WALLET_RETRY, attempts);
        expect(DEFAULT_WALLET_RETRY.delaysMs).toContain(delay);
        expect(retryDelay(DEFAULT_WALLET_RETRY, attempts + 1)).toBeGreaterThanOrEqual(delay);
      }),
    );
  });

  it('leaves a call just sent to its sender for the in-flight time', () => {
    expect(inFlightUntil(policy, NOW)).toBe('2026-03-01T12:00:30.000Z');
    expect(isoAfter(NOW, -60_000)).toBe('2026-03-01T11:59:00.000Z');
  });

  it('gives a prize up once prizeGiveUpMs has passed since it was committed, not a millisecond before', () => {
    const prize = { createdAt: NOW };
    expect(prizeGivesUp(policy, prize, NOW)).toBe(false);
    expect(prizeGivesUp(policy, prize, isoAfter(NOW, 86_400_000 - 1))).toBe(false);
    expect(prizeGivesUp(policy, prize, isoAfter(NOW, 86_400_000))).toBe(true);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * 86_400_000 }), (elapsed) => {
        expect(prizeGivesUp(policy, prize, isoAfter(NOW, elapsed))).toBe(elapsed >= policy.prizeGiveUpMs);
      }),
    );
  });
});
