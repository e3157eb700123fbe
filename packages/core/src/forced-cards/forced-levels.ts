import type { LadderLevel } from '../ladder/ladder-types.ts';

/** What the rule reads of a ladder. */
type Levels = { levels: ReadonlyArray<Pick<LadderLevel, 'level' | 'winners'>> };

/**
 * Forced cards of a test profile (docs/certification.md): the levels a card may be forced to.
 * The card itself is laid out from its level as any drawn ticket is (cards/), but the level comes
 * from the session's queue, never from a pool: no real pool is touched.
 */

/** How many levels one request may queue. */
export const FORCED_CARDS_PER_CALL = 100;

/** A losing card. */
export const LOSING_LEVEL = 0;

/** Whether a card of a version of `ladder` may be forced to `level`: a losing card, or a level with winning tickets. */
export function isForcibleLevel(ladder: Levels, level: number): boolean {
  return level === LOSING_LEVEL || ladder.levels.some((each) => each.level === level && each.winners > 0);
}

/** The levels of `levels` that a version of `ladder` cannot force, each once, in the order first met. */
export function unforcibleLevels(ladder: Levels, levels: readonly number[]): number[] {
  return [...new Set(levels.filter((level) => !isForcibleLevel(ladder, level)))];
}
