import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Exclusion,
  isExcluded,
  mayLiftExclusion,
  newExclusionProblem,
  replaceExclusionProblem,
} from './exclusion.ts';

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

describe('replaceExclusionProblem', () => {
  it('replaces an operator exclusion, or one that has ended, with anything', () => {
    const any: Exclusion = { reason: 'operator', until: NOW + 1 };
    expect(replaceExclusionProblem(null, any, NOW)).toBeUndefined();
    expect(replaceExclusionProblem({ reason: 'operator', until: null }, any, NOW)).toBeUndefined();
    expect(replaceExclusionProblem({ reason: 'self', until: NOW }, any, NOW)).toBeUndefined();
  });

  it('extends a self exclusion only with a self one that ends no earlier', () => {
    const self: Exclusion = { reason: 'self', until: NOW + 1000 };
    expect(replaceExclusionProblem(self, { reason: 'self', until: NOW + 1000 }, NOW)).toBeUndefined();
    expect(replaceExclusionProblem(self, { reason: 'self', until: null }, NOW)).toBeUndefined();
    expect(replaceExclusionProblem(self, { reason: 'self', until: NOW + 999 }, NOW)).toMatch(/shortened/);
    expect(replaceExclusionProblem(self, { reason: 'operator', until: null }, NOW)).toMatch(/self/);
    const forever: Exclusion = { reason: 'self', until: null };
    expect(replaceExclusionProblem(forever, { reason: 'self', until: NOW + 1e12 }, NOW)).toMatch(
      /indefinite/,
    );
  });

  it('never lets a replacement make a holding self exclusion liftable sooner', () => {
    const until = fc.option(fc.integer({ min: NOW - 1e6, max: NOW + 1e6 }), { nil: null });
    const exclusion = fc.record({ reason: fc.constantFrom('self' as const, 'operator' as const), until });
    fc.assert(
      fc.property(
        exclusion,
        exclusion,
        fc.integer({ min: NOW - 1e6, max: NOW + 1e6 }),
        (current, next, at) => {
          fc.pre(isExcluded(current, NOW) && current.reason === 'self');
          if (replaceExclusionProblem(current, next, NOW) !== undefined) return;
          // Whenever the old one would still hold and refuse lifting, the new one does too.
          if (at >= NOW && isExcluded(current, at)) {
            expect(isExcluded(next, at)).toBe(true);
            expect(mayLiftExclusion(next, at)).toEqual({ ok: false, reason: 'SELF_EXCLUSION' });
          }
        },
      ),
    );
  });
});
