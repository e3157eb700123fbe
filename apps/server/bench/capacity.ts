import { parseArgs } from 'node:util';
import {
  backlogSeconds,
  LIMITS,
  OFFERED_SHARES,
  type StepFigures,
  thinkMsFor,
  withinLimits,
} from './capacity/steps.ts';
import { report } from './kit/report.ts';
import { startBenchDatabase } from './play/bench-database.ts';
import { measurePlay } from './play/measure-play.ts';

/**
 * Capacity as users see it (issue 34 item 5): on each database, the play loop flat out, then at a
 * falling share of that rate (capacity/steps.ts) until buy p99 and webhook lag p99 keep within
 * their limits. Prints both rates: the sizing uses the sustainable one.
 */
const { values } = parseArgs({
  options: {
    players: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '10' },
    // Service processes per instance (the WORKERS setting).
    workers: { type: 'string', default: '1' },
    database: { type: 'string', default: 'both' },
  },
});
const players = Number(values.players);
const seconds = Number(values.seconds);
const workers = Number(values.workers);
const databases =
  values.database === 'both' ? ['sqlite', 'postgres'] : values.database ? [values.database] : [];
if (
  ![players, seconds, workers].every((n) => Number.isInteger(n) && n > 0) ||
  databases.length === 0 ||
  !databases.every((name) => name === 'sqlite' || name === 'postgres')
) {
  console.error(
    'usage: pnpm bench:capacity [--players N] [--seconds N] [--workers N] [--database sqlite|postgres|both]',
  );
  process.exit(2);
}

interface Step extends StepFigures {
  share: number | 'flat out';
  thinkMs: number;
  undeliveredAtEnd: number;
  serviceCpuMsPerRound: number;
  /** PostgreSQL's own CPU per round (its cluster's processes); null on SQLite. */
  postgresCpuMsPerRound: number | null;
  errors: number;
}

/** Each run on a database of its own (a cluster per run on PostgreSQL): each fleet has a new key. */
async function capacityOn(onPostgres: boolean) {
  const play = async (thinkMs: number) => {
    const database = onPostgres ? await startBenchDatabase({}) : undefined;
    try {
      return await measurePlay({
        players,
        seconds,
        workers,
        instances: 1,
        thinkMs,
        withWebhooks: true,
        statements: false,
        database,
      });
    } finally {
      await database?.close();
    }
  };
  const step = async (share: Step['share'], thinkMs: number): Promise<Step> => {
    const { result } = await play(thinkMs);
    const figures: Step = {
      share,
      thinkMs,
      roundsPerSecond: result.roundsPerSecond,
      buyP99Ms: result.buyMs.p99,
      lagP99Ms: result.webhooks.lagMs.p99,
      undeliveredAtEnd: result.webhooks.undeliveredAtEnd,
      serviceCpuMsPerRound: result.serviceCpuMsPerRound,
      postgresCpuMsPerRound: result.postgres?.cpuMsPerRound ?? null,
      errors: result.errors,
    };
    console.log(JSON.stringify(figures));
    return figures;
  };
  const flatOut = await step('flat out', 0);
  const steps = [flatOut];
  let sustainable = withinLimits(flatOut) ? flatOut : undefined;
  for (const share of OFFERED_SHARES) {
    if (sustainable) break;
    const run = await step(share, thinkMsFor(players, flatOut.roundsPerSecond, share));
    steps.push(run);
    if (withinLimits(run)) sustainable = run;
  }
  return {
    flatOutRoundsPerSecond: flatOut.roundsPerSecond,
    flatOutBacklogSeconds: backlogSeconds(flatOut.undeliveredAtEnd, flatOut.roundsPerSecond),
    sustainableRoundsPerSecond: sustainable?.roundsPerSecond ?? null,
    sustainableThinkMs: sustainable?.thinkMs ?? null,
    steps,
  };
}

const results: Record<string, Awaited<ReturnType<typeof capacityOn>>> = {};
for (const name of databases) {
  console.log(`${name}: flat out, then stepping down…`);
  results[name] = await capacityOn(name === 'postgres');
}
const command = `pnpm bench:capacity --players ${players} --seconds ${seconds} --workers ${workers} --database ${values.database}`;
const table: Record<string, unknown> = {
  limits: `buy p99 < ${LIMITS.buyP99Ms} ms, webhook lag p99 < ${LIMITS.lagP99Ms} ms`,
};
for (const [name, each] of Object.entries(results)) {
  table[`${name}: flat out rounds/s (backlog at its end, s of rounds)`] =
    `${each.flatOutRoundsPerSecond} (${each.flatOutBacklogSeconds})`;
  table[`${name}: sustainable rounds/s (think ms)`] = each.sustainableRoundsPerSecond
    ? `${each.sustainableRoundsPerSecond} (${each.sustainableThinkMs})`
    : `none down to ${OFFERED_SHARES.at(-1)} of flat out`;
}
report('capacity', command, { limits: LIMITS, workers, players, seconds, ...results }, table);
const errors = Object.values(results).flatMap((each) => each.steps.map((step) => step.errors));
process.exitCode = errors.every((count) => count === 0) ? 0 : 1;
