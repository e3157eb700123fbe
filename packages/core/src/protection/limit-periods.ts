/**
 * The calendar periods a loss or wager limit counts over (docs/player-protection.md): the current day,
 * ISO week (Monday to Sunday) or month in the profile's IANA time zone, as UTC instants.
 * Built on Intl alone, so the page and the server share it without a time-zone library; times are epoch
 * milliseconds, `now` always passed in.
 */

export const LIMIT_PERIODS = ['day', 'week', 'month'] as const;
export type LimitPeriod = (typeof LIMIT_PERIODS)[number];

/** The current period: it started at `start` (inclusive) and resets at `resetAt` (exclusive). */
export interface PeriodBounds {
  start: number;
  resetAt: number;
}

const DAY_MS = 86_400_000;

// One formatter per zone: building one costs far more than using it, and a buy may ask several times.
// Bounded, since zone names are matched case-insensitively and so come in endless spellings.
const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 1000;

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * The zone's canonical spelling if Intl knows it (an IANA name such as America/Sao_Paulo, or UTC), so a
 * profile stores `America/Sao_Paulo` when sent `america/sao_paulo`; undefined otherwise.
 */
export function canonicalTimeZone(name: string): string | undefined {
  if (name.length === 0 || name.length > 64) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export function isTimeZone(name: string): boolean {
  return canonicalTimeZone(name) !== undefined;
}

/** The wall-clock time at `instant` in the zone, written as if it were UTC (ms, whole seconds). */
function wallClockOf(instant: number, timeZone: string): number {
  const fields: Record<string, string> = {};
  for (const part of formatterOf(timeZone).formatToParts(new Date(instant))) fields[part.type] = part.value;
  const year = Number(fields.year);
  const signedYear = fields.era === 'BC' || fields.era === 'B' ? 1 - year : year;
  const wall = new Date(0);
  wall.setUTCFullYear(signedYear, Number(fields.month) - 1, Number(fields.day));
  wall.setUTCHours(Number(fields.hour), Number(fields.minute), Number(fields.second), 0);
  return wall.getTime();
}

/** The zone's offset from UTC at `instant`, in ms (wall clock − UTC). */
function offsetAt(instant: number, timeZone: string): number {
  return wallClockOf(instant, timeZone) - Math.floor(instant / 1000) * 1000;
}

/**
 * The instants at which the zone's clock shows `wall` (ms as if UTC), earliest first: one, or two when
 * the clock is set back over it. When a DST gap skips it, the one instant the clock jumps past it, so a
 * day whose midnight is skipped starts at the end of the gap (Temporal's "compatible" choice).
 */
export function instantsOfWallClock(wall: number, timeZone: string): number[] {
  // Offsets change at most a few hours within a day; the offsets a day either side bracket any change.
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const candidates = [...new Set([wall - before, wall - after])]
    .filter((instant) => wallClockOf(instant, timeZone) === wall)
    .sort((a, b) => a - b);
  return candidates.length > 0 ? candidates : [wall - before];
}

/** Midnight (as if UTC) of the wall-clock date `wall` lies on. */
function dateOf(wall: number): number {
  return Math.floor(wall / DAY_MS) * DAY_MS;
}

function addMonths(date: number, months: number): number {
  const d = new Date(date);
  d.setUTCMonth(d.getUTCMonth() + months, 1);
  return d.getTime();
}

/** The current `period` at `now` in `timeZone`: when it started and when it resets. */
export function limitPeriodBounds(period: LimitPeriod, timeZone: string, now: number): PeriodBounds {
  const today = dateOf(wallClockOf(now, timeZone));
  let first: number;
  let next: number;
  if (period === 'day') {
    first = today;
    next = today + DAY_MS;
  } else if (period === 'week') {
    // ISO 8601: the week starts on Monday (getUTCDay: Sunday 0 … Saturday 6).
    const daysSinceMonday = (new Date(today).getUTCDay() + 6) % 7;
    first = today - daysSinceMonday * DAY_MS;
    next = first + 7 * DAY_MS;
  } else {
    first = addMonths(today, 0);
    next = addMonths(today, 1);
  }
  // A midnight the clock shows twice: the period started at its first occurrence and resets at the first
  // one still to come, so start <= now < resetAt holds in every zone.
  const starts = instantsOfWallClock(first, timeZone);
  const resets = instantsOfWallClock(next, timeZone);
  const start = starts[0] as number;
  const resetAt = resets.find((instant) => instant > now) ?? (resets.at(-1) as number);
  return { start, resetAt };
}
