import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Every integration test of the server runs on both databases: once on SQLite (project server)
 * and again, each server on a fresh PostgreSQL database, in project server-postgres. A file that
 * cannot says why in its own first line, and only there:
 *   // sqlite-only: <reason>     behaviour of the SQLite file (WAL, group commit, workers on one file…)
 *   // postgres-only: <reason>   runs on the PostgreSQL cluster already, in the server project
 *   // no-store: <reason>        no database is under test (configuration, pure rules, a script)
 * A marker without a reason fails the run.
 */
const ONE_RUN = /^\/\/ (sqlite-only|postgres-only|no-store):(.*)$/;

function onBothDatabases(testDir: string): string[] {
  return readdirSync(testDir)
    .filter((name) => name.endsWith('.test.ts'))
    .filter((name) => {
      const firstLine = readFileSync(join(testDir, name), 'utf8').split('\n', 1)[0] ?? '';
      const marker = ONE_RUN.exec(firstLine);
      if (marker && !marker[2]?.trim()) throw new Error(`${name}: '// ${marker[1]}:' wants its reason`);
      return !marker;
    })
    .map((name) => `test/${name}`);
}

export default defineConfig({
  test: {
    // test-record.mjs writes each file's outcome and retries for the check's summary and test:shake.
    reporters: ['default', './scripts/test-record.mjs'],
    projects: [
      'packages/*',
      'apps/*',
      'e2e',
      // The server's integration tests again, each server on a fresh PostgreSQL database
      // (test/harness.ts reads RASPA_TEST_STORE): both adapters pass the same suite (issue 13).
      {
        root: './apps/server',
        test: {
          name: 'server-postgres',
          include: onBothDatabases(fileURLToPath(new URL('./apps/server/test', import.meta.url))),
          env: { RASPA_TEST_STORE: 'postgres' },
          isolate: false, // as the server project's
          globalSetup: ['test/postgres-global-setup.ts'],
          setupFiles: ['../../packages/core/src/testing/property-seed.ts'],
          // Bounds against a hang, as in the server project: every commit is a network round trip
          // and an fsync, and play-loop's 100-player burst took over 30 s on a loaded machine.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      // The server's modules' own tests (src/): rules and single modules, no database server, so
      // one process per worker rather than one per file (docs/development.md, "CI time").
      {
        root: './apps/server',
        test: {
          name: 'server-rules',
          include: ['src/**/*.test.ts'],
          isolate: false,
          setupFiles: ['../../packages/core/src/testing/property-seed.ts'],
          testTimeout: 120_000,
        },
      },
      // full-pool plays a pool of 100,001 tickets to its end: alone it takes 94 s, but in the server project's
      // shared worker, in a heap the files before it grew, it took 226-340 s of CI's unit phase
      // (docs/development.md, "CI time"). A project of its own gives it a fresh process.
      {
        root: './apps/server',
        test: {
          name: 'server-full-pool',
          include: ['test/full-pool.test.ts'],
          isolate: true,
          setupFiles: ['../../packages/core/src/testing/property-seed.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      // Checks of the repository itself (the README's commands), beside the scripts they check.
      { test: { name: 'repo', include: ['scripts/**/*.test.ts'], testTimeout: 120_000 } },
    ],
  },
});
