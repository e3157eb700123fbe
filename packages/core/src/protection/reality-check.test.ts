import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  realityCheckDueAt,
  realityCheckFigures,
  realityCheckMinutesOf,
  type SummaryRound,
} from './reality-check.ts';

const START = Date.parse('2026-11-26T03:00:00.000Z');
const MINUTE = 60_000;

describe('realityCheckMinutesOf', () => {
  it("takes the player's interval, else the profile's, else the jurisdiction's", () => {
    expect(realityCheckMinutesOf({ player: 15, profile: 30, jurisdiction: 60 })).toBe(15);
    expect(realityCheckMinutesOf({ player: null, profile: 30, jurisdiction: 60 })).toBe(30);
    expect(realityCheckMinutesOf({ player: null, profile: null, jurisdiction: 60 })).toBe(60);
    expect(realityCheckMinutesOf({ player: null, profile: null, jurisdiction: null })).toBeNull();
  });
});

describe('realityCheckDueAt', () => {
  it('falls due an interval after the session starts, then an interval after each "Keep playing"', () => {
    expect(realityCheckDueAt({ intervalMinutes: 30, sessionStartedAt: START, lastContinuedAt: null })).toBe(
      START + 30 * MINUTE,
    );
    // Answered 10 minutes late: the next one is 30 minutes after the answer, not 20.
    expect(
      realityCheckDueAt({
        intervalMinutes: 30,
        sessionStartedAt: START,
        lastContinuedAt: START + 40 * MINUTE,
      }),
    ).toBe(START + 70 * MINUTE);
  });

  it('never falls due without an interval', () => {
    expect(
      realityCheckDueAt({ intervalMinutes: null, sessionStartedAt: START, lastContinuedAt: null }),
    ).toBeNull();
  });
});

describe('realityCheckFigures', () => {
  const round = (status: SummaryRound['status'], paidMinor: number, prizeMinor: number): SummaryRound => ({
    status,
    paidMinor,
    prizeMinor,
  });

  it('counts confirmed bets as wagered and paid prizes as won', () => {
    const rounds = [
      round('closed', 200, 1000),
      round('closed', 200, 0),
      round('open', 200, 500), // bought, prize not paid yet
      round('closing', 200, 400), // prize on its way
      round('declined', 200, 0),
      round('voided', 200, 0),
      round('pending', 200, 0),
    ];
    expect(realityCheckFigures(rounds, START, START + 61 * MINUTE + 59_999)).toEqual({
      elapsedMinutes: 61,
      wagered: 800,
      won: 1000,
      net: 200,
    });
  });

  it('shows zeros for a session without rounds', () => {
    expect(realityCheckFigures([], START, START)).toEqual({ elapsedMinutes: 0, wagered: 0, won: 0, net: 0 });
  });

  it('always has net = won − wagered, and wagered counts every confirmed bet (property)', () => {
    const anyRound = fc.record({
      status: fc.constantFrom('pending', 'open', 'closing', 'closed', 'declined', 'voided') as fc.Arbitrary<
        SummaryRound['status']
      >,
      paidMinor: fc.integer({ min: 1, max: 1e6 }),
      prizeMinor: fc.integer({ min: 0, max: 1e8 }),
    });
    fc.assert(
      fc.property(fc.array(anyRound, { maxLength: 50 }), fc.nat(1e9), (rounds, elapsed) => {
        const figures = realityCheckFigures(rounds, START, START + elapsed);
        expect(figures.net).toBe(figures.won - figures.wagered);
        expect(figures.elapsedMinutes).toBe(Math.floor(elapsed / MINUTE));
        const confirmed = rounds.filter((r) => ['open', 'closing', 'closed'].includes(r.status));
        expect(figures.wagered).toBe(confirmed.reduce((sum, r) => sum + r.paidMinor, 0));
      }),
    );
  });
});
