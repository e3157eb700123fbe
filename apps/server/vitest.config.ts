import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    // The server's own modules' tests (src/) are project server-rules, in the root vitest.config.ts.
    include: ['test/**/*.test.ts'],
    // Its own project, server-full-pool, in the root vitest.config.ts: a fresh process for it.
    exclude: ['test/full-pool.test.ts'],
    // A worker imports the server once for all its files, not once per file (docs/development.md,
    // "CI time"): each file starts its own servers, processes and databases and closes them.
    isolate: false,
    // One throwaway PostgreSQL cluster for the run, stopped and removed at its end (issue 13).
    globalSetup: ['test/postgres-global-setup.ts'],
    setupFiles: ['../../packages/core/src/testing/property-seed.ts'],
    // Bounds against a hang, not budgets: on a loaded 2-core CI machine a pool drawn to its end took
    // 42 s where a quiet one takes 10 (issue 33). Speed is the benchmarks' subject.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
