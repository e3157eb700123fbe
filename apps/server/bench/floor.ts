import { parseArgs } from 'node:util';
import { type PgbenchRun, preparePgbench } from './floor/pgbench.ts';
import { report } from './kit/report.ts';
import { percentile } from './kit/stats.ts';
import { type BenchDatabase, startBenchDatabase } from './play/bench-database.ts';
import { measurePlay, type PlayOptions } from './play/measure-play.ts';
import { printStatementProfile } from './play/statement-profile.ts';

/**
 * PostgreSQL's floor beside the round (issue 34 item 1), in one run on one throwaway cluster:
 * pgbench's TPC-B-like transaction three times, between them the play loop on SQLite and then on
 * PostgreSQL (same players, same seconds), and three ratios that the machine's mood cancels out of:
 * PostgreSQL CPU per round ÷ per pgbench transaction (median of the three), WAL records per round
 * ÷ per pgbench transaction, and the service's CPU per round on PostgreSQL ÷ on SQLite.
 * `--pg-statements`: pg_stat_statements on the cluster, and each statement of a round printed.
 */
const { values } = parseArgs({
  options: {
    players: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '10' },
    'pgbench-clients': { type: 'string', default: '16' },
    'pgbench-seconds': { type: 'string', default: '10' },
    'pgbench-scale': { type: 'string', default: '16' },
    'pg-statements': { type: 'boolean', default: false },
  },
});
const numbers = {
  players: Number(values.players),
  seconds: Number(values.seconds),
  clients: Number(values['pgbench-clients']),
  pgbenchSeconds: Number(values['pgbench-seconds']),
  scale: Number(values['pgbench-scale']),
};
if (!Object.values(numbers).every((value) => Number.isInteger(value) && value > 0)) {
  console.error(
    'usage: pnpm bench:floor [--players N] [--seconds N] [--pgbench-clients N] [--pgbench-seconds N] [--pgbench-scale N] [--pg-statements]',
  );
  process.exit(2);
}
const pgStatements = values['pg-statements'];
const ratio = (a: number | null | undefined, b: number | null | undefined) =>
  a == null || b == null || b === 0 ? null : Math.round((a / b) * 100) / 100;
const median = (runs: PgbenchRun[], key: keyof PgbenchRun) =>
  percentile(
    runs.map((run) => run[key]).sort((a, b) => a - b),
    50,
  );

let database: BenchDatabase | undefined;
try {
  database = await startBenchDatabase({ countStatements: pgStatements });
  console.log(`pgbench -i -s ${numbers.scale}…`);
  const pgbench = await preparePgbench(database, {
    clients: numbers.clients,
    seconds: numbers.pgbenchSeconds,
    scale: numbers.scale,
  });
  const play: Omit<PlayOptions, 'database' | 'statements'> = {
    players: numbers.players,
    seconds: numbers.seconds,
    workers: 1,
    instances: 1,
    thinkMs: 0,
    withWebhooks: true,
  };
  // pgbench between the plays, so that its median spans the same minutes as the rounds.
  const runs: PgbenchRun[] = [];
  console.log('pgbench 1 of 3…');
  runs.push(await pgbench());
  console.log('play loop on SQLite…');
  const sqlite = await measurePlay({ ...play, statements: false });
  console.log('pgbench 2 of 3…');
  runs.push(await pgbench());
  console.log('play loop on PostgreSQL…');
  const postgres = await measurePlay({ ...play, statements: pgStatements, database });
  console.log('pgbench 3 of 3…');
  runs.push(await pgbench());

  const pg = postgres.result.postgres;
  const floor = {
    cpuMsPerTransaction: median(runs, 'cpuMsPerTransaction'),
    walRecordsPerTransaction: median(runs, 'walRecordsPerTransaction'),
    walBytesPerTransaction: median(runs, 'walBytesPerTransaction'),
  };
  const ratios = {
    /** Issue 34's target: ≤ 4. */
    postgresCpuPerRoundInTransactions: ratio(pg?.cpuMsPerRound, floor.cpuMsPerTransaction),
    /** Issue 34's target: ≤ 5. */
    walRecordsPerRoundInTransactions: ratio(pg?.wal?.recordsPerRound, floor.walRecordsPerTransaction),
    walBytesPerRoundInTransactions: ratio(pg?.wal?.bytesPerRound, floor.walBytesPerTransaction),
    /** Issue 34's target (item 3): ≤ 1.3. */
    serviceCpuPostgresOverSqlite: ratio(
      postgres.result.serviceCpuMsPerRound,
      sqlite.result.serviceCpuMsPerRound,
    ),
  };
  const command = `pnpm bench:floor --players ${numbers.players} --seconds ${numbers.seconds} --pgbench-clients ${numbers.clients} --pgbench-seconds ${numbers.pgbenchSeconds} --pgbench-scale ${numbers.scale}${pgStatements ? ' --pg-statements' : ''}`;
  const result = { ratios, pgbench: { floor, runs }, sqlite: sqlite.result, postgres: postgres.result };
  report('floor', command, result, {
    'pgbench tps (3 runs)': runs.map((run) => run.tps).join(', '),
    'pgbench PostgreSQL CPU ms per transaction (3 runs; median)': `${runs.map((run) => run.cpuMsPerTransaction).join(', ')}; ${floor.cpuMsPerTransaction}`,
    'pgbench WAL records / bytes per transaction (median)': `${floor.walRecordsPerTransaction} / ${floor.walBytesPerTransaction}`,
    'rounds/s: SQLite / PostgreSQL': `${sqlite.result.roundsPerSecond} / ${postgres.result.roundsPerSecond}`,
    'service CPU ms per round: SQLite / PostgreSQL': `${sqlite.result.serviceCpuMsPerRound} / ${postgres.result.serviceCpuMsPerRound}`,
    'PostgreSQL CPU ms per round': pg?.cpuMsPerRound,
    'WAL records / bytes per round': `${pg?.wal?.recordsPerRound} / ${pg?.wal?.bytesPerRound}`,
    'round trips / commits per round': `${pg?.roundTripsPerRound} / ${pg?.commitsPerRound}`,
    'PostgreSQL CPU per round ÷ per pgbench transaction (target ≤ 4)':
      ratios.postgresCpuPerRoundInTransactions,
    'WAL records per round ÷ per pgbench transaction (target ≤ 5)': ratios.walRecordsPerRoundInTransactions,
    'service CPU per round, PostgreSQL ÷ SQLite (target ≤ 1.3)': ratios.serviceCpuPostgresOverSqlite,
    'load average (1 min), after each play': `${sqlite.result.loadAverage1m} / ${postgres.result.loadAverage1m}`,
    'errors: SQLite / PostgreSQL': `${sqlite.result.errors} / ${postgres.result.errors}`,
  });
  if (postgres.profile) printStatementProfile(postgres.profile);
  process.exitCode = sqlite.result.errors === 0 && postgres.result.errors === 0 ? 0 : 1;
} finally {
  await database?.close();
}
