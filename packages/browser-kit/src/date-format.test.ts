import { describe, expect, it } from 'vitest';
import { localTime, utcTime } from './date-format.ts';

const ISO = '2026-03-05T18:04:09.000Z';

describe('times for people', () => {
  it('are shown in UTC, and say so, in the page language', () => {
    expect(utcTime(ISO, 'en')).toBe('3/5/26, 6:04:09 PM UTC');
    expect(utcTime(ISO, 'pt')).toBe('05/03/2026, 18:04:09 UTC');
    expect(utcTime(ISO, 'es')).toBe('5/3/26, 18:04:09 UTC');
    expect(utcTime(ISO, 'en', 'medium')).toBe('Mar 5, 2026, 6:04:09 PM UTC');
  });

  it('show a dash for none and text that is not a time as it came', () => {
    expect(utcTime(null, 'en')).toBe('—');
    expect(utcTime('', 'en')).toBe('—');
    expect(utcTime('yesterday', 'pt')).toBe('yesterday');
  });

  it('are shown to a player in a time zone, without seconds, in their language', () => {
    expect(localTime(ISO, 'pt', 'America/Sao_Paulo')).toBe('05/03/2026, 15:04');
    expect(localTime(ISO, 'en', 'UTC')).toBe('3/5/26, 6:04 PM');
    expect(localTime('soon', 'es')).toBe('soon');
  });
});
