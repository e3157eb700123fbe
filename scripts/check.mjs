#!/usr/bin/env node
// `npm test`: the typecheck, the linter, every test and the browser tests, stopping at the first
// step that fails. The system programs' install (apt, mostly waiting on the network) and the pages'
// builds run beside the typecheck and the linter; the tests run after both. Whatever happens, it
// ends with the tests' summary (test-summary.mjs): the tests that needed their CI retry, the files
// that failed and the slowest files.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRecord, summarize } from './test-summary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, 'test-results');
const record = join(results, 'record.jsonl');
rmSync(record, { force: true });
mkdirSync(results, { recursive: true });
const env = { ...process.env, RASPA_TEST_RECORD: record };
// CI replays one fast-check seed (property-seed.ts), so a clean-clone run of a commit draws what CI
// will; elsewhere each run draws afresh and explores. A property that fails either way is a defect.
const CI_PROPERTY_SEED = '20261129';
if (process.env.CI && !env.FC_SEED) env.FC_SEED = CI_PROPERTY_SEED;
console.log(`[check] fast-check seed: ${env.FC_SEED ?? 'a fresh one per property (FC_SEED unset)'}`);

/** Runs one step; its output goes to the terminal, or to `log` (printed once it ends) beside another. */
function step(command, args, log) {
  const started = Date.now();
  const name = [command, ...args].join(' ');
  return new Promise((resolve) => {
    const output = log ? createWriteStream(log) : undefined;
    const child = spawn(command, args, {
      cwd: root,
      env,
      stdio: ['ignore', output ? 'pipe' : 'inherit', output ? 'pipe' : 'inherit'],
    });
    child.stdout?.pipe(output, { end: false });
    child.stderr?.pipe(output, { end: false });
    let ended = false;
    const done = (status) => {
      if (ended) return; // 'error' may come before 'close'
      ended = true;
      const seconds = Math.round((Date.now() - started) / 1000);
      const finish = () => {
        if (log) process.stdout.write(readFileSync(log, 'utf8'));
        console.log(`[check] ${name}: ${status === 0 ? 'ok' : `failed (${status})`} in ${seconds} s`);
        resolve(status);
      };
      if (output) output.end(finish);
      else finish();
    };
    child.once('error', () => done(1));
    child.once('close', (code) => done(code ?? 1));
  });
}

/** Steps one after the other, up to the first that fails. */
async function lane(steps, log) {
  for (const [command, ...args] of steps) {
    const status = await step(
      command,
      args,
      log && join(results, `${args.at(-1)?.replace(/\W+/g, '-')}.log`),
    );
    if (status !== 0) return status;
  }
  return 0;
}

const first = await Promise.all([
  lane([
    ['pnpm', 'typecheck'],
    ['pnpm', 'lint'],
  ]),
  lane(
    [
      ['node', 'scripts/ensure-test-tools.mjs'],
      ['pnpm', 'build:game'],
      ['pnpm', 'build:panel'],
    ],
    true,
  ),
]);
let status = first.find((each) => each !== 0) ?? 0;
if (status === 0) status = await lane([['pnpm', 'test:unit']]);
if (status === 0) status = await lane([['pnpm', 'test:e2e']]);
console.log(`\n[check] summary\n${summarize(readRecord(record)).join('\n')}`);
process.exit(status);
