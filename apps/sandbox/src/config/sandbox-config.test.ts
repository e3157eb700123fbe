import { buildLadder, ladderStats, parSheet } from '@raspa/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, figuresOf, ladderInputOf, playerInputOf, readNumber } from './sandbox-config.ts';

describe('figuresOf', () => {
  it('is the core ladder and its stats for the inputs as typed', () => {
    const config = {
      ...DEFAULT_CONFIG,
      model: 'bumba-meu-green' as const,
      sampling: '2_000_000',
      betPrice: ' 2.50 ',
    };
    const figures = figuresOf(config);
    const expected = buildLadder({
      gameModel: 'bumba-meu-green',
      currency: 'BRL',
      rtp: 0.9,
      sampling: 2_000_000,
      prizedPercent: 0.3,
      betPrice: 2.5,
    });
    if (!expected.ok || !figures.ok) throw new Error('expected ladders');
    expect(figures.ladder).toEqual(expected.ladder);
    expect(figures.stats).toEqual(ladderStats(expected.ladder));
  });

  it('shows in its table the figures of the game’s PAR sheet', () => {
    const figures = figuresOf({ ...DEFAULT_CONFIG, model: 'fera-sortuda', sampling: '500000' });
    if (!figures.ok) throw new Error('expected a ladder');
    const sheet = parSheet(figures.ladder);
    expect(figures.stats.levelOdds).toEqual(sheet.levels.map((level) => level.oneIn));
    expect(figures.ladder.levels.map((level) => level.prize)).toEqual(
      sheet.levels.map((level) => level.prize),
    );
    expect([figures.stats.hitRate, figures.stats.realisedRtp, figures.stats.topPrizeMultiple]).toEqual([
      sheet.hitFrequency,
      sheet.rtp,
      sheet.maxWinMultiple,
    ]);
  });

  it('passes on the core problems word for word, every field at once', () => {
    const figures = figuresOf({
      ...DEFAULT_CONFIG,
      rtp: '0.97',
      sampling: '',
      prizedPercent: '0,3',
      betPrice: '0.001',
    });
    expect(figures.ok).toBe(false);
    const core = buildLadder(
      ladderInputOf({
        ...DEFAULT_CONFIG,
        rtp: '0.97',
        sampling: '',
        prizedPercent: '0,3',
        betPrice: '0.001',
      }),
    );
    expect(core.ok).toBe(false);
    if (figures.ok || core.ok) return;
    expect(figures.problems).toEqual(core.problems);
    expect(figures.problems.map((problem) => problem.field)).toEqual([
      'rtp',
      'prizedPercent',
      'sampling',
      'betPrice',
    ]);
    expect(figures.problems[0]?.message).toBe('rtp must be a number between 0.50 and 0.95');
  });

  it('explains a combination that cannot work', () => {
    const figures = figuresOf({
      ...DEFAULT_CONFIG,
      rtp: '0.5',
      sampling: '100001',
      prizedPercent: '1',
      betPrice: '0.01',
    });
    expect(figures).toMatchObject({
      ok: false,
      problems: [{ field: 'ladder', message: expect.stringMatching(/^the prize budget/) }],
    });
  });
});

describe('reading what was typed', () => {
  it('allows digit grouping with spaces and underscores, nothing else', () => {
    expect(readNumber('1 000 000')).toBe(1_000_000);
    expect(readNumber('1_000_000')).toBe(1_000_000);
    expect(readNumber(' 0.9 ')).toBe(0.9);
    expect(readNumber('')).toBeNaN();
    expect(readNumber('0,9')).toBeNaN();
  });

  it('checks N cards and the seed with the core limits', () => {
    expect(playerInputOf(DEFAULT_CONFIG)).toEqual({ ok: true, cards: 100, seed: 1 });
    expect(playerInputOf({ ...DEFAULT_CONFIG, cards: '20000' })).toEqual({
      ok: false,
      field: 'cards',
      message: 'cards must be a whole number from 1 to 10,000',
    });
    expect(playerInputOf({ ...DEFAULT_CONFIG, seed: '-3' })).toMatchObject({ ok: false, field: 'seed' });
  });
});
