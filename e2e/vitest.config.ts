import { defineProject } from 'vitest/config';

// Browser tests: each file starts its own service and Chromium, so two files run at once (test:e2e's
// --maxWorkers=2); generous time-outs for a loaded CI box.
export default defineProject({
  test: {
    name: 'e2e',
    include: ['tests/**/*.test.ts'],
    // One retry in CI, as Playwright's own default configuration has; the check's summary lists
    // every test that needed it (scripts/test-summary.mjs), so it is fixed rather than hidden.
    retry: process.env.CI ? 1 : 0,
    // A bound, not a budget: a card played end to end, or a 10,000,000-ticket pool, on a loaded 2-core box.
    testTimeout: 240_000,
    hookTimeout: 120_000,
  },
});
