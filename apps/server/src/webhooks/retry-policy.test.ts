import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AfterFailure,
  afterFailure,
  DEFAULT_GIVE_UP_AFTER_MS,
  DEFAULT_RETRY_SCHEDULE,
  type FailedAttempt,
  type RetryPolicy,
} from './retry-policy.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const DEFAULTS: RetryPolicy = {
  schedule: DEFAULT_RETRY_SCHEDULE,
  giveUpAfterMs: DEFAULT_GIVE_UP_AFTER_MS,
  disableAfterMs: DEFAULT_GIVE_UP_AFTER_MS,
};

/** A first failure of a fresh event on a webhook whose last attempt succeeded, sent at T0. */
const first = (over: Partial<FailedAttempt> = {}): FailedAttempt => ({
  attempts: 1,
  at: iso(T0),
  firstFailureAt: null,
  failingSince: null,
  gone: false,
  ...over,
});

// ---- arbitrary inputs: times within 12 days before `now`, so every threshold is crossed both ways

const policy = fc.record({
  schedule: fc.array(fc.nat({ max: 12 * HOUR }), { maxLength: 9 }),
  giveUpAfterMs: fc.nat({ max: 10 * DAY }),
  disableAfterMs: fc.nat({ max: 10 * DAY }),
});
const ago = fc.nat({ max: 12 * DAY });
const failure = fc
  .record({
    attempts: fc.integer({ min: 1, max: 12 }),
    atAgo: ago,
    firstFailureAgo: fc.option(ago, { nil: null }),
    failingSinceAgo: fc.option(ago, { nil: null }),
    gone: fc.boolean(),
    nowMs: fc.integer({ min: T0, max: T0 + 365 * DAY }),
  })
  .map(({ nowMs, atAgo, firstFailureAgo, failingSinceAgo, ...rest }) => ({
    now: new Date(nowMs),
    attempt: {
      ...rest,
      at: iso(nowMs - atAgo),
      firstFailureAt: firstFailureAgo === null ? null : iso(nowMs - firstFailureAgo),
      failingSince: failingSinceAgo === null ? null : iso(nowMs - failingSinceAgo),
    } satisfies FailedAttempt,
  }));

const age = (now: Date, since: string) => now.getTime() - Date.parse(since);

describe('the default schedule (docs/contract.md §7)', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h', () => {
    expect(DEFAULT_RETRY_SCHEDULE).toEqual([
      5 * SECOND,
      5 * MINUTE,
      30 * MINUTE,
      2 * HOUR,
      5 * HOUR,
      10 * HOUR,
      10 * HOUR,
    ]);
    expect(DEFAULT_GIVE_UP_AFTER_MS).toBe(5 * DAY);
  });

  it('retries an always-failing event 7 times, each on its step, then gives it up', () => {
    let attempt = first();
    const waits: number[] = [];
    let verdict: AfterFailure;
    for (;;) {
      const now = new Date(Date.parse(attempt.at) + 20);
      verdict = afterFailure(attempt, now, DEFAULTS);
      if (!verdict.retry) break;
      waits.push(Date.parse(verdict.nextAttemptAt) - now.getTime());
      expect(verdict.firstFailureAt).toBe(iso(T0));
      attempt = {
        ...attempt,
        attempts: attempt.attempts + 1,
        at: verdict.nextAttemptAt,
        firstFailureAt: verdict.firstFailureAt,
        failingSince: iso(T0),
      };
    }
    expect(waits).toEqual(DEFAULT_RETRY_SCHEDULE);
    expect(attempt.attempts).toBe(8);
    // The whole schedule is about 27.5 h: the webhook is not failing long enough to be disabled.
    expect(verdict).toEqual({ retry: false, firstFailureAt: iso(T0), disable: null });
  });
});

describe('afterFailure', () => {
  it('a first failure is retried after the first step, and becomes the event’s first failure', () => {
    const now = new Date(T0 + 150);
    expect(afterFailure(first(), now, DEFAULTS)).toEqual({
      retry: true,
      firstFailureAt: iso(T0),
      nextAttemptAt: iso(T0 + 150 + 5 * SECOND),
    });
  });

  it('410 Gone gives the event up and disables the webhook at once', () => {
    expect(afterFailure(first({ gone: true }), new Date(T0), DEFAULTS)).toEqual({
      retry: false,
      firstFailureAt: iso(T0),
      disable: '410 Gone',
    });
  });

  it('disables a webhook failing for 5 days, even on an event’s first failure', () => {
    const failingSince = iso(T0 - 5 * DAY);
    expect(afterFailure(first({ failingSince }), new Date(T0), DEFAULTS)).toEqual({
      retry: false,
      firstFailureAt: iso(T0),
      disable: 'failing for too long',
    });
    const justUnder = iso(T0 - 5 * DAY + 1);
    expect(afterFailure(first({ failingSince: justUnder }), new Date(T0), DEFAULTS).retry).toBe(true);
  });

  it('says 410 Gone when the webhook is also failing for too long', () => {
    const failingSince = iso(T0 - 6 * DAY);
    const verdict = afterFailure(first({ gone: true, failingSince }), new Date(T0), DEFAULTS);
    expect(verdict).toMatchObject({ retry: false, disable: '410 Gone' });
  });

  it('gives up an event whose first failure is giveUpAfterMs old, without disabling the webhook', () => {
    const policy = { ...DEFAULTS, giveUpAfterMs: HOUR };
    const attempt = first({ attempts: 2, firstFailureAt: iso(T0 - HOUR), failingSince: iso(T0 - HOUR) });
    expect(afterFailure(attempt, new Date(T0), policy)).toEqual({
      retry: false,
      firstFailureAt: iso(T0 - HOUR),
      disable: null,
    });
  });

  it('an empty schedule never retries', () => {
    expect(afterFailure(first(), new Date(T0), { ...DEFAULTS, schedule: [] }).retry).toBe(false);
  });

  it('retries exactly when not gone, the webhook not failing too long, the event not too old and a step is left', () => {
    fc.assert(
      fc.property(failure, policy, ({ attempt, now }, rules) => {
        const verdict = afterFailure(attempt, now, rules);
        const failingTooLong = age(now, attempt.failingSince ?? attempt.at) >= rules.disableAfterMs;
        const tooOld = age(now, attempt.firstFailureAt ?? attempt.at) >= rules.giveUpAfterMs;
        const stepLeft = attempt.attempts <= rules.schedule.length;
        expect(verdict.retry).toBe(!attempt.gone && !failingTooLong && !tooOld && stepLeft);
      }),
    );
  });

  it('a retry is due the step of its attempt after now', () => {
    fc.assert(
      fc.property(failure, policy, ({ attempt, now }, rules) => {
        const verdict = afterFailure(attempt, now, rules);
        if (!verdict.retry) return;
        expect(Date.parse(verdict.nextAttemptAt)).toBe(
          now.getTime() + (rules.schedule[attempt.attempts - 1] as number),
        );
      }),
    );
  });

  it('disables the webhook exactly on 410 or when it has failed for disableAfterMs, and then never retries', () => {
    fc.assert(
      fc.property(failure, policy, ({ attempt, now }, rules) => {
        const verdict = afterFailure(attempt, now, rules);
        const failingTooLong = age(now, attempt.failingSince ?? attempt.at) >= rules.disableAfterMs;
        const disable = verdict.retry ? null : verdict.disable;
        expect(disable).toBe(attempt.gone ? '410 Gone' : failingTooLong ? 'failing for too long' : null);
      }),
    );
  });

  it('keeps the event’s first failure across retries; the first one is this attempt', () => {
    fc.assert(
      fc.property(failure, policy, ({ attempt, now }, rules) => {
        expect(afterFailure(attempt, now, rules).firstFailureAt).toBe(attempt.firstFailureAt ?? attempt.at);
      }),
    );
  });

  it('once given up, stays given up later and after more attempts', () => {
    fc.assert(
      fc.property(
        failure,
        policy,
        fc.nat({ max: 30 * DAY }),
        fc.nat({ max: 5 }),
        ({ attempt, now }, rules, later, more) => {
          if (afterFailure(attempt, now, rules).retry) return;
          const then = new Date(now.getTime() + later);
          expect(afterFailure({ ...attempt, attempts: attempt.attempts + more }, then, rules).retry).toBe(
            false,
          );
        },
      ),
    );
  });
});
