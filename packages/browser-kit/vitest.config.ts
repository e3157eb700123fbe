import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'browser-kit',
    include: ['src/**/*.test.ts'],
    setupFiles: ['../../packages/core/src/testing/property-seed.ts'],
  },
});
