import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chiSquarePValue,
  chiSquareTest,
  goodnessOfFitStatistic,
  independenceStatistic,
  logGamma,
} from './chi-square.ts';

/** Q(k, z) for a whole k: e^(−z) Σ_{n<k} z^n / n!, the closed form of an even df's tail. */
function evenTail(statistic: number, df: number): number {
  const z = statistic / 2;
  let term = Math.exp(-z);
  let sum = term;
  for (let n = 1; n < df / 2; n++) {
    term *= z / n;
    sum += term;
  }
  return sum;
}

describe('chiSquarePValue', () => {
  it.each([
    // [statistic, df, P(χ² ≥ statistic)], from SciPy 1.x's chi2.sf.
    [3.841458820694124, 1, 0.05],
    [6.6348966010212145, 1, 0.01],
    [7.814727903251179, 3, 0.05],
    [6.345811195521515, 7, 0.5],
    [18.307038053275146, 10, 0.05],
    [124.34211340400407, 100, 0.05],
    [300, 200, 5.924540335483916e-6],
    [150, 200, 0.996647558501813],
    [0.5, 5, 0.9921232932326296],
    [60, 5, 1.2154569777183007e-11],
    [4798.873743817042, 4500, 0.001],
  ])('P(χ² ≥ %s | df %s) = %s', (statistic, df, p) => {
    expect(Math.abs(chiSquarePValue(statistic, df) - p)).toBeLessThanOrEqual(p * 1e-9);
  });

  it('equals the closed form of every even df, on both sides of the series’ switch to the fraction', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }).map((k) => 2 * k),
        fc.double({ min: 0, max: 250, noNaN: true }),
        (df, statistic) => {
          const exact = evenTail(statistic, df);
          expect(Math.abs(chiSquarePValue(statistic, df) - exact)).toBeLessThanOrEqual(1e-12 + exact * 1e-9);
        },
      ),
    );
  });

  it('falls from 1 to 0 as the statistic grows', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.double({ min: 0, max: 1000, noNaN: true }),
        fc.double({ min: 0, max: 1000, noNaN: true }),
        (df, a, b) => {
          const [low, high] = a < b ? [a, b] : [b, a];
          const pLow = chiSquarePValue(low, df);
          expect(pLow).toBeGreaterThanOrEqual(chiSquarePValue(high, df) - 1e-15);
          expect(pLow).toBeLessThanOrEqual(1);
        },
      ),
    );
    expect(chiSquarePValue(0, 3)).toBe(1);
    expect(chiSquarePValue(Number.POSITIVE_INFINITY, 3)).toBe(0);
  });

  it('refuses a negative statistic and a df that is not positive', () => {
    expect(() => chiSquarePValue(-1, 2)).toThrow(RangeError);
    expect(() => chiSquarePValue(Number.NaN, 2)).toThrow(RangeError);
    expect(() => chiSquarePValue(1, 0)).toThrow(RangeError);
  });

  it('rests on ln Γ, exact at whole and half numbers', () => {
    let factorial = 1;
    for (let n = 1; n <= 20; n++) {
      factorial *= n;
      expect(logGamma(n + 1)).toBeCloseTo(Math.log(factorial), 10);
    }
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
  });
});

describe('the statistics', () => {
  it('independence: 0 for proportional rows, Pearson’s sum otherwise, blank rows and columns left out', () => {
    expect(
      independenceStatistic([
        [10, 20, 0],
        [30, 60, 0],
      ]),
    ).toEqual({ statistic: 0, df: 1 });
    // E = [[15, 15], [15, 15]]: four cells of 5²/15.
    const { statistic, df } = independenceStatistic([
      [20, 10],
      [10, 20],
      [0, 0],
    ]);
    expect(statistic).toBeCloseTo(100 / 15, 12);
    expect(df).toBe(1);
    expect(independenceStatistic([[5, 6, 7]])).toEqual({ statistic: 0, df: 0 });
    expect(() => independenceStatistic([[1, -1]])).toThrow(RangeError);
  });

  it('goodness of fit: Σ (O − E)² / E with one df fewer than the categories', () => {
    expect(goodnessOfFitStatistic([12, 8], [10, 10])).toEqual({ statistic: 0.8, df: 1 });
    expect(() => goodnessOfFitStatistic([1], [0])).toThrow(RangeError);
    expect(() => goodnessOfFitStatistic([1, 2], [3])).toThrow(RangeError);
  });

  it('a test with no degree of freedom tests nothing', () => {
    expect(chiSquareTest(0, 0)).toEqual({ statistic: 0, df: 0, pValue: 1 });
    expect(chiSquareTest(3.841458820694124, 1).pValue).toBeCloseTo(0.05, 12);
  });
});
