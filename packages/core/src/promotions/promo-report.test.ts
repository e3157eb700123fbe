import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  promoReportFigures,
  type ReportRound,
  type ReportTransaction,
  reportSumsOf,
} from './promo-report.ts';

describe('promoReportFigures', () => {
  it('takes free cards’ prizes off the GGR and keeps them out of the RTP', () => {
    expect(
      promoReportFigures({
        betsMinor: 1000,
        prizesMinor: 600,
        rollbacksMinor: 100,
        promoRounds: 4,
        promoPrizesMinor: 250,
      }),
    ).toEqual({ ggrMinor: 50, rtp: 0.6 });
  });

  it('has no RTP without bets, however many free cards paid', () => {
    expect(
      promoReportFigures({
        betsMinor: 0,
        prizesMinor: 0,
        rollbacksMinor: 0,
        promoRounds: 3,
        promoPrizesMinor: 500,
      }),
    ).toEqual({ ggrMinor: -500, rtp: null });
  });
});

const transaction = fc.record({
  type: fc.constantFrom('bet', 'prize', 'rollback', 'deposit'),
  status: fc.constantFrom('pending', 'completed', 'declined', 'failed'),
  magnitude: fc.integer({ min: 1, max: 1_000_000 }),
  promotionId: fc.option(fc.constantFrom('p1', 'p2')),
});
const ledger = fc.array(transaction, { maxLength: 40 }).map((generated) =>
  generated.map(
    ({ type, status, magnitude, promotionId }): ReportTransaction => ({
      type,
      status,
      amountMinor: type === 'bet' ? -magnitude : magnitude,
      // A free round has no bet and no rollback: only its prize carries the promotion.
      promotionId: type === 'prize' ? promotionId : null,
    }),
  ),
);
const rounds = fc.array(
  fc.record({
    promotionId: fc.option(fc.constant('p1')),
    status: fc.constantFrom('pending', 'open', 'closing', 'closed', 'declined', 'voided'),
  }),
  { maxLength: 20 },
);

describe('reportSumsOf with promoReportFigures, over random ledgers', () => {
  it('GGR is what the wallet lost to the player, negated: minus the sum of completed bets, prizes and rollbacks', () => {
    fc.assert(
      fc.property(rounds, ledger, (roundList, transactions) => {
        const { ggrMinor } = promoReportFigures(reportSumsOf(roundList, transactions));
        const moved = transactions
          .filter((t) => t.status === 'completed' && t.type !== 'deposit')
          .reduce((sum, t) => sum + t.amountMinor, 0);
        expect(ggrMinor).toBe(0 - moved);
      }),
    );
  });

  it('prizes and RTP are those of the same ledger without its free cards', () => {
    fc.assert(
      fc.property(rounds, ledger, (roundList, transactions) => {
        const sums = reportSumsOf(roundList, transactions);
        const bought = reportSumsOf(
          roundList.filter((r) => r.promotionId === null),
          transactions.filter((t) => t.promotionId === null),
        );
        expect([sums.betsMinor, sums.prizesMinor, sums.rollbacksMinor]).toEqual([
          bought.betsMinor,
          bought.prizesMinor,
          bought.rollbacksMinor,
        ]);
        expect(promoReportFigures(sums).rtp).toBe(promoReportFigures(bought).rtp);
        expect([bought.promoRounds, bought.promoPrizesMinor]).toEqual([0, 0]);
      }),
    );
  });

  it('counts free rounds whose card was dealt, with or without a prize', () => {
    const roundList: ReportRound[] = [
      { promotionId: 'p1', status: 'open' },
      { promotionId: 'p1', status: 'closed' },
      { promotionId: 'p1', status: 'closing' },
      { promotionId: 'p1', status: 'pending' },
      { promotionId: null, status: 'closed' },
    ];
    expect(reportSumsOf(roundList, []).promoRounds).toBe(3);
  });
});
