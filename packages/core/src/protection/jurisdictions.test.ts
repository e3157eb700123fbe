import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PLAY_RULES,
  JURISDICTION_PRESETS,
  JURISDICTIONS,
  mayBuyStartNow,
  nextBuyAllowedAt,
  playRulesOf,
} from './jurisdictions.ts';
import { playRulesSchema } from './protection-schemas.ts';

const NOW = Date.parse('2026-11-26T03:00:00.000Z');

describe('playRulesOf', () => {
  it('keeps the game as it is without a jurisdiction', () => {
    expect(playRulesOf(null)).toEqual(DEFAULT_PLAY_RULES);
  });

  it('GB: 5 s between buys, no "Reveal all", elapsed time and net position on screen', () => {
    expect(playRulesOf('GB')).toEqual({
      ...DEFAULT_PLAY_RULES,
      minMsBetweenBuys: 5_000,
      revealAll: false,
      showElapsedTime: true,
      showNetPosition: true,
    });
  });

  it('BR: RTP, 18+, the responsible-gaming link, a default reality check and no free cards', () => {
    expect(playRulesOf('BR')).toEqual({
      ...DEFAULT_PLAY_RULES,
      showRtp: true,
      ageNotice: 18,
      showResponsibleGamingLink: true,
      defaultRealityCheckMinutes: 60,
      freeCards: false,
    });
  });

  it('gives every rule of every preset a source, and each rule once', () => {
    for (const jurisdiction of JURISDICTIONS) {
      const { rows } = JURISDICTION_PRESETS[jurisdiction];
      expect(new Set(rows.map((row) => row.rule)).size).toBe(rows.length);
      for (const row of rows) {
        expect(row.source.regulation).not.toBe('');
        expect(row.source.reference).not.toBe('');
      }
      expect(playRulesSchema.parse(playRulesOf(jurisdiction))).toEqual(playRulesOf(jurisdiction));
    }
  });
});

describe('the minimum time between buys', () => {
  it('lets the first buy and any buy without a minimum start at once', () => {
    expect(mayBuyStartNow(null, 5_000, NOW)).toBe(true);
    expect(mayBuyStartNow(NOW, 0, NOW)).toBe(true);
  });

  it('holds a buy until 5 s after the last one', () => {
    expect(nextBuyAllowedAt(NOW - 1_000, 5_000, NOW)).toBe(NOW + 4_000);
    expect(mayBuyStartNow(NOW - 4_999, 5_000, NOW)).toBe(false);
    expect(mayBuyStartNow(NOW - 5_000, 5_000, NOW)).toBe(true);
  });

  it('never waits longer than one gap, even after a clock that went back (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: NOW - 1e7, max: NOW + 1e7 }), fc.nat(60_000), (lastBuyAt, gap) => {
        const allowedAt = nextBuyAllowedAt(lastBuyAt, gap, NOW);
        expect(allowedAt).toBeGreaterThanOrEqual(NOW);
        expect(allowedAt).toBeLessThanOrEqual(NOW + gap);
        expect(mayBuyStartNow(lastBuyAt, gap, NOW)).toBe(gap === 0 || lastBuyAt + gap <= NOW);
      }),
    );
  });
});
