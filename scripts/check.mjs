#!/usr/bin/env node
// `npm test`: the typecheck, the linter, every test and the browser tests, in that order, stopping
// at the first step that fails. Whatever happens, it ends with the tests' summary (test-summary.mjs):
// the tests that needed their CI retry, the files that failed and the slowest files.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRecord, summarize } from './test-summary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const record = join(root, 'test-results', 'record.jsonl');
const steps = [
  ['pnpm', 'typecheck'],
  ['pnpm', 'lint'],
  ['node', 'scripts/ensure-test-tools.mjs'],
  ['pnpm', 'test:unit'],
  ['pnpm', 'build:game'],
  ['pnpm', 'build:panel'],
  ['pnpm', 'test:e2e'],
];

rmSync(record, { force: true });
const env = { ...process.env, RASPA_TEST_RECORD: record };
let status = 0;
for (const [command, ...args] of steps) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  status = result.error ? 1 : (result.status ?? 1);
  console.log(
    `[check] ${[command, ...args].join(' ')}: ${status === 0 ? 'ok' : `failed (${status})`} in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  if (status !== 0) break;
}
console.log(`\n[check] summary\n${summarize(readRecord(record)).join('\n')}`);
process.exit(status);
