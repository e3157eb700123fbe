/** Nearest-rank percentile of ascending samples, rounded to two decimals. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const value = sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
  return Math.round(value * 100) / 100;
}

export interface Latency {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** p50/p95/p99/max of latency samples in ms. */
export function latency(samples: readonly number[]): Latency {
  const sorted = Float64Array.from(samples).sort();
  const list = Array.from(sorted);
  return {
    count: list.length,
    p50: percentile(list, 50),
    p95: percentile(list, 95),
    p99: percentile(list, 99),
    max: percentile(list, 100),
  };
}

export const perSecond = (count: number, seconds: number) => Math.round(count / seconds);

/** "a / b / c" for a table cell. */
export const triple = (l: Pick<Latency, 'p50' | 'p95' | 'p99'>) => `${l.p50} / ${l.p95} / ${l.p99}`;
