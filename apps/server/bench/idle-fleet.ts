import { parseArgs } from 'node:util';
import type { StatementCounts } from '../src/store/sqlite/statement-stats.ts';
import { forkChild } from './kit/child.ts';
import { treeCpuSeconds } from './kit/cpu.ts';
import { loadAverage } from './kit/machine.ts';
import { sleep } from './kit/processes.ts';
import { report } from './kit/report.ts';
import { type BenchDatabase, cpuBetween, startBenchDatabase } from './play/bench-database.ts';
import { setUpPlayers } from './play/set-up.ts';
import { BENCH_API_KEY, startFleet } from './play/start-fleet.ts';
import { noFleet, stopFleet } from './play/stop-fleet.ts';

/**
 * What a fleet costs with nobody playing (issue 23 item 4): N instances on one PostgreSQL cluster,
 * set up as `bench:play` sets them up (a profile, a webhook, the players' sessions, their sockets
 * connected), then left alone for `--seconds`. It reports each instance's CPU, PostgreSQL's, and
 * the statements PostgreSQL ran per second (pg_stat_statements): the fixed work each instance adds
 * whatever the rate (its tickers, the webhook dispatcher's polls, the adapters' heartbeats).
 */
const SETTLE_SECONDS = 3;

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '1' },
    players: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '10' },
  },
});
const instanceCount = Number(values.instances);
const players = Number(values.players);
const seconds = Number(values.seconds);
if (!Number.isInteger(instanceCount) || instanceCount < 1 || !Number.isInteger(players) || !(seconds > 0)) {
  console.error('usage: pnpm bench:idle-fleet [--instances N] [--players N] [--seconds D]');
  process.exit(2);
}

let database: BenchDatabase | undefined;
const fleet = noFleet();

/** Calls per second between two pg_stat_statements snapshots, the busiest first. */
function perSecondBetween(before: StatementCounts, after: StatementCounts, elapsed: number) {
  const rows = Object.entries(after)
    .map(([sql, count]) => ({
      sql: sql.replace(/\s+/g, ' ').slice(0, 100),
      calls: count.calls - (before[sql]?.calls ?? 0),
    }))
    .filter((row) => row.calls > 0 && !/pg_stat_statements/.test(row.sql))
    .sort((a, b) => b.calls - a.calls);
  const per = (calls: number) => Math.round((calls / elapsed) * 100) / 100;
  return {
    total: per(rows.reduce((sum, row) => sum + row.calls, 0)),
    top: rows.slice(0, 15).map((row) => ({ sql: row.sql, perSecond: per(row.calls) })),
  };
}

try {
  database = await startBenchDatabase({ countStatements: true });
  const { address, urls } = await startFleet({ instances: instanceCount, workers: 1, database }, fleet);
  const { sessions } = await setUpPlayers(urls[0] as string, BENCH_API_KEY, address, players, true);
  const load = forkChild(new URL('./play/players-process.ts', import.meta.url));
  fleet.load = load;
  await load.ask('connect', { urls, tokens: sessions });
  // Start-up's recovery passes and first polls are over before the measured stretch.
  await sleep(SETTLE_SECONDS * 1000);

  const cpu = () => fleet.services.map((each) => treeCpuSeconds(each.pid) ?? 0);
  const statementsBefore = (await database.statements()) ?? {};
  const postgresBefore = database.cpu();
  const cpuBefore = cpu();
  const started = performance.now();
  await sleep(seconds * 1000);
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = cpu();
  const postgresAfter = database.cpu();
  const statementsAfter = (await database.statements()) ?? {};

  const msPerSecond = (cpuSeconds: number) => Math.round(((cpuSeconds * 1000) / elapsed) * 100) / 100;
  const instances = cpuAfter.map((after, i) => msPerSecond(after - (cpuBefore[i] ?? 0)));
  const postgresCpu = cpuBetween(postgresBefore, postgresAfter);
  const statements = perSecondBetween(statementsBefore, statementsAfter, elapsed);
  const result = {
    instances: instanceCount,
    players,
    seconds: Math.round(elapsed * 100) / 100,
    /** CPU milliseconds per second of each instance (1,000 = a whole core). */
    instanceCpuMsPerSecond: instances,
    fleetCpuMsPerSecond: Math.round(instances.reduce((sum, each) => sum + each, 0) * 100) / 100,
    postgresCpuMsPerSecond: postgresCpu === null ? null : msPerSecond(postgresCpu),
    statementsPerSecond: statements.total,
    loadAverage1m: loadAverage(),
  };
  report('idle-fleet', `pnpm bench:idle-fleet --instances ${instanceCount} --players ${players}`, result, {
    'CPU ms per second, each instance': instances.join(', '),
    'CPU ms per second, the fleet': result.fleetCpuMsPerSecond,
    'PostgreSQL CPU ms per second': result.postgresCpuMsPerSecond,
    'statements per second (pg_stat_statements, BEGIN/COMMIT included)': statements.total,
    'load average (1 min)': result.loadAverage1m,
  });
  console.log('statements per second:');
  console.table(statements.top);
} finally {
  await stopFleet({ ...fleet, database });
}
