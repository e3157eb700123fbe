/** A pool as the PAR sheet reads it: money in minor units, every level with at least one winner. */
export interface ParSheetPool {
  sampling: number;
  betPrice: number;
  levels: ReadonlyArray<{ level: number; winners: number; prize: number }>;
}

/**
 * The exact sums of one pool's tickets, in minor units (BigInt, since Σ winners × prize² passes
 * 2^53): every figure of the PAR sheet is a fraction of these.
 */
export interface PoolMoments {
  tickets: bigint;
  bet: bigint;
  /** Σ winners. */
  winners: bigint;
  /** Σ winners × prize: what a whole pool pays. */
  paid: bigint;
  /** Σ winners × prize². */
  paidSquares: bigint;
  /** Every ticket's prize, losing ones included, as (prize, count) from the smallest prize up. */
  prizes: ReadonlyArray<{ prize: bigint; count: bigint }>;
}

export function poolMoments(pool: ParSheetPool): PoolMoments {
  const { sampling, betPrice, levels } = pool;
  if (!Number.isSafeInteger(sampling) || sampling < 1)
    throw new RangeError('sampling must be a whole number ≥ 1');
  if (!Number.isSafeInteger(betPrice) || betPrice < 1)
    throw new RangeError('betPrice must be ≥ 1 minor unit');
  let winners = 0n;
  let paid = 0n;
  let paidSquares = 0n;
  for (const { level, winners: count, prize } of levels) {
    if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`level ${level} needs ≥ 1 winner`);
    if (!Number.isSafeInteger(prize) || prize < 0) throw new RangeError(`level ${level} needs a prize ≥ 0`);
    winners += BigInt(count);
    paid += BigInt(count) * BigInt(prize);
    paidSquares += BigInt(count) * BigInt(prize) ** 2n;
  }
  const tickets = BigInt(sampling);
  if (winners > tickets) throw new RangeError('the levels have more winners than the pool has tickets');
  const prizes = [
    { prize: 0n, count: tickets - winners },
    ...levels.map((level) => ({ prize: BigInt(level.prize), count: BigInt(level.winners) })),
  ].sort((a, b) => (a.prize < b.prize ? -1 : a.prize > b.prize ? 1 : 0));
  return { tickets, bet: BigInt(betPrice), winners, paid, paidSquares, prizes };
}

/** A ratio kept exact until it is shown. */
export interface Fraction {
  numerator: bigint;
  denominator: bigint;
}

/** The variance of one card's return (prize ÷ betPrice) over the pool: (N·Σwp² − (Σwp)²) / (N·b)². */
export function cardVariance(moments: PoolMoments): Fraction {
  const { tickets, bet, paid, paidSquares } = moments;
  return { numerator: tickets * paidSquares - paid * paid, denominator: (tickets * bet) ** 2n };
}
