import { join } from 'node:path';
import type { Logger } from '../logger.ts';
import type { InstanceIdentity } from './postgres/instance-heartbeats.ts';
import { openPostgresStore } from './postgres/postgres-store.ts';
import { openSqliteStore } from './sqlite/sqlite-store.ts';
import type { Store } from './store.ts';

/**
 * The service's store: the PostgreSQL database of DATABASE_URL when it is set, else the embedded
 * SQLite file in DATA_DIR. `readonly` opens it for a report that changes nothing (verify-pool);
 * `logger` hears what the start did beyond the migrations (a restored PostgreSQL database's repair).
 */
export function openConfiguredStore(
  settings: {
    DATABASE_URL?: string | undefined;
    DATABASE_POOL_SIZE?: number | undefined;
    LEDGER_COUNT_FOLD?: boolean | undefined;
    DATA_DIR: string;
    STATEMENT_STATS?: string | undefined;
  },
  options: {
    readonly?: boolean;
    /** A serving instance (main.ts, buildDeps): its generation is checked against the database's. */
    instance?: InstanceIdentity;
    logger?: Logger;
  } = {},
): Store {
  if (settings.DATABASE_URL)
    return openPostgresStore(settings.DATABASE_URL, {
      ...options,
      statementStats: settings.STATEMENT_STATS,
      foldCounts: settings.LEDGER_COUNT_FOLD !== false,
      ...(settings.DATABASE_POOL_SIZE && { maxConnections: settings.DATABASE_POOL_SIZE }),
    });
  return openSqliteStore(join(settings.DATA_DIR, 'raspa.sqlite'), {
    ...options,
    statementStats: settings.STATEMENT_STATS,
  });
}
