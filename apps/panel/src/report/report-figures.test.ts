import type { ReportRow } from '@raspa/server/wire';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysBetween, periodRange } from './periods.ts';
import { dailyGgr, gameFigures, sumRows } from './report-figures.ts';

const row = (key: string, currency: string, bets: number, prizes: number, rollbacks = 0): ReportRow => ({
  key,
  currency,
  rounds: 1,
  players: 1,
  bets,
  prizes,
  rollbacks,
  promoRounds: 0,
  promoPrizes: 0,
  ggr: Math.round((bets - prizes - rollbacks) * 100) / 100,
  rtp: bets === 0 ? null : prizes / bets,
});

describe('periods', () => {
  it('are whole UTC days ending today: 1, 7 and 30 of them', () => {
    const now = Date.parse('2026-03-05T23:59:59Z');
    expect(periodRange('today', now)).toEqual({ dateStart: '2026-03-05', dateEnd: '2026-03-05' });
    expect(periodRange('week', now)).toEqual({ dateStart: '2026-02-27', dateEnd: '2026-03-05' });
    const month = periodRange('month', now);
    expect(daysBetween(month.dateStart, month.dateEnd)).toHaveLength(30);
  });
});

describe('sumRows', () => {
  it('adds cents exactly, per currency, and derives the RTP from the sums', () => {
    const cents = fc.integer({ min: 0, max: 10_000_000 }).map((value) => value / 100);
    fc.assert(
      fc.property(fc.array(fc.tuple(cents, cents), { maxLength: 30 }), (pairs) => {
        const rows = pairs.map(([bets, prizes], index) => row(`d${index}`, 'BRL', bets, prizes));
        const totals = sumRows([...rows, row('x', 'USD', 5, 1)], 'BRL');
        const betCents = pairs.reduce((sum, [bets]) => sum + Math.round(bets * 100), 0);
        const prizeCents = pairs.reduce((sum, [, prizes]) => sum + Math.round(prizes * 100), 0);
        expect(Math.round(totals.bets * 100)).toBe(betCents);
        expect(Math.round(totals.ggr * 100)).toBe(betCents - prizeCents);
        expect(totals.rounds).toBe(pairs.length);
        expect(totals.rtp).toBe(betCents === 0 ? null : totals.prizes / totals.bets);
      }),
    );
  });
});

describe('dailyGgr', () => {
  it('has every day of the range, 0 where nothing was played, other currencies left out', () => {
    const rows = [
      row('2026-03-02', 'BRL', 10, 4),
      row('2026-03-02', 'USD', 9, 0),
      row('2026-03-04', 'BRL', 2, 5),
    ];
    expect(dailyGgr(rows, 'BRL', '2026-03-01', '2026-03-04')).toEqual([
      { day: '2026-03-01', ggr: 0 },
      { day: '2026-03-02', ggr: 6 },
      { day: '2026-03-03', ggr: 0 },
      { day: '2026-03-04', ggr: -3 },
    ]);
  });
});

describe('gameFigures', () => {
  it('sets each game’s realised RTP against its configured one, biggest GGR first', () => {
    const figures = gameFigures(
      [row('g1', 'BRL', 100, 95), row('g2', 'BRL', 50, 10), row('g3', 'BRL', 0, 0)],
      new Map([
        ['g1', 0.9],
        ['g2', 0.85],
      ]),
    );
    expect(figures.map((figure) => figure.gameId)).toEqual(['g2', 'g1', 'g3']);
    expect(figures[1]?.rtpGap).toBeCloseTo(0.05, 12);
    expect(figures[0]?.rtpGap).toBeCloseTo(-0.65, 12);
    expect(figures[2]).toMatchObject({ rtp: null, configuredRtp: null, rtpGap: null });
  });
});
