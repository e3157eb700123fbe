/** The overview's periods: today, the last 7 and the last 30 UTC days, today included. */
export const PERIODS = ['today', 'week', 'month'] as const;
export type Period = (typeof PERIODS)[number];

const DAYS: Record<Period, number> = { today: 1, week: 7, month: 30 };
const DAY_MS = 86_400_000;

/** A UTC day as the API's date filters take it (YYYY-MM-DD). */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The whole UTC days of a period ending on the day of `now`, both ends included. */
export function periodRange(period: Period, now: number): { dateStart: string; dateEnd: string } {
  return { dateStart: utcDay(now - (DAYS[period] - 1) * DAY_MS), dateEnd: utcDay(now) };
}

/** Every UTC day from dateStart to dateEnd, in order (both given as YYYY-MM-DD). */
export function daysBetween(dateStart: string, dateEnd: string): string[] {
  const days: string[] = [];
  const end = Date.parse(`${dateEnd}T00:00:00Z`);
  for (let at = Date.parse(`${dateStart}T00:00:00Z`); at <= end; at += DAY_MS) days.push(utcDay(at));
  return days;
}
