import { describe, expect, it } from 'vitest';
import { seededRng } from '../random/rng.ts';
import { chiSquareTest, goodnessOfFitStatistic } from './chi-square.ts';
import { hypergeometricSampler } from './hypergeometric.ts';

/**
 * The probabilities of 0..min(successes, draws) marked tickets, from ln n! summed term by term (a
 * check independent of the sampler's ln Γ).
 */
function exactLaw(population: number, successes: number, draws: number): number[] {
  const logFactorial = new Float64Array(population + 1);
  for (let n = 2; n <= population; n++) logFactorial[n] = (logFactorial[n - 1] as number) + Math.log(n);
  const logChoose = (a: number, b: number) =>
    b < 0 || b > a
      ? Number.NEGATIVE_INFINITY
      : (logFactorial[a] as number) - (logFactorial[b] as number) - (logFactorial[a - b] as number);
  const all = logChoose(population, draws);
  return Array.from({ length: Math.min(successes, draws) + 1 }, (_, k) =>
    Math.exp(logChoose(successes, k) + logChoose(population - successes, draws - k) - all),
  );
}

describe('hypergeometricSampler', () => {
  it.each([
    [60, 12, 20],
    [1_000, 3, 400],
    [500, 450, 100],
    [100_001, 5_000, 2_000],
  ])('draws with the exact law of %s tickets, %s marked, %s taken', (population, successes, draws) => {
    const sample = hypergeometricSampler(population, successes);
    const rng = seededRng(11);
    const trials = 20_000;
    const law = exactLaw(population, successes, draws);
    const counts = new Array<number>(law.length).fill(0);
    for (let i = 0; i < trials; i++) {
      const k = sample(rng, draws);
      counts[k] = (counts[k] ?? 0) + 1;
    }
    // Values expected at least 5 times are tested one by one, the rest together.
    const kept = law.map((p, k) => (p * trials >= 5 ? k : -1)).filter((k) => k >= 0);
    const rest = (values: number[]) => values.reduce((sum, v, k) => (kept.includes(k) ? sum : sum + v), 0);
    const observed = [...kept.map((k) => counts[k] as number), rest(counts)];
    const expected = [...kept.map((k) => (law[k] as number) * trials), rest(law) * trials];
    const last = expected.length - 1;
    if ((expected[last] as number) < 1e-9) {
      expect(observed[last]).toBe(0);
      observed.pop();
      expected.pop();
    }
    const { statistic, df } = goodnessOfFitStatistic(observed, expected);
    expect(chiSquareTest(statistic, df).pValue).toBeGreaterThan(0.001);
  });

  it('gives the only possible value at once, and refuses what is not a draw', () => {
    const sample = hypergeometricSampler(10, 10);
    expect(sample(seededRng(1), 4)).toBe(4);
    expect(hypergeometricSampler(10, 0)(seededRng(1), 7)).toBe(0);
    expect(() => sample(seededRng(1), 11)).toThrow(RangeError);
    expect(() => hypergeometricSampler(5, 6)).toThrow(RangeError);
    expect(() => hypergeometricSampler(-1, 0)).toThrow(RangeError);
  });
});
