import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/*',
      'apps/*',
      'e2e',
      // Checks of the repository itself (the README's commands), beside the scripts they check.
      { test: { name: 'repo', include: ['scripts/**/*.test.ts'], testTimeout: 120_000 } },
    ],
  },
});
