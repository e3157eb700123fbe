// A Vitest reporter that writes one JSON line per test file to the file named by RASPA_TEST_RECORD
// (nothing when it is unset): its project, time, failures with their first error, and every test
// that was retried. The check's summary (test-summary.mjs) and test:shake read these lines, so a
// test that passed only on its CI retry is listed instead of hidden.
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, relative } from 'node:path';

/** The first line of an error, short enough for a summary. */
export function firstLine(error) {
  if (!error) return 'failed (no error recorded)';
  const text = `${error.name && error.name !== 'Error' ? `${error.name}: ` : ''}${error.message ?? String(error)}`;
  const line = text.split('\n').find((part) => part.trim() !== '') ?? text;
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

export default class TestRecord {
  onInit(vitest) {
    this.root = vitest.config.root;
  }

  onTestModuleEnd(testModule) {
    const target = process.env.RASPA_TEST_RECORD;
    if (!target) return;
    const failures = [];
    const retried = [];
    // Errors outside any test: the file's import, or a hook of a suite.
    for (const error of testModule.errors()) failures.push({ test: '(file)', error: firstLine(error) });
    for (const suite of testModule.children.allSuites())
      for (const error of suite.errors()) failures.push({ test: suite.fullName, error: firstLine(error) });
    for (const test of testModule.children.allTests()) {
      const result = test.result();
      const diagnostic = test.diagnostic();
      if (result.state === 'failed')
        failures.push({ test: test.fullName, error: firstLine(result.errors?.[0]) });
      if (diagnostic && diagnostic.retryCount > 0)
        retried.push({
          test: test.fullName,
          retries: diagnostic.retryCount,
          passed: result.state === 'passed',
        });
    }
    const diagnostic = testModule.diagnostic();
    const line = {
      project: testModule.project.name,
      file: relative(this.root, testModule.moduleId),
      state: testModule.state(),
      // The file's own time: import, set-up, then every test and hook.
      ms: Math.round(diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration),
      failures,
      retried,
    };
    mkdirSync(dirname(target), { recursive: true });
    appendFileSync(target, `${JSON.stringify(line)}\n`);
  }
}
