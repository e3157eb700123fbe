import type { z } from 'zod';
import type { roundStatusSchema } from '../protocol/play-protocol.ts';
import type { RealityCheck } from './protection-schemas.ts';

/**
 * Reality checks (CONTRACT §13): every N minutes of a session the next buy is held until the player has
 * seen what the session cost them and chosen to keep playing. Times are epoch milliseconds; money is
 * integer minor units of one currency (a session plays one game, so one currency).
 */

const MINUTE_MS = 60_000;

/** The interval in force: the player's, else the profile's, else the jurisdiction's default; null: none. */
export function realityCheckMinutesOf(choices: {
  player: number | null;
  profile: number | null;
  jurisdiction: number | null;
}): number | null {
  return choices.player ?? choices.profile ?? choices.jurisdiction;
}

/**
 * When the next check falls due: an interval after the session started or, once the player has chosen
 * "Keep playing", after that choice (a check answered late does not make the next one come early).
 */
export function realityCheckDueAt(input: {
  intervalMinutes: number | null;
  sessionStartedAt: number;
  lastContinuedAt: number | null;
}): number | null {
  if (input.intervalMinutes === null) return null;
  return (input.lastContinuedAt ?? input.sessionStartedAt) + input.intervalMinutes * MINUTE_MS;
}

/** A session's round as the summary needs it (the server's RoundRecord has these fields). */
export interface SummaryRound {
  status: z.infer<typeof roundStatusSchema>;
  paidMinor: number;
  prizeMinor: number;
}

// A round counts as wagered once its bet is confirmed (open onwards) and as won once its prize is paid
// (closed); a pending bet may still be declined, a declined or voided one moved no money.
const WAGERED: ReadonlySet<SummaryRound['status']> = new Set(['open', 'closing', 'closed']);

/** The figures the page shows: minutes played, wagered, won and the net (won − wagered). */
export function realityCheckFigures(
  rounds: readonly SummaryRound[],
  sessionStartedAt: number,
  now: number,
): RealityCheck {
  let wagered = 0;
  let won = 0;
  for (const round of rounds) {
    if (WAGERED.has(round.status)) wagered += round.paidMinor;
    if (round.status === 'closed') won += round.prizeMinor;
  }
  return {
    elapsedMinutes: Math.max(0, Math.floor((now - sessionStartedAt) / MINUTE_MS)),
    wagered,
    won,
    net: won - wagered,
  };
}
