/**
 * Pearson's chi-square tests and the chi-square distribution's upper tail, pure and dependency
 * free: for `pnpm simulate`'s check of the draw (docs/games.md, "Simulating the draw").
 */

/** A test's outcome: the statistic, its degrees of freedom and P(χ²(df) ≥ statistic). */
export interface ChiSquareTest {
  statistic: number;
  df: number;
  /** 1 when df is 0: there was nothing to test. */
  pValue: number;
}

// Lanczos' approximation of Γ (g = 7, 9 terms): about 15 significant digits for x > 0.
const LANCZOS = [
  0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531, -176.6150291621406,
  12.507343278686905, -0.13857109526572012, 9.984369578019572e-6, 1.5056327351493116e-7,
];

/** ln Γ(x), x > 0. */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const y = x - 1;
  let sum = LANCZOS[0] as number;
  for (let i = 1; i < LANCZOS.length; i++) sum += (LANCZOS[i] as number) / (y + i);
  const t = y + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(sum);
}

const EPSILON = 1e-16;
const MAX_TERMS = 1_000_000;
const TINY = 1e-300;

/**
 * P(χ²(df) ≥ statistic): the regularised upper incomplete gamma function Q(df/2, statistic/2), by
 * its power series below df/2 + 1 and by its continued fraction (modified Lentz) above, where each
 * converges fast (Numerical Recipes, 3rd ed., §6.2).
 */
export function chiSquarePValue(statistic: number, df: number): number {
  if (!Number.isFinite(df) || df <= 0) throw new RangeError(`df must be a positive number, got ${df}`);
  if (Number.isNaN(statistic) || statistic < 0) {
    throw new RangeError(`a chi-square statistic is 0 or more, got ${statistic}`);
  }
  if (statistic === 0) return 1;
  if (statistic === Number.POSITIVE_INFINITY) return 0;
  const a = df / 2;
  const z = statistic / 2;
  const front = Math.exp(-z + a * Math.log(z) - logGamma(a));
  if (z < a + 1) {
    // P(a, z) = front × Σ z^n / (a (a+1) … (a+n)).
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < MAX_TERMS && Math.abs(term) > Math.abs(sum) * EPSILON; n++) {
      term *= z / (a + n);
      sum += term;
    }
    return Math.min(1, Math.max(0, 1 - front * sum));
  }
  // Q(a, z) = front × 1 / (z + 1 − a − 1·(1 − a) / (z + 3 − a − 2·(2 − a) / (z + 5 − a − …))).
  let b = z + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_TERMS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < EPSILON) break;
  }
  return Math.min(1, Math.max(0, front * h));
}

/** The test of a statistic with `df` degrees of freedom (df 0: nothing to test, p = 1). */
export function chiSquareTest(statistic: number, df: number): ChiSquareTest {
  return { statistic, df, pValue: df === 0 ? 1 : chiSquarePValue(statistic, df) };
}

/**
 * Pearson's statistic of independence of a table of counts (rows × columns): Σ (O − E)² / E with
 * E = row total × column total / grand total, and its (rows − 1)(columns − 1) degrees of freedom.
 * A row or a column with no count says nothing and is left out.
 */
export function independenceStatistic(table: readonly (readonly number[])[]): {
  statistic: number;
  df: number;
} {
  const rowTotals = table.map((row) => row.reduce((sum, count) => sum + count, 0));
  const width = Math.max(0, ...table.map((row) => row.length));
  const columnTotals = Array.from({ length: width }, (_, j) =>
    table.reduce((sum, row) => sum + (row[j] ?? 0), 0),
  );
  for (const row of table) {
    for (const count of row) {
      if (!Number.isFinite(count) || count < 0) throw new RangeError(`a count is 0 or more, got ${count}`);
    }
  }
  const total = rowTotals.reduce((sum, count) => sum + count, 0);
  const rows = rowTotals.filter((count) => count > 0).length;
  const columns = columnTotals.filter((count) => count > 0).length;
  if (rows < 2 || columns < 2) return { statistic: 0, df: 0 };
  let statistic = 0;
  table.forEach((row, i) => {
    const rowTotal = rowTotals[i] as number;
    if (rowTotal === 0) return;
    columnTotals.forEach((columnTotal, j) => {
      if (columnTotal === 0) return;
      const expected = (rowTotal * columnTotal) / total;
      statistic += ((row[j] ?? 0) - expected) ** 2 / expected;
    });
  });
  return { statistic, df: (rows - 1) * (columns - 1) };
}

/** Pearson's goodness of fit, Σ (O − E)² / E over the categories, with categories − 1 degrees of freedom. */
export function goodnessOfFitStatistic(
  observed: readonly number[],
  expected: readonly number[],
): { statistic: number; df: number } {
  if (observed.length !== expected.length) throw new RangeError('observed and expected differ in length');
  let statistic = 0;
  expected.forEach((wanted, i) => {
    if (!(wanted > 0)) throw new RangeError(`an expected count is above 0, got ${wanted}`);
    statistic += ((observed[i] as number) - wanted) ** 2 / wanted;
  });
  return { statistic, df: Math.max(0, expected.length - 1) };
}
