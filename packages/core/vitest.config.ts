import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'core',
    include: ['src/**/*.test.ts'],
    isolate: false, // pure modules: one process per worker, not one per file (docs/development.md, "CI time")
    setupFiles: ['src/testing/property-seed.ts'],
    testTimeout: 120_000,
  },
});
