/**
 * What a failed delivery attempt leads to (docs/contract.md §7): a retry (and when), or giving the
 * event up, and whether the webhook is disabled. A rule only: attempt.ts reads the inputs
 * and writes the result, in the transaction that logs the attempt.
 */
import { SETTING_DEFAULTS, scheduleMs } from '../config.ts';

const DAY = 24 * 3600 * 1000;

/** Waits after the 1st, 2nd, … failed attempt of an event (docs/contract.md §7); after the last, it is given up. */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = scheduleMs(SETTING_DEFAULTS.WEBHOOK_RETRY_SCHEDULE);

/** The contract's 5 days: for an event's failures and, by default, a webhook's. */
export const DEFAULT_GIVE_UP_AFTER_MS = 5 * DAY;

export interface RetryPolicy {
  /** Milliseconds to wait after each failed attempt; its length is the number of retries. */
  schedule: readonly number[];
  /** An event whose first failure is this old is given up. */
  giveUpAfterMs: number;
  /** A webhook failing (no success) for this long is disabled. */
  disableAfterMs: number;
}

export interface FailedAttempt {
  /** Attempts the event has had, this one included (1 after its first failure). */
  attempts: number;
  /** When this attempt was sent (ISO). */
  at: string;
  /** When the event's first attempt failed (ISO); null when this is its first failure. */
  firstFailureAt: string | null;
  /**
   * When the webhook's current run of failures began (ISO), read before this attempt is logged;
   * null when its last attempt succeeded (or it had none).
   */
  failingSince: string | null;
  /** The receiver answered 410 Gone. */
  gone: boolean;
}

export type DisableReason = '410 Gone' | 'failing for too long';

export type AfterFailure =
  /** Queued again, to be sent at `nextAttemptAt`. */
  | { retry: true; firstFailureAt: string; nextAttemptAt: string }
  /** The event is given up; `disable`: the webhook is disabled too (and its queue dropped), and why. */
  | { retry: false; firstFailureAt: string; disable: DisableReason | null };

/** `now`: when the failure is judged (the attempt's answer, or its time-out, has come). */
export function afterFailure(attempt: FailedAttempt, now: Date, policy: RetryPolicy): AfterFailure {
  const nowMs = now.getTime();
  const firstFailureAt = attempt.firstFailureAt ?? attempt.at;
  const failingSince = attempt.failingSince ?? attempt.at;
  const failingTooLong = nowMs - Date.parse(failingSince) >= policy.disableAfterMs;
  // 410 wins when both hold: it is the receiver's own word.
  const disable: DisableReason | null = attempt.gone
    ? '410 Gone'
    : failingTooLong
      ? 'failing for too long'
      : null;
  const delay = policy.schedule[attempt.attempts - 1];
  const expired = nowMs - Date.parse(firstFailureAt) >= policy.giveUpAfterMs;
  if (disable === null && !expired && delay !== undefined) {
    return { retry: true, firstFailureAt, nextAttemptAt: new Date(nowMs + delay).toISOString() };
  }
  return { retry: false, firstFailureAt, disable };
}
