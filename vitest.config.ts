import { defineConfig } from 'vitest/config';

/**
 * The server test files that run on PostgreSQL too (project server-postgres). Not the
 * SQLite-specific ones (ledger-counts, multi-currency-migration, verify-pool's tampering,
 * store-leases).
 */
const POSTGRES_SUITE = [
  'play-loop',
  'wallet-http',
  'ledger-reconciles',
  'crash-recovery',
  'lists',
  'webhook-delivery',
  'webhooks',
  'fuzz',
  'operations',
  'games',
  'profiles',
  'idempotency',
  'play-acks',
  'demo-play',
  'multi-currency-play',
  'audit-and-keys',
  'round-details',
  'report',
  'webhook-redeliver',
  'audit-scope',
  'panel-auth',
  'players',
  'sessions',
  'pools',
  'workers',
  'round-budget',
];

export default defineConfig({
  test: {
    projects: [
      'packages/*',
      'apps/*',
      'e2e',
      // The server's integration tests again, each server on a fresh PostgreSQL database
      // (test/harness.ts reads RASPA_TEST_STORE): both adapters pass the same suite (issue 13).
      {
        root: './apps/server',
        test: {
          name: 'server-postgres',
          include: POSTGRES_SUITE.map((file) => `test/${file}.test.ts`),
          env: { RASPA_TEST_STORE: 'postgres' },
          globalSetup: ['test/postgres-global-setup.ts'],
          // Every commit is a network round trip and an fsync: the 100-player burst of play-loop
          // took over 30 s here on PostgreSQL when the machine was loaded.
          testTimeout: 60_000,
          hookTimeout: 30_000,
        },
      },
      // Checks of the repository itself (the README's commands), beside the scripts they check.
      { test: { name: 'repo', include: ['scripts/**/*.test.ts'], testTimeout: 120_000 } },
    ],
  },
});
