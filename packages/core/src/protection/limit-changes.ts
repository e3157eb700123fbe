/**
 * Changing a limit (CONTRACT §13): a stricter value applies at once, a looser one (or removing the limit)
 * only after a cooling-off of 24 hours, so a player cannot lift a limit in the heat of a losing streak.
 * Works on any ceiling where a smaller number protects more: money limits (minor units) and the session's
 * minutes. `null` means no ceiling. Times are epoch milliseconds.
 */

export const LIMIT_COOLING_OFF_MS = 24 * 60 * 60 * 1000;

/** A looser value waiting for its cooling-off to end. */
export interface PendingLimit {
  value: number | null;
  appliesAt: number;
}

/** A ceiling as stored: the value in force and, perhaps, a looser one on its way. */
export interface LimitState {
  value: number | null;
  pending: PendingLimit | null;
}

export const NO_LIMIT: LimitState = { value: null, pending: null };

/** Whether `a` protects at least as much as `b` (null = no ceiling, the loosest). */
export function isAtLeastAsStrict(a: number | null, b: number | null): boolean {
  if (a === null) return b === null;
  return b === null || a <= b;
}

/** The state at `now`: a pending value whose cooling-off is over is in force. */
export function settleLimit(state: LimitState, now: number): LimitState {
  if (state.pending === null || state.pending.appliesAt > now) return state;
  return { value: state.pending.value, pending: null };
}

/** The state after the operator asks for `requested` at `now`. */
export function changeLimit(state: LimitState, requested: number | null, now: number): LimitState {
  const settled = settleLimit(state, now);
  // Stricter or the same: at once, and any looser value still waiting is dropped (the player chose less).
  if (isAtLeastAsStrict(requested, settled.value)) return { value: requested, pending: null };
  // Asking again for the looser value already waiting keeps its clock: a PUT repeated is not a new request.
  if (settled.pending !== null && settled.pending.value === requested) return settled;
  return { value: settled.value, pending: { value: requested, appliesAt: now + LIMIT_COOLING_OFF_MS } };
}

/**
 * A whole set of keyed ceilings replaced at once (a PUT of every limit): a key left out is asked to be
 * removed, which loosens and so waits too. Keys with neither a value nor a pending one are dropped.
 */
export function changeLimits(
  current: ReadonlyMap<string, LimitState>,
  requested: ReadonlyMap<string, number>,
  now: number,
): Map<string, LimitState> {
  const next = new Map<string, LimitState>();
  for (const key of new Set([...current.keys(), ...requested.keys()])) {
    const state = changeLimit(current.get(key) ?? NO_LIMIT, requested.get(key) ?? null, now);
    if (state.value !== null || state.pending !== null) next.set(key, state);
  }
  return next;
}
