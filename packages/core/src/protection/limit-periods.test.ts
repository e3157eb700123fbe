import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalTimeZone,
  instantsOfWallClock,
  isTimeZone,
  LIMIT_PERIODS,
  type LimitPeriod,
  limitPeriodBounds,
} from './limit-periods.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;

function bounds(period: LimitPeriod, zone: string, now: string) {
  const { start, resetAt } = limitPeriodBounds(period, zone, at(now));
  return { start: iso(start), resetAt: iso(resetAt) };
}

const wallFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's wall clock at an instant: date, weekday and time, to check bounds against. */
function wallOf(instant: number, timeZone: string) {
  let format = wallFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      timeZoneName: 'longOffset',
    });
    wallFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(new Date(instant));
  const field = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  return {
    weekday: field('weekday'),
    day: Number(field('day')),
    hour: Number(field('hour')),
    minute: Number(field('minute')),
    offset: field('timeZoneName'),
  };
}

describe('limitPeriodBounds', () => {
  it('gives the UTC day, ISO week (from Monday) and month', () => {
    // 2026-11-26 is a Thursday.
    expect(bounds('day', 'UTC', '2026-11-26T03:00:00.000Z')).toEqual({
      start: '2026-11-26T00:00:00.000Z',
      resetAt: '2026-11-27T00:00:00.000Z',
    });
    expect(bounds('week', 'UTC', '2026-11-26T03:00:00.000Z')).toEqual({
      start: '2026-11-23T00:00:00.000Z',
      resetAt: '2026-11-30T00:00:00.000Z',
    });
    expect(bounds('month', 'UTC', '2026-12-31T23:59:59.999Z')).toEqual({
      start: '2026-12-01T00:00:00.000Z',
      resetAt: '2027-01-01T00:00:00.000Z',
    });
  });

  it('counts a Sunday in the week that started the Monday before', () => {
    expect(bounds('week', 'UTC', '2026-11-29T23:59:59.999Z').start).toBe('2026-11-23T00:00:00.000Z');
    expect(bounds('week', 'UTC', '2026-11-30T00:00:00.000Z').start).toBe('2026-11-30T00:00:00.000Z');
  });

  it("follows the profile's zone: a São Paulo day is 03:00 to 03:00 UTC", () => {
    expect(bounds('day', 'America/Sao_Paulo', '2026-11-26T02:59:59.999Z')).toEqual({
      start: '2026-11-25T03:00:00.000Z',
      resetAt: '2026-11-26T03:00:00.000Z',
    });
    expect(bounds('day', 'Asia/Kolkata', '2026-11-26T03:00:00.000Z').start).toBe('2026-11-25T18:30:00.000Z');
  });

  it('has 23- and 25-hour days when London changes its clocks', () => {
    const spring = limitPeriodBounds('day', 'Europe/London', at('2026-03-29T12:00:00.000Z'));
    expect(spring.resetAt - spring.start).toBe(23 * HOUR);
    const autumn = limitPeriodBounds('day', 'Europe/London', at('2026-10-25T12:00:00.000Z'));
    expect(autumn.resetAt - autumn.start).toBe(25 * HOUR);
    expect(iso(autumn.start)).toBe('2026-10-24T23:00:00.000Z');
  });

  it('starts a day whose midnight the clock skips at the end of the gap (São Paulo, 4 Nov 2018)', () => {
    // Clocks went from 00:00 to 01:00 local (UTC−3 to UTC−2): the day began at 01:00, 03:00 UTC.
    expect(bounds('day', 'America/Sao_Paulo', '2018-11-04T12:00:00.000Z')).toEqual({
      start: '2018-11-04T03:00:00.000Z',
      resetAt: '2018-11-05T02:00:00.000Z',
    });
    expect(bounds('day', 'America/Sao_Paulo', '2018-11-03T12:00:00.000Z').resetAt).toBe(
      '2018-11-04T03:00:00.000Z',
    );
  });

  it('ends at the first midnight when the clock shows midnight twice (São Paulo, 17 Feb 2018)', () => {
    // Clocks went back from 00:00 to 23:00 on the 17th (UTC−2 to UTC−3): 23:xx came twice.
    expect(bounds('day', 'America/Sao_Paulo', '2018-02-18T02:30:00.000Z')).toEqual({
      start: '2018-02-17T02:00:00.000Z',
      resetAt: '2018-02-18T03:00:00.000Z',
    });
  });

  it('starts a day at the end of a three-hour gap over midnight (Danmarkshavn, 1 Jan 1996)', () => {
    // The clock went from 23:59:59 on 31 Dec (UTC−3) to 03:00 on 1 Jan (UTC): the day began at 03:00 UTC.
    expect(bounds('day', 'America/Danmarkshavn', '1996-01-01T03:00:00.000Z')).toEqual({
      start: '1996-01-01T03:00:00.000Z',
      resetAt: '1996-01-02T00:00:00.000Z',
    });
    expect(bounds('day', 'America/Danmarkshavn', '1996-01-01T02:59:59.999Z').resetAt).toBe(
      '1996-01-01T03:00:00.000Z',
    );
  });

  it('skips a day the zone dropped (Samoa, 30 Dec 2011)', () => {
    const { start, resetAt } = limitPeriodBounds('day', 'Pacific/Apia', at('2011-12-29T12:00:00.000Z'));
    expect(resetAt - start).toBe(24 * HOUR);
    expect(wallOf(resetAt, 'Pacific/Apia').day).toBe(31);
  });

  const zones = [...Intl.supportedValuesOf('timeZone'), 'UTC'];
  const anyInstant = fc.integer({ min: at('1970-01-01T00:00:00.000Z'), max: at('2100-01-01T00:00:00.000Z') });

  /** The first instant of `year` at which the zone's offset changes, to the minute; undefined: none. */
  function firstTransition(zone: string, year: number): number | undefined {
    const DAY = 24 * HOUR;
    let low = Date.UTC(year, 0, 1);
    const offset = wallOf(low, zone).offset;
    for (let day = low + DAY; day < Date.UTC(year + 1, 0, 1); day += DAY) {
      if (wallOf(day, zone).offset !== offset) {
        let high = day;
        while (high - low > 60_000) {
          const middle = low + Math.floor((high - low) / 2);
          if (wallOf(middle, zone).offset === offset) low = middle;
          else high = middle;
        }
        return high;
      }
      low = day;
    }
    return undefined;
  }

  function checkBounds(zone: string, period: LimitPeriod, now: number): void {
    const { start, resetAt } = limitPeriodBounds(period, zone, now);
    expect(start).toBeLessThanOrEqual(now);
    expect(resetAt).toBeGreaterThan(now);
    // The next period starts when this one resets: no instant counts twice or never.
    expect(limitPeriodBounds(period, zone, resetAt).start).toBe(resetAt);
    expect(limitPeriodBounds(period, zone, start).resetAt).toBe(resetAt);
    const wall = wallOf(start, zone);
    // The date changes at `start`: midnight, or the end of a gap that skipped it (Danmarkshavn's was 3 h).
    expect(wallOf(start - 1000, zone).day).not.toBe(wall.day);
    if (period === 'week') expect(wall.weekday).toBe('Mon');
    if (period === 'month') expect(wall.day).toBe(1);
  }

  it('holds now in [start, resetAt), chains periods and starts them on the right day, in every zone', () => {
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.constantFrom(...LIMIT_PERIODS), anyInstant, checkBounds),
      { numRuns: 1000 },
    );
  });

  it('holds the same around the clock changes of the zones that have them', () => {
    // Random instants seldom fall on the day a clock changes: aim at those days.
    const changing = [
      'America/Sao_Paulo',
      'Europe/London',
      'America/New_York',
      'Australia/Lord_Howe',
      'Pacific/Chatham',
      'America/Havana',
      'Asia/Tehran',
      'Africa/Casablanca',
      'America/Santiago',
      'Pacific/Apia',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...changing),
        fc.constantFrom(...LIMIT_PERIODS),
        fc.integer({ min: 1975, max: 2030 }),
        fc.integer({ min: -36 * HOUR, max: 36 * HOUR }),
        (zone, period, year, shift) => {
          const change = firstTransition(zone, year);
          if (change !== undefined) checkBounds(zone, period, change + shift);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds the instant of a wall-clock time that exists once', () => {
    expect(instantsOfWallClock(at('2026-07-01T12:00:00.000Z'), 'Europe/London')).toEqual([
      at('2026-07-01T11:00:00.000Z'),
    ]);
  });
});

describe('isTimeZone', () => {
  it('accepts IANA names and UTC, refuses the rest', () => {
    expect(isTimeZone('America/Sao_Paulo')).toBe(true);
    expect(isTimeZone('Europe/London')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone('x'.repeat(65))).toBe(false);
    expect(canonicalTimeZone('europe/london')).toBe('Europe/London');
  });
});
