import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One throwaway PostgreSQL cluster for the run, stopped and removed at its end (issue 13).
    globalSetup: ['test/postgres-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
