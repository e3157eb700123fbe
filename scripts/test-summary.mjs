#!/usr/bin/env node
// Prints what a test run recorded (test-record.mjs): every test that needed its retry, every file
// that failed, and the ten slowest files. `npm test` ends with it, so a wavering test is seen.
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** The record's lines, in the order the files ended; none when the file is missing. */
export function readRecord(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

const where = (entry) => `${entry.file} [${entry.project}]`;

/** The summary as lines of text. */
export function summarize(entries, slowest = 10) {
  if (entries.length === 0) return ['No test file ran.'];
  const retried = entries.flatMap((entry) => entry.retried.map((test) => ({ ...test, where: where(entry) })));
  const failed = entries.filter((entry) => entry.state === 'failed');
  const lines = [`Tests that needed their retry: ${retried.length === 0 ? 'none' : retried.length}`];
  for (const test of retried)
    lines.push(
      `  ${test.where} > ${test.test} (${test.passed ? 'passed on its retry' : 'failed every try'})`,
    );
  if (failed.length > 0) {
    lines.push(`Files that failed: ${failed.length}`);
    for (const entry of failed) {
      lines.push(`  ${where(entry)}`);
      for (const failure of entry.failures) lines.push(`    ${failure.test}: ${failure.error}`);
    }
  }
  const bySlowest = [...entries].sort((a, b) => b.ms - a.ms).slice(0, slowest);
  if (bySlowest.length > 0) lines.push(`The ${bySlowest.length} slowest test files:`);
  for (const entry of bySlowest)
    lines.push(`  ${(entry.ms / 1000).toFixed(1).padStart(6)} s  ${where(entry)}`);
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2] ?? 'test-results/record.jsonl';
  console.log(summarize(readRecord(file)).join('\n'));
}
