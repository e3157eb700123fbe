import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { summarize } from './test-summary.mjs';

const entry = (file: string, ms: number, extra: object = {}) => ({
  project: 'server',
  file,
  state: 'passed',
  ms,
  failures: [],
  retried: [],
  ...extra,
});

describe("the check's test summary", () => {
  it('says so when no test file ran (a step before the tests failed)', () => {
    expect(summarize([])).toEqual(['No test file ran.']);
  });

  it('says none when no test needed its retry, and lists the slowest files first', () => {
    const lines: string[] = summarize([entry('a.test.ts', 1_000), entry('b.test.ts', 3_000)], 1);
    expect(lines).toEqual([
      'Tests that needed their retry: none',
      'The 1 slowest test files:',
      '     3.0 s  b.test.ts [server]',
    ]);
  });

  it('names each retried test and each failed file with its first error', () => {
    const lines: string[] = summarize([
      entry('a.test.ts', 10, { retried: [{ test: 'waits', retries: 1, passed: true }] }),
      entry('b.test.ts', 10, { state: 'failed', failures: [{ test: 'reads', error: 'Error: boom' }] }),
    ]);
    expect(lines).toContain('  a.test.ts [server] > waits (passed on its retry)');
    expect(lines).toContain('Files that failed: 1');
    expect(lines).toContain('    reads: Error: boom');
  });
});
