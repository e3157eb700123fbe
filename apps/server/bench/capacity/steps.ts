/**
 * The sustainable rate (issue 34 item 5): the highest offered load at which players still get a
 * quick buy and the receiver a quick event. Found by offering less and less of the flat-out rate
 * (each player pausing `thinkMs` after each round) until a run keeps within both limits.
 */
export const LIMITS = { buyP99Ms: 250, lagP99Ms: 1000 } as const;

/** The shares of the flat-out rate offered, in the order tried. */
export const OFFERED_SHARES = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2] as const;

export interface StepFigures {
  roundsPerSecond: number;
  buyP99Ms: number;
  lagP99Ms: number;
}

export const withinLimits = (run: StepFigures) =>
  run.buyP99Ms < LIMITS.buyP99Ms && run.lagP99Ms < LIMITS.lagP99Ms;

/**
 * The pause after each round that offers `share` of the flat-out rate: flat out, each of the
 * `players` plays a round every players ÷ rate seconds with no pause; at `share` of it, every
 * players ÷ (share × rate), the difference spent thinking. (Rounds answer faster below saturation,
 * so the rate offered comes out a little above the share; the run's measured rate is what counts.)
 */
export function thinkMsFor(players: number, flatOutRoundsPerSecond: number, share: number): number {
  const cycleMs = (players / (share * flatOutRoundsPerSecond)) * 1000;
  const flatOutCycleMs = (players / flatOutRoundsPerSecond) * 1000;
  return Math.max(0, Math.round(cycleMs - flatOutCycleMs));
}

/**
 * Events not yet delivered at the end of a run, in seconds of the run's rounds (two events a
 * round): the issue asks for under 1 s flat out.
 */
export const backlogSeconds = (undeliveredEvents: number, roundsPerSecond: number) =>
  roundsPerSecond > 0 ? Math.round((undeliveredEvents / (2 * roundsPerSecond)) * 100) / 100 : null;
