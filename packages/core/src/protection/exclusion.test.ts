import { describe, expect, it } from 'vitest';
import { isExcluded, mayLiftExclusion, newExclusionProblem } from './exclusion.ts';

const NOW = Date.parse('2026-11-26T03:00:00.000Z');

describe('isExcluded', () => {
  it('holds until `until` (exclusive), or forever when null', () => {
    expect(isExcluded(null, NOW)).toBe(false);
    expect(isExcluded({ reason: 'operator', until: null }, NOW + 1e12)).toBe(true);
    expect(isExcluded({ reason: 'self', until: NOW }, NOW - 1)).toBe(true);
    expect(isExcluded({ reason: 'self', until: NOW }, NOW)).toBe(false);
  });
});

describe('mayLiftExclusion', () => {
  it('lifts an operator exclusion at any time', () => {
    expect(mayLiftExclusion({ reason: 'operator', until: null }, NOW)).toEqual({ ok: true });
    expect(mayLiftExclusion({ reason: 'operator', until: NOW + 1 }, NOW)).toEqual({ ok: true });
  });

  it('never lifts a self exclusion early, indefinite or not', () => {
    expect(mayLiftExclusion({ reason: 'self', until: NOW + 1 }, NOW)).toEqual({
      ok: false,
      reason: 'SELF_EXCLUSION',
    });
    expect(mayLiftExclusion({ reason: 'self', until: null }, NOW)).toEqual({
      ok: false,
      reason: 'SELF_EXCLUSION',
    });
  });

  it('has nothing to lift once the exclusion has ended', () => {
    expect(mayLiftExclusion({ reason: 'self', until: NOW }, NOW)).toEqual({
      ok: false,
      reason: 'NOT_EXCLUDED',
    });
    expect(mayLiftExclusion(null, NOW)).toEqual({ ok: false, reason: 'NOT_EXCLUDED' });
  });
});

describe('newExclusionProblem', () => {
  it('refuses an end already past, accepts a future one or none', () => {
    expect(newExclusionProblem(NOW, NOW)).toBe('until must be in the future');
    expect(newExclusionProblem(NOW + 1, NOW)).toBeUndefined();
    expect(newExclusionProblem(null, NOW)).toBeUndefined();
  });
});
