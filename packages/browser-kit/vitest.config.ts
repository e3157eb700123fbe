import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'browser-kit',
    include: ['src/**/*.test.ts'],
    isolate: false, // pure modules: one process per worker, not one per file (docs/development.md, "CI time")
    setupFiles: ['../../packages/core/src/testing/property-seed.ts'],
  },
});
