import { describe, expect, it } from 'vitest';
import { walletAttemptRecord } from './wallet-attempt.ts';

describe('walletAttemptRecord', () => {
  const call = { id: 'tx-1', roundId: 'round-1', attempts: 2 };
  const sent = { sentAt: '2026-03-01T12:00:00.000Z', durationMs: 15 };

  it('keeps the balance of a yes, the status and code of a decline, the reason of no answer', () => {
    expect(walletAttemptRecord('a', call, { kind: 'ok', balanceMinor: 950 }, sent)).toEqual({
      id: 'a',
      transactionId: 'tx-1',
      roundId: 'round-1',
      attempt: 2,
      ...sent,
      outcome: 'ok',
      httpStatus: null,
      balanceMinor: 950,
      detail: null,
    });
    const declined = walletAttemptRecord(
      'b',
      call,
      { kind: 'declined', code: 'INSUFFICIENT_FUNDS', message: 'no money', httpStatus: 402 },
      sent,
    );
    expect(declined).toMatchObject({
      outcome: 'declined',
      httpStatus: 402,
      detail: 'INSUFFICIENT_FUNDS: no money',
    });
    const unknown = walletAttemptRecord(
      'c',
      { ...call, attempts: 0 },
      { kind: 'unknown', reason: 'time-out' },
      sent,
    );
    expect(unknown).toMatchObject({
      outcome: 'unknown',
      httpStatus: null,
      balanceMinor: null,
      detail: 'time-out',
      attempt: 1,
    });
  });
});
