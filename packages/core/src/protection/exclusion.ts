/**
 * Exclusion (CONTRACT §13): while one holds, the player's sessions end and no buy or new session is
 * allowed. An operator exclusion may be lifted at any time; a self exclusion only ends at its `until`
 * (an indefinite one never by lifting), so a player cannot undo in a weak moment what they chose.
 * Times are epoch ms.
 */

export interface Exclusion {
  reason: 'self' | 'operator';
  /** When it ends; null: indefinite. */
  until: number | null;
}

/** Whether an exclusion holds at `now` (an indefinite one always does). */
export function isExcluded(exclusion: Exclusion | null, now: number): boolean {
  return exclusion !== null && (exclusion.until === null || now < exclusion.until);
}

/** Why a new exclusion cannot be set, or undefined: an end already past would exclude no one. */
export function newExclusionProblem(until: number | null, now: number): string | undefined {
  return until !== null && until <= now ? 'until must be in the future' : undefined;
}

export type LiftDecision = { ok: true } | { ok: false; reason: 'NOT_EXCLUDED' | 'SELF_EXCLUSION' };

/** Whether `DELETE …/exclusion` may lift the exclusion at `now`. */
export function mayLiftExclusion(exclusion: Exclusion | null, now: number): LiftDecision {
  if (!isExcluded(exclusion, now)) return { ok: false, reason: 'NOT_EXCLUDED' };
  if (exclusion?.reason === 'self') return { ok: false, reason: 'SELF_EXCLUSION' };
  return { ok: true };
}

/**
 * Why `next` cannot replace the exclusion in place at `now`, or undefined. A self exclusion that holds
 * may only be extended by another self exclusion ending no earlier (or indefinite): replacing it with
 * an operator one, or a shorter one, would let it be lifted early, which mayLiftExclusion forbids.
 */
export function replaceExclusionProblem(
  current: Exclusion | null,
  next: Exclusion,
  now: number,
): string | undefined {
  if (current === null || !isExcluded(current, now) || current.reason !== 'self') return undefined;
  if (next.reason !== 'self') return 'a self exclusion holds; only a longer self exclusion may replace it';
  if (current.until === null && next.until !== null) return 'an indefinite self exclusion holds';
  if (current.until !== null && next.until !== null && next.until < current.until)
    return 'a self exclusion holds until later; it cannot be shortened';
  return undefined;
}
