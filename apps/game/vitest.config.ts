import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'game',
    include: ['src/**/*.test.ts'],
    setupFiles: ['../../packages/core/src/testing/property-seed.ts'],
  },
});
