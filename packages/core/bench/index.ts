// `pnpm bench`: speed figures of the core on this machine. Figures, not pass/fail: the targets
// are printed beside them and docs/benchmarks.md quotes a run.
import { benchLadder } from './ladder.ts';
import { benchPool } from './pool.ts';
import { benchSigner } from './signer.ts';
import { benchSimulation } from './simulation.ts';

interface Figure {
  name: string;
  value: number;
  unit: string;
}

const suites: Array<[string, () => Promise<Figure[]>]> = [
  ['ladder', benchLadder],
  ['pool', benchPool],
  ['signer', benchSigner],
  ['sim', benchSimulation],
];

const format = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });
console.log(`node ${process.version} · ${process.platform}/${process.arch}`);
for (const [suite, run] of suites) {
  for (const figure of await run()) {
    console.log(
      `${suite.padEnd(7)} ${figure.name.padEnd(56)} ${format.format(figure.value).padStart(14)} ${figure.unit}`,
    );
  }
}
