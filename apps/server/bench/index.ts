import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RESULTS_DIR, report } from './kit/report.ts';

/**
 * `pnpm bench`: every benchmark in turn, each in its own processes, then one summary beside the
 * issue-7 targets. Each part also runs alone (`pnpm bench:play`, `bench:api`, …) with more flags.
 * `--quick` runs the same parts small and short (a smoke run: minutes, not figures to quote).
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const bench = (file: string) => fileURLToPath(new URL(file, import.meta.url));

const PARTS = ['core', 'baselines', 'play', 'api', 'idle'] as const;
type Part = (typeof PARTS)[number];

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
const quick = values.quick;
const only = values.only?.split(',').map((part) => part.trim()) ?? [...PARTS];
const unknown = only.filter((part) => !PARTS.includes(part as Part));
if (unknown.length > 0) {
  console.error(`usage: pnpm bench [--quick] [--only ${PARTS.join(',')}] (unknown: ${unknown.join(', ')})`);
  process.exit(2);
}

interface Step {
  part: Part;
  /** The JSON the step writes (results/<name>-*.json); none for the core figures. */
  name?: string;
  title: string;
  args: string[];
}

const seconds = quick ? '3' : '15';
const steps: Step[] = [
  { part: 'core', title: 'core: ladder, pool, signer, simulation', args: ['packages/core/bench/index.ts'] },
  {
    part: 'baselines',
    name: 'baselines',
    title: 'baselines: bare Socket.IO acks, bare Express GET',
    args: [bench('./baselines.ts'), '--players', '200', '--seconds', quick ? '3' : '10'],
  },
  ...(quick ? [20] : [100, 200, 1000]).map(
    (players): Step => ({
      part: 'play',
      name: 'play-loop',
      title: `play loop: ${players} players`,
      args: [bench('./play-loop.ts'), '--players', String(players), '--seconds', seconds],
    }),
  ),
  {
    part: 'api',
    name: 'api',
    title: `API: lists on ${quick ? '20,000' : '1,000,000'} rounds, games, signed simulation`,
    args: [bench('./api.ts'), '--seconds', quick ? '2' : '10', '--rounds', quick ? '20000' : '1000000'],
  },
  {
    part: 'idle',
    name: 'idle-connections',
    title: `idle players: ${quick ? '500' : '10,000'} connected`,
    args: [
      bench('./idle-connections.ts'),
      '--players',
      quick ? '500' : '10000',
      '--idle-seconds',
      quick ? '3' : '30',
    ],
  },
];

/** Runs one step as its own process, its output shown as it comes. */
function run(step: Step): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...step.args], { cwd: root, stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

// The benches' JSON, read field by field for the summary (each bench owns its shape).
// biome-ignore lint/suspicious/noExplicitAny: see above
type BenchJson = any;

/** The JSON a step wrote: the newest `<name>-*.json` written after `since`. */
function written(name: string, since: number): { file: string; result: BenchJson } | undefined {
  const file = readdirSync(RESULTS_DIR)
    .filter((entry) => entry.startsWith(`${name}-`) && entry.endsWith('.json'))
    .sort()
    .at(-1);
  if (!file) return undefined;
  const full = JSON.parse(readFileSync(join(RESULTS_DIR, file), 'utf8'));
  return Date.parse(full.at) >= since ? { file, result: full.result } : undefined;
}

const started = Date.now();
const outcomes: { title: string; exit: number; file?: string; result?: BenchJson }[] = [];
for (const step of steps.filter((item) => only.includes(item.part))) {
  console.log(`\n=== ${step.title} ===`);
  const since = Date.now();
  const exit = await run(step);
  const output = step.name ? written(step.name, since) : undefined;
  outcomes.push({ title: step.title, exit, ...output });
}

// ---- the summary, beside the targets of issue 7 ----

const find = (prefix: string) => outcomes.find((outcome) => outcome.title.startsWith(prefix))?.result;
const socket = find('baselines')?.socket;
const express = find('baselines')?.express;
const table: Record<string, Record<string, unknown>> = {};
for (const outcome of outcomes) {
  const r = outcome.result;
  if (!r) {
    table[outcome.title] = { figures: outcome.exit === 0 ? 'printed above' : '—', exit: outcome.exit };
    continue;
  }
  if (outcome.title.startsWith('play loop')) {
    table[outcome.title] = {
      figures:
        `${r.roundsPerSecond} rounds/s, buy p99 ${r.buyMs.p99} ms, ${r.serviceCpuMsPerRound} CPU ms/round, ` +
        `webhook lag p99 ${r.webhooks.lagMs.p99} ms, ${r.errors} errors`,
      // A round is two acknowledged requests (buy, reveal).
      'vs bare': socket
        ? `${Math.round((100 * 2 * r.roundsPerSecond) / socket.acksPerSecond)}% of bare Socket.IO`
        : '',
      exit: outcome.exit,
    };
  } else if (outcome.title.startsWith('baselines')) {
    table[outcome.title] = {
      figures:
        `Socket.IO ${r.socket.acksPerSecond} acks/s (p99 ${r.socket.latencyMs.p99} ms), ` +
        `Express ${r.express.requestsPerSecond} req/s (p99 ${r.express.latencyMs.p99} ms)`,
      exit: outcome.exit,
    };
  } else if (outcome.title.startsWith('API')) {
    const cases = r.cases as { name: string; requestsPerSecond: number; latencyMs: { p99: number } }[];
    const lists = cases.filter((item) => /^(tx|round):/.test(item.name));
    const ratio = (item: { requestsPerSecond: number }) =>
      express ? Math.round((100 * item.requestsPerSecond) / express.requestsPerSecond) : Number.NaN;
    const listRatios = lists.map(ratio);
    table[outcome.title] = {
      figures:
        `lists: p99 ${Math.min(...lists.map((item) => item.latencyMs.p99))}–` +
        `${Math.max(...lists.map((item) => item.latencyMs.p99))} ms over ${lists.length} cases`,
      'vs bare': express
        ? `lists ${Math.min(...listRatios)}–${Math.max(...listRatios)}% of bare Express; ` +
          cases
            .filter((item) => !lists.includes(item))
            .map((item) => `${item.name} ${ratio(item)}%`)
            .join(', ')
        : '',
      exit: outcome.exit,
    };
  } else if (outcome.title.startsWith('idle')) {
    table[outcome.title] = {
      figures: `${r.connected} connected, service RSS ${r.serviceRssMb.settled} MB, ${r.rssPerPlayerKb.settled} KB per player`,
      exit: outcome.exit,
    };
  }
}

report(
  'summary',
  `pnpm bench${quick ? ' --quick' : ''}${values.only ? ` --only ${values.only}` : ''}`,
  { minutes: Math.round((Date.now() - started) / 6000) / 10, outcomes },
  table,
);
console.log(`\ntargets (issue 7, 2 cores): ≥ 2,000 rounds/s at 200 players with buy p99 ≤ 50 ms and 0 errors;
lists < 20 ms p99 on 1,000,000 rounds; 10,000 idle players in ≤ 1 GB. docs/benchmarks.md has the measured runs.`);
process.exitCode = outcomes.every((outcome) => outcome.exit === 0) ? 0 : 1;
