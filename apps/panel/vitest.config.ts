import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'panel',
    include: ['src/**/*.test.ts'],
    setupFiles: ['../../packages/core/src/testing/property-seed.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
