import { DEFAULT_PLAY_RULES, type PlayStateRules, playRulesOf } from '@raspa/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatElapsed, NOTHING_SHOWN, rulesShown, showsAnything } from './rules-shown.ts';

const stateRules = (jurisdiction: 'GB' | 'BR' | null, url: string | null = null): PlayStateRules => ({
  ...playRulesOf(jurisdiction),
  rtp: 0.9,
  responsibleGamingUrl: url,
});

describe('what the page shows of the play rules', () => {
  it('shows nothing and offers "Reveal all" without a jurisdiction, or before the state', () => {
    expect(rulesShown(undefined)).toEqual(NOTHING_SHOWN);
    expect(rulesShown(stateRules(null, 'https://rg.example'))).toEqual(NOTHING_SHOWN);
    expect(showsAnything(NOTHING_SHOWN)).toBe(false);
    expect(playRulesOf(null)).toEqual(DEFAULT_PLAY_RULES);
  });

  it('GB: elapsed time and net position, scratch only, 5 s between buys; no RTP, age or link', () => {
    expect(rulesShown(stateRules('GB', 'https://rg.example'))).toEqual({
      elapsed: true,
      net: true,
      revealAll: false,
      minMsBetweenBuys: 5000,
      rtp: null,
      ageNotice: null,
      responsibleGamingUrl: null,
    });
  });

  it('BR: the RTP, 18+ and the responsible-gaming link; "Reveal all" offered, no pace', () => {
    const shown = rulesShown(stateRules('BR', 'https://rg.example/jogo'));
    expect(shown).toEqual({
      elapsed: false,
      net: false,
      revealAll: true,
      minMsBetweenBuys: 0,
      rtp: 0.9,
      ageNotice: 18,
      responsibleGamingUrl: 'https://rg.example/jogo',
    });
    expect(showsAnything(shown)).toBe(true);
  });

  it('links only to a web address the profile set', () => {
    expect(rulesShown(stateRules('BR')).responsibleGamingUrl).toBeNull();
    expect(rulesShown(stateRules('BR', 'javascript:alert(1)')).responsibleGamingUrl).toBeNull();
    expect(rulesShown(stateRules('BR', 'not a url')).responsibleGamingUrl).toBeNull();
  });
});

describe('the elapsed time', () => {
  it('reads in hours, minutes and seconds', () => {
    expect(formatElapsed(0)).toBe('0:00:00');
    expect(formatElapsed(999)).toBe('0:00:00');
    expect(formatElapsed(5_000)).toBe('0:00:05');
    expect(formatElapsed(247_000)).toBe('0:04:07');
    expect(formatElapsed(12 * 3_600_000)).toBe('12:00:00');
    expect(formatElapsed(-5_000)).toBe('0:00:00');
  });

  it('gives back the whole seconds it was given, for any span', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 * 3_600_000 }), (ms) => {
        const [hours, minutes, seconds] = formatElapsed(ms).split(':').map(Number);
        expect(minutes).toBeLessThan(60);
        expect(seconds).toBeLessThan(60);
        expect(((hours ?? 0) * 60 + (minutes ?? 0)) * 60 + (seconds ?? 0)).toBe(Math.floor(ms / 1000));
      }),
    );
  });
});
