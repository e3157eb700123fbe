#!/usr/bin/env node
// pnpm test:shake FILE... [--runs N] [--busy N] [--shuffle] [--project NAME]... [-- VITEST_ARGS]
//
// Runs the given test files N times (10 by default) beside N busy CPU loops (2 by default), the way
// a loaded CI machine runs them, and prints each file's passes and failures with the first error of
// each failure. A test that depends on the machine's speed shows here instead of in CI. No retry is
// allowed (CI is unset for the runs), so a test that would pass only on its retry counts as failed.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRecord } from './test-summary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const usage =
  'usage: pnpm test:shake FILE... [--runs N] [--busy N] [--shuffle] [--project NAME]... [-- VITEST_ARGS]';

function parse(argv) {
  const options = { files: [], runs: 10, busy: 2, shuffle: false, projects: [], passThrough: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} wants a value`);
      return next;
    };
    const count = (text, least) => {
      const n = Number(text);
      if (!Number.isInteger(n) || n < least) throw new Error(`${arg} wants a whole number from ${least}`);
      return n;
    };
    if (arg === '--') options.passThrough = argv.slice(i + 1);
    else if (arg === '--runs') options.runs = count(value(), 1);
    else if (arg === '--busy') options.busy = count(value(), 0);
    else if (arg === '--shuffle') options.shuffle = true;
    else if (arg === '--project') options.projects.push(value());
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}`);
    else options.files.push(arg);
    if (arg === '--') break;
  }
  if (options.files.length === 0) throw new Error('name at least one test file');
  return options;
}

let options;
try {
  options = parse(process.argv.slice(2));
} catch (error) {
  console.error(`${error.message}\n${usage}`);
  process.exit(2);
}

// The busy loops: plain processes spinning on a core each, killed by pid however this script ends.
const loops = Array.from({ length: options.busy }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stopLoops = () => {
  for (const loop of loops) if (loop.exitCode === null) loop.kill('SIGKILL');
};
process.on('exit', stopLoops);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

// One folder per shake, so two shakes side by side keep their own logs.
const outDir = join(root, 'test-results', 'shake', new Date().toISOString().replace(/[:.]/g, '-'));
mkdirSync(outDir, { recursive: true });
const env = { ...process.env };
delete env.CI; // no retry: a test that needs one fails here

const tally = new Map(); // "file [project]" -> { passes, failures: [{ run, error }] }
const entryOf = (key) => {
  if (!tally.has(key)) tally.set(key, { passes: 0, failures: [] });
  return tally.get(key);
};
console.log(
  `[shake] ${options.files.length} file(s), ${options.runs} run(s), ${options.busy} busy loop(s)` +
    `${options.shuffle ? ', shuffled' : ''}; logs in ${outDir}`,
);
for (let run = 1; run <= options.runs; run++) {
  const record = join(outDir, `record-${run}.jsonl`);
  const log = join(outDir, `run-${run}.log`);
  const args = [
    'run',
    ...options.files,
    ...options.projects.flatMap((name) => ['--project', name]),
    '--reporter=dot',
    '--reporter=./scripts/test-record.mjs',
    ...(options.shuffle ? ['--sequence.shuffle'] : []),
    ...options.passThrough,
  ];
  const started = Date.now();
  const output = openSync(log, 'w');
  const result = spawnSync(join(root, 'node_modules', '.bin', 'vitest'), args, {
    cwd: root,
    env: { ...env, RASPA_TEST_RECORD: record },
    stdio: ['ignore', output, output],
  });
  const entries = readRecord(record);
  const failed = [];
  for (const entry of entries) {
    const key = `${entry.file} [${entry.project}]`;
    if (entry.state === 'failed') {
      const first = entry.failures[0];
      entryOf(key).failures.push({ run, error: first ? `${first.test}: ${first.error}` : 'failed' });
      failed.push(key);
    } else if (entry.state === 'passed') entryOf(key).passes++;
  }
  if (entries.length === 0 || (result.status !== 0 && failed.length === 0)) {
    entryOf('(the run itself)').failures.push({
      run,
      error: `vitest exited ${result.status ?? result.signal}`,
    });
    failed.push('(the run itself)');
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(
    `[shake] run ${run}/${options.runs} in ${seconds} s: ${failed.length === 0 ? 'all passed' : `failed: ${failed.join(', ')} (${log})`}`,
  );
}

let anyFailed = false;
console.log('\n[shake] passes and failures per file');
for (const [key, { passes, failures }] of [...tally].sort(([a], [b]) => a.localeCompare(b))) {
  anyFailed ||= failures.length > 0;
  console.log(`  ${String(passes).padStart(3)} passed ${String(failures.length).padStart(3)} failed  ${key}`);
  for (const failure of failures) console.log(`      run ${failure.run}: ${failure.error}`);
}
process.exit(anyFailed ? 1 : 0);
