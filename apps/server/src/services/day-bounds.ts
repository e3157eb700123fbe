/** A YYYY-MM-DD range as ISO time bounds: from the first day's 00:00 (inclusive) to the day after the last (exclusive). */
export interface TimeBounds {
  from: string | null;
  before: string | null;
}

const DAY_MS = 86_400_000;

export function dayBounds(range: {
  dateStart?: string | undefined;
  dateEnd?: string | undefined;
}): TimeBounds {
  return {
    from: range.dateStart ? `${range.dateStart}T00:00:00.000Z` : null,
    before: range.dateEnd ? dayAfter(range.dateEnd) : null,
  };
}

/**
 * Midnight after `date`. Past 9999-12-31 the ISO text would be "+010000-…", which sorts before
 * every stored time, so there is simply no upper bound.
 */
function dayAfter(date: string): string | null {
  const next = new Date(Date.parse(`${date}T00:00:00.000Z`) + DAY_MS);
  return next.getUTCFullYear() > 9999 ? null : next.toISOString();
}
