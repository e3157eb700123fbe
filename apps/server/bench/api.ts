import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { signForTest, type TokenSet } from '../test/harness.ts';
import { bigAndSmall, listCases, listPath } from './api/list-cases.ts';
import { startLedgerDatabase } from './api/postgres-ledger.ts';
import { loadAverage, rssMb } from './kit/machine.ts';
import { startServiceOnFreePort, stopProcess } from './kit/processes.ts';
import { RESULTS_DIR, report } from './kit/report.ts';
import type { BenchDatabase } from './play/bench-database.ts';
import { copyLedger, type SeededLedger, seedLedger } from './seed-ledger.ts';

/**
 * API benchmark: the real service as its own process on a seeded ledger (1,000,000 rounds by
 * default, built once and cached: seed-ledger.ts), and autocannon in this process hitting each
 * case for a fixed time. Measurement only; 127.0.0.1, bounded in time, stops by itself.
 * Exits 1 when any request failed or answered other than 2xx.
 */

const USAGE =
  'usage: pnpm bench:api [--seconds D] [--connections C] [--rounds N] [--only case,case] [--rebuild] [--cpu-prof] [--database sqlite|postgres]';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '1000000' },
    only: { type: 'string' },
    rebuild: { type: 'boolean', default: false },
    // Writes the service's CPU profile (node --cpu-prof) under bench/results/ when it stops.
    'cpu-prof': { type: 'boolean', default: false },
    // postgres: the same ledger loaded into a PostgreSQL cluster started for the run (api/postgres-ledger.ts).
    database: { type: 'string', default: 'sqlite' },
  },
});
const onPostgres = values.database === 'postgres';
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const rounds = Number(values.rounds);
if (
  !(seconds > 0) ||
  !Number.isInteger(connections) ||
  connections < 1 ||
  !Number.isInteger(rounds) ||
  !['sqlite', 'postgres'].includes(values.database)
) {
  console.error(USAGE);
  process.exit(2);
}

interface BenchCase {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

function casesFor(seeded: SeededLedger): BenchCase[] {
  const { big } = bigAndSmall(seeded);
  return [
    { name: 'game list', method: 'GET', path: `/v1/game?profileId=${big.id}` },
    {
      name: 'game simulation (signed POST)',
      method: 'POST',
      path: '/v1/game',
      body: {
        profileId: big.id,
        gameModel: big.gameModel,
        lang: 'pt',
        currency: big.currency,
        rtp: 0.92,
        sampling: 500_000,
        prizedPercent: 0.4,
        betPrice: 2,
        simulation: true,
        replacePreviousVersion: false,
      },
    },
    ...listCases(seeded).map((item) => ({ name: item.name, method: 'GET' as const, path: listPath(item) })),
  ];
}

function requestOf(tokens: TokenSet, item: BenchCase) {
  const headers: Record<string, string> = { authorization: `Bearer ${tokens.accessToken}` };
  if (item.method === 'GET') return { method: item.method, headers };
  headers['content-type'] = 'application/json';
  // docs/contract.md §2: HMAC-SHA512 of the canonical body with the signatureToken; the body never changes.
  headers['x-signed-request'] = signForTest(item.body, tokens.signatureToken);
  return { method: item.method, headers, body: JSON.stringify(item.body) };
}

interface CaseResult {
  name: string;
  path: string;
  /** totalCount of the first answer (lists), so a figure can be read against the rows behind it. */
  totalCount: number | null;
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p97_5: number; p99: number; max: number; mean: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

async function runCase(base: string, tokens: TokenSet, item: BenchCase): Promise<CaseResult> {
  const request = requestOf(tokens, item);
  // One request first: a case that fails outright is reported as such, not as a fast 4xx.
  const probe = await fetch(`${base}${item.path}`, request);
  const answer = (await probe.json()) as { pagination?: { totalCount: number }; messages?: string[] };
  if (!probe.ok) console.error(`${item.name}: ${probe.status} ${JSON.stringify(answer)}`);
  const result = await autocannon({
    url: `${base}${item.path}`,
    ...request,
    connections,
    duration: seconds,
    timeout: 10,
  });
  return {
    name: item.name,
    path: item.path,
    totalCount: answer.pagination?.totalCount ?? null,
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    latencyMs: {
      p50: result.latency.p50,
      p97_5: result.latency.p97_5,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: Math.round(result.latency.mean * 100) / 100,
    },
    non2xx: result.non2xx + (probe.ok ? 0 : 1),
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

const log = (line: string) => console.log(line);
const seeded = await seedLedger({ rounds, rebuild: values.rebuild, log });
const selected = values.only?.split(',').map((name) => name.trim().toLowerCase());
const cases = casesFor(seeded).filter(
  (item) => !selected || selected.some((name) => item.name.toLowerCase().includes(name)),
);
if (cases.length === 0) {
  console.error(`no case matches --only ${values.only}`);
  process.exit(2);
}

const dataDir = mkdtempSync(join(tmpdir(), 'raspa-bench-api-'));
let service: ChildProcess | undefined;
let database: BenchDatabase | undefined;
try {
  log(`copying the ledger (${seeded.sizeMb} MB) to ${dataDir}`);
  // On PostgreSQL the copy gives the service its secret.key (the ledger's sealed tokens); the
  // SQLite file in it is not opened.
  copyLedger(seeded, dataDir);
  if (onPostgres) database = await startLedgerDatabase(seeded, log, { rebuild: values.rebuild });
  const started = await startServiceOnFreePort({
    dataDir,
    apiKey: seeded.apiKey,
    ...(database && { env: { DATABASE_URL: database.url } }),
    ...(values['cpu-prof'] && { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${RESULTS_DIR}`] }),
  });
  service = started.child;
  const base = `http://127.0.0.1:${started.port}`;
  const login = await fetch(`${base}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: seeded.apiKey }),
  });
  if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
  const tokens = ((await login.json()) as { data: TokenSet }).data;

  const results: CaseResult[] = [];
  for (const item of cases) {
    log(`${item.name}: ${item.method} ${item.path} for ${seconds} s`);
    results.push(await runCase(base, tokens, item));
  }
  const rss = rssMb(service.pid);
  const load = loadAverage();
  const failed = results.reduce((sum, item) => sum + item.non2xx + item.errors, 0);
  const table = Object.fromEntries(
    results.map((item) => [
      item.name,
      {
        'req/s': item.requestsPerSecond,
        'p50 ms': item.latencyMs.p50,
        'p97.5 ms': item.latencyMs.p97_5,
        'p99 ms': item.latencyMs.p99,
        'max ms': item.latencyMs.max,
        totalCount: item.totalCount ?? '',
        'non-2xx': item.non2xx,
        errors: item.errors,
      },
    ]),
  );
  const command = `pnpm bench:api --seconds ${seconds} --connections ${connections} --rounds ${rounds}${
    values.only ? ` --only '${values.only}'` : ''
  }${onPostgres ? ' --database postgres' : ''}`;
  report(
    'api',
    command,
    {
      seconds,
      connections,
      database: values.database,
      ledger: {
        rounds: seeded.rounds,
        transactions: seeded.transactions,
        profiles: seeded.profiles.length,
        sizeMb: seeded.sizeMb,
        migrations: seeded.migrations,
        busyPlayerRounds: seeded.busyPlayer.rounds,
      },
      cases: results,
      serviceRssMb: rss,
      loadAverage1m: load,
      failed,
    },
    table,
  );
  console.log(`service RSS ${rss} MB, load average (1 min) ${load}`);
  process.exitCode = failed === 0 ? 0 : 1;
} finally {
  await stopProcess(service);
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
}
