import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, loadDotEnv, readConfig } from '../config.ts';
import { openConfiguredStore } from '../store/open-store.ts';
import type { Store } from '../store/store.ts';

/**
 * The service's configuration as a command-line tool finds it (the environment or .env; `dataDir`
 * wins over DATA_DIR), or, after printing its problems to stderr, null.
 */
export function readCliConfig(dataDir: string | undefined): Config | null {
  loadDotEnv();
  const configured = readConfig({ ...process.env, ...(dataDir !== undefined && { DATA_DIR: dataDir }) });
  if (configured.ok) return configured.config;
  console.error(`the configuration has problems:\n  ${configured.errors.join('\n  ')}`);
  return null;
}

/**
 * The service's database opened read-only for a command-line tool, as the service finds it
 * (DATABASE_URL, else DATA_DIR/raspa.sqlite from the environment or .env; `dataDir` wins), and the
 * words that name it; or, after printing why to stderr, null.
 */
export function openCliStore(
  dataDir: string | undefined,
  usage: string,
): { store: Store; where: string } | null {
  const config = readCliConfig(dataDir);
  if (!config) return null;
  const { DATABASE_URL } = config;
  const where = DATABASE_URL
    ? 'the PostgreSQL database of DATABASE_URL'
    : join(config.DATA_DIR, 'raspa.sqlite');
  if (!DATABASE_URL && !existsSync(where)) {
    console.error(`no database at ${where} (set DATA_DIR or pass --data-dir)\n${usage}`);
    return null;
  }
  try {
    return { store: openConfiguredStore(config, { readonly: true }), where };
  } catch (error) {
    console.error(`cannot open ${where}: ${(error as Error).message}`);
    return null;
  }
}
