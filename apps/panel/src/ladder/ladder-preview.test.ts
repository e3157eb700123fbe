import { GAME_MODELS } from '@raspa/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { payoutSpread, previewLadder } from './ladder-preview.ts';

const input = { currency: 'BRL', rtp: 0.9, sampling: 1_000_000, prizedPercent: 0.3, betPrice: 2 };

describe('previewLadder', () => {
  it('shows the core ladder with its figures for every model', () => {
    for (const gameModel of GAME_MODELS) {
      const preview = previewLadder({ ...input, gameModel });
      expect(preview.ok).toBe(true);
      if (!preview.ok) continue;
      expect(preview.ladder.levels).toHaveLength(8);
      expect(Math.abs(preview.stats.realisedRtp - 0.9)).toBeLessThanOrEqual(0.001);
    }
  });

  it('ranks the flat model calmer than the wild one', () => {
    const flat = previewLadder({ ...input, gameModel: 'frevo-da-sorte' });
    const wild = previewLadder({ ...input, gameModel: 'fera-sortuda' });
    if (!flat.ok || !wild.ok) throw new Error('expected ladders');
    expect(flat.spread).toBeLessThan(wild.spread);
    expect(flat.volatility).toBe('low');
    expect(wild.volatility).toBe('extreme');
  });

  it('says why an impossible input has no ladder, naming the field', () => {
    const preview = previewLadder({ ...input, gameModel: 'oxe-ganhei', betPrice: 0.001 });
    expect(preview).toMatchObject({ ok: false, problems: [expect.objectContaining({ field: 'betPrice' })] });
  });
});

describe('payoutSpread', () => {
  it('is the standard deviation of the prize in ticket prices: 0 for a ladder where every card pays the same', () => {
    const ladder = {
      sampling: 4,
      betPrice: 100,
      levels: [{ level: 1, winners: 4, prize: 90, totalPrize: 360, percentage: 1 }],
    } as Parameters<typeof payoutSpread>[0];
    expect(payoutSpread(ladder)).toBe(0);
  });

  it('matches the two-outcome formula: a card paying k with chance p has spread k·√(p(1−p))', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999 }), fc.integer({ min: 1, max: 10_000 }), (winners, prize) => {
        const ladder = {
          sampling: 1000,
          betPrice: 100,
          levels: [{ level: 1, winners, prize, totalPrize: winners * prize, percentage: 1 }],
        } as Parameters<typeof payoutSpread>[0];
        const p = winners / 1000;
        const k = prize / 100;
        expect(payoutSpread(ladder)).toBeCloseTo(k * Math.sqrt(p * (1 - p)), 9);
      }),
    );
  });
});
