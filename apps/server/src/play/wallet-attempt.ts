import { performance } from 'node:perf_hooks';
import type { LedgerTransaction, WalletAttemptRecord } from '../store/records.ts';
import type { WalletAnswer } from '../wallet/wallet.ts';

/** When a wallet call was sent and how long its answer took. */
export interface SentCall {
  sentAt: string;
  durationMs: number;
}

/** Sends one wallet call, timing it: `sentAt` from the service clock, the duration from a monotonic one. */
export async function timedSend(
  now: () => string,
  send: () => Promise<WalletAnswer>,
): Promise<{ answer: WalletAnswer; sent: SentCall }> {
  const sentAt = now();
  const started = performance.now();
  const answer = await send();
  return { answer, sent: { sentAt, durationMs: Math.round(performance.now() - started) } };
}

/**
 * The attempt log row of one wallet call (the back office's round detail): `call.attempts` is the
 * number of the attempt just made (a call is counted before it is sent).
 */
export function walletAttemptRecord(
  id: string,
  call: Pick<LedgerTransaction, 'id' | 'roundId' | 'attempts'>,
  answer: WalletAnswer,
  sent: SentCall,
): WalletAttemptRecord {
  return {
    id,
    transactionId: call.id,
    roundId: call.roundId,
    attempt: Math.max(1, call.attempts),
    sentAt: sent.sentAt,
    durationMs: sent.durationMs,
    outcome: answer.kind,
    httpStatus: answer.kind === 'declined' ? answer.httpStatus : null,
    balanceMinor: answer.kind === 'ok' ? answer.balanceMinor : null,
    detail:
      answer.kind === 'ok'
        ? null
        : answer.kind === 'declined'
          ? `${answer.code}: ${answer.message}`
          : answer.reason,
  };
}
