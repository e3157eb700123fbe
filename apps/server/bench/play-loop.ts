import { parseArgs } from 'node:util';
import { report } from './kit/report.ts';
import { type BenchDatabase, startBenchDatabase } from './play/bench-database.ts';
import { measurePlay } from './play/measure-play.ts';
import { printStatementProfile } from './play/statement-profile.ts';

/**
 * Play-loop benchmark (play/measure-play.ts): the real service, the operator and the players each
 * in their own process, all on 127.0.0.1. Measurement only; it stops by itself. `--database
 * postgres --instances N`: N instances of the service on one PostgreSQL cluster started here.
 */
const { values } = parseArgs({
  options: {
    players: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '10' },
    'cpu-prof': { type: 'string' },
    // For decomposing the cost of a round: the same loop with no webhook registered.
    'no-webhooks': { type: 'boolean', default: false },
    // The webhook registered as a batch webhook (docs/webhooks.md, "Batches"), default limits.
    'batch-webhook': { type: 'boolean', default: false },
    // A pause after each round, per player: a load below saturation (default 0: as fast as answered).
    'think-ms': { type: 'string', default: '0' },
    // Service processes (the WORKERS setting); default: WORKERS from the environment, else 1.
    workers: { type: 'string', default: process.env.WORKERS ?? '1' },
    // sqlite (the embedded file) or postgres (a cluster started for the run, as the tests do).
    database: { type: 'string', default: 'sqlite' },
    // Service instances on the one PostgreSQL database (each with `workers` processes).
    instances: { type: 'string', default: '1' },
    // SQL statements per round: counted in the service (the STATEMENT_STATS setting) on SQLite, by
    // pg_stat_statements on PostgreSQL.
    statements: { type: 'boolean', default: false },
    // PostgreSQL over loopback TCP instead of its Unix socket (the default when it runs here).
    tcp: { type: 'boolean', default: false },
  },
});
const players = Number(values.players);
const seconds = Number(values.seconds);
const workers = Number(values.workers);
const instanceCount = Number(values.instances);
const onPostgres = values.database === 'postgres';
if (
  (values.database !== 'sqlite' && !onPostgres) ||
  !Number.isInteger(instanceCount) ||
  instanceCount < 1 ||
  (!onPostgres && instanceCount > 1)
) {
  console.error('usage: --database sqlite|postgres; --instances N (N > 1 only with postgres)');
  process.exit(2);
}
if (
  !Number.isInteger(players) ||
  players < 1 ||
  !(seconds > 0) ||
  !(Number(values['think-ms']) >= 0) ||
  !Number.isInteger(workers) ||
  workers < 1
) {
  console.error(
    'usage: [WORKERS=N] pnpm bench:play [--players N] [--seconds D] [--workers N] [--think-ms T] [--no-webhooks] [--batch-webhook] [--cpu-prof DIR] [--database sqlite|postgres] [--instances N] [--statements] [--tcp]',
  );
  process.exit(2);
}
const withWebhooks = !values['no-webhooks'];
const thinkMs = Number(values['think-ms']);

let database: BenchDatabase | undefined;
try {
  if (onPostgres)
    database = await startBenchDatabase({ countStatements: values.statements, tcp: values.tcp });
  const { command, result, table, statements, deliveryStatements, profile } = await measurePlay({
    players,
    seconds,
    workers,
    instances: instanceCount,
    thinkMs,
    withWebhooks,
    batchWebhook: values['batch-webhook'],
    statements: values.statements,
    tcp: values.tcp,
    profileDir: values['cpu-prof'],
    database,
  });
  report('play-loop', command, result, table);
  if (statements) {
    console.log('costliest statements (calls and ms per round):');
    console.table(statements.top);
    console.log('webhook delivery statements per delivered event:');
    console.table(deliveryStatements?.top ?? []);
  }
  if (profile) printStatementProfile(profile);
  for (const sample of result.errorSamples) console.log('error:', JSON.stringify(sample));
  process.exitCode = result.errors === 0 && result.webhooks.drainMs !== null ? 0 : 1;
} finally {
  await database?.close();
}
