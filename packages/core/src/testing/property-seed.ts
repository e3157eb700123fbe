/**
 * Vitest setup for every project with property tests. With FC_SEED set (`npm test` sets it when CI is),
 * every fast-check property draws from that seed, so CI draws what a clean-clone run of the same commit
 * drew; without it each run draws afresh, exploring, and a failure prints the seed that replays it.
 */
import fc from 'fast-check';

const seed = process.env.FC_SEED;
if (seed) {
  if (!/^-?\d{1,10}$/.test(seed)) throw new Error(`FC_SEED wants an integer, not ${JSON.stringify(seed)}`);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(seed) });
}
