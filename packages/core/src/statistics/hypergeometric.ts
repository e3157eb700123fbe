import type { Rng } from '../random/rng.ts';
import { logGamma } from './chi-square.ts';

/** ln C(a, b). */
const logChoose = (a: number, b: number) => logGamma(a + 1) - logGamma(b + 1) - logGamma(a - b + 1);

/**
 * Draws of the hypergeometric distribution: how many of `successes` marked tickets are among
 * `draws` tickets taken without replacement from `population`. Exact in law (up to the rounding
 * of doubles): an inverse transform that starts at the mode and walks outwards, both ways in turn,
 * with the ratio of neighbouring probabilities, so a draw costs about one standard deviation of
 * steps. The mode's probability is kept per `draws`, as a caller asks for the same few again and again.
 */
export function hypergeometricSampler(population: number, successes: number) {
  for (const [name, value] of [
    ['population', population],
    ['successes', successes],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number ≥ 0`);
  }
  if (successes > population) throw new RangeError('successes cannot exceed the population');
  const failures = population - successes;
  const modes = new Map<number, { mode: number; probability: number }>();

  function modeOf(draws: number) {
    let known = modes.get(draws);
    if (!known) {
      const low = Math.max(0, draws - failures);
      const high = Math.min(successes, draws);
      const mode = Math.min(
        high,
        Math.max(low, Math.floor(((draws + 1) * (successes + 1)) / (population + 2))),
      );
      const probability = Math.exp(
        logChoose(successes, mode) + logChoose(failures, draws - mode) - logChoose(population, draws),
      );
      known = { mode, probability };
      modes.set(draws, known);
    }
    return known;
  }

  return (rng: Rng, draws: number): number => {
    if (!Number.isSafeInteger(draws) || draws < 0 || draws > population) {
      throw new RangeError(`draws must be a whole number from 0 to ${population}, got ${draws}`);
    }
    const low = Math.max(0, draws - failures);
    const high = Math.min(successes, draws);
    if (low === high) return low;
    const { mode, probability } = modeOf(draws);
    let u = rng() - probability;
    if (u < 0) return mode;
    let down = mode;
    let up = mode;
    let pDown = probability;
    let pUp = probability;
    while (down > low || up < high) {
      if (down > low) {
        // P(k − 1) / P(k) = k (failures − draws + k) / ((successes − k + 1)(draws − k + 1))
        pDown *= (down * (failures - draws + down)) / ((successes - down + 1) * (draws - down + 1));
        down--;
        u -= pDown;
        if (u < 0) return down;
      }
      if (up < high) {
        // P(k + 1) / P(k) = (successes − k)(draws − k) / ((k + 1)(failures − draws + k + 1))
        pUp *= ((successes - up) * (draws - up)) / ((up + 1) * (failures - draws + up + 1));
        up++;
        u -= pUp;
        if (u < 0) return up;
      }
    }
    // The rounding of the probabilities left a sliver of u: the most likely value.
    return mode;
  };
}
