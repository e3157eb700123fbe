import { defineProject } from 'vitest/config';

// Browser tests: one file at a time (each drives Chromium), generous time-outs for a loaded CI box.
export default defineProject({
  test: {
    name: 'e2e',
    include: ['tests/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
