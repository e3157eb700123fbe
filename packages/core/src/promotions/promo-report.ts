/**
 * The GGR report's figures with free cards (docs/contract.md §14, docs/promotions.md). The store
 * sums the ledger in SQL (apps/server/src/store/report-query.ts); this is the arithmetic on those
 * sums, and `reportSumsOf`, the same sums over records in memory, which the store's SQL must match
 * (the report tests compare them over random ledgers). Money is integer minor units.
 */

/** One report row's sums, each positive. `prizesMinor` is bought cards' only. */
export interface PromoReportSums {
  betsMinor: number;
  /** Completed prizes of bought cards. */
  prizesMinor: number;
  rollbacksMinor: number;
  /** Free cards played (rounds opened with a free card). */
  promoRounds: number;
  /** Completed prizes of free cards. */
  promoPrizesMinor: number;
}

export interface PromoReportFigures {
  /** bets − prizes − rollbacks − promoPrizes: what the operator kept, free cards' prizes being its cost. */
  ggrMinor: number;
  /** prizes / bets of bought cards; null when there are no bets. A free card has no bet to divide by. */
  rtp: number | null;
}

export function promoReportFigures(sums: PromoReportSums): PromoReportFigures {
  return {
    ggrMinor: sums.betsMinor - sums.prizesMinor - sums.rollbacksMinor - sums.promoPrizesMinor,
    rtp: sums.betsMinor === 0 ? null : sums.prizesMinor / sums.betsMinor,
  };
}

/** A ledger transaction as the report reads it: signed as stored (a bet negative), with its round's promotion. */
export interface ReportTransaction {
  type: 'bet' | 'prize' | 'rollback' | 'deposit';
  status: 'pending' | 'completed' | 'declined' | 'failed';
  amountMinor: number;
  /** The promotion of the transaction's round; null for a bought card. */
  promotionId: string | null;
}

/** A round as the report reads it. */
export interface ReportRound {
  promotionId: string | null;
  status: 'pending' | 'open' | 'closing' | 'closed' | 'declined' | 'voided';
}

/** Statuses of a round whose card was dealt: a free round is inserted `open`, never `pending`. */
const DEALT: ReadonlySet<ReportRound['status']> = new Set(['open', 'closing', 'closed']);

/**
 * The sums of one report group from its records: only `completed` transactions moved money.
 * `promoRounds` counts rounds, not transactions, since a free card that won nothing has none.
 */
export function reportSumsOf(
  rounds: readonly ReportRound[],
  transactions: readonly ReportTransaction[],
): PromoReportSums {
  const sums: PromoReportSums = {
    betsMinor: 0,
    prizesMinor: 0,
    rollbacksMinor: 0,
    promoRounds: 0,
    promoPrizesMinor: 0,
  };
  for (const round of rounds) {
    if (round.promotionId !== null && DEALT.has(round.status)) sums.promoRounds += 1;
  }
  for (const t of transactions) {
    if (t.status !== 'completed') continue;
    if (t.type === 'bet') sums.betsMinor -= t.amountMinor;
    else if (t.type === 'rollback') sums.rollbacksMinor += t.amountMinor;
    else if (t.type === 'prize') {
      if (t.promotionId === null) sums.prizesMinor += t.amountMinor;
      else sums.promoPrizesMinor += t.amountMinor;
    }
  }
  return sums;
}
