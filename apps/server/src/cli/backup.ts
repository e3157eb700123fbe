/**
 * A backup of the embedded database, safe while the service runs (docs/operating.md, "Backups and
 * restores"):
 *
 *   pnpm backup [--out <file>] [--data-dir <dir>]
 *
 * Copies DATA_DIR/raspa.sqlite (DATA_DIR from the environment or .env like the server; --data-dir
 * wins) to --out, by default DATA_DIR/backups/raspa-<UTC time>.sqlite, as one consistent snapshot
 * (store/sqlite/backup.ts), and prints what it wrote and which keys to keep with it. On PostgreSQL
 * (DATABASE_URL set) it copies nothing and says to use pg_dump or a base backup. Exit 0 written,
 * 1 when the copy failed or --out exists (no file written), 2 on bad arguments or no database to copy.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AUDIT_KEY_FILE } from '../audit/signing-key.ts';
import type { Config } from '../config.ts';
import { SERVER_KEY_FILE } from '../security/server-key.ts';
import { backupSqliteFile, type SqliteBackup } from '../store/sqlite/backup.ts';
import { readCliConfig } from './cli-store.ts';
import { readToolOptions, refuseUsage } from './tool-options.ts';

const USAGE = 'usage: pnpm backup [--out <file>] [--data-dir <dir>]';

/** Where each key the database needs is kept: copied once, never printed. */
function keyLines(config: Config): string[] {
  const where = (setting: 'SECRET_KEY' | 'AUDIT_SIGNING_KEY', file: string) => {
    if (config[setting]) return `${setting} in the configuration`;
    return existsSync(file) ? file : `${file}, not found: find the key this database was written with`;
  };
  return [
    'Keep with it, once (they do not change):',
    `  the server key, which seals wallet and webhook tokens and the seeds of running pools:`,
    `    ${where('SECRET_KEY', join(config.DATA_DIR, SERVER_KEY_FILE))}`,
    `  the audit signing key: ${where('AUDIT_SIGNING_KEY', join(config.DATA_DIR, AUDIT_KEY_FILE))}`,
    'A restore without them cannot open those. Copy the backup off this machine.',
    'Restore: docs/operating.md, "Backups and restores".',
  ];
}

function reportLines(source: string, written: SqliteBackup): string[] {
  const mb = (written.bytes / 1_048_576).toFixed(1);
  return [
    `Backed up ${source}`,
    `  to ${written.file} (${mb} MB, ${written.bytes} bytes)`,
    '  one consistent snapshot, taken with the service running or not (SQLite online backup API), then',
    '  checked (quick_check ok) and synced to disk before it got its name',
    `  at migration ${written.migration ?? '(none)'}: ${written.rounds} rounds, ${written.transactions} transactions`,
  ];
}

async function main(argv: string[]): Promise<number> {
  const options = readToolOptions(argv, ['out', 'data-dir']);
  if (typeof options === 'string') return refuseUsage(options, USAGE);
  const config = readCliConfig(options['data-dir']);
  if (!config) return 2;
  if (config.DATABASE_URL) {
    console.error(
      'DATABASE_URL is set: this command backs up the embedded SQLite file only. Back PostgreSQL up with\n' +
        'pg_dump --format=custom (or a base backup): docs/operating.md, "Backups and restores".',
    );
    return 2;
  }
  const source = join(config.DATA_DIR, 'raspa.sqlite');
  if (!existsSync(source)) {
    return refuseUsage(`no database at ${source} (set DATA_DIR or pass --data-dir)`, USAGE);
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const out = resolve(options.out ?? join(config.DATA_DIR, 'backups', `raspa-${stamp}.sqlite`));
  try {
    mkdirSync(dirname(out), { recursive: true });
    const written = await backupSqliteFile(source, out);
    for (const line of [...reportLines(source, written), ...keyLines(config)]) console.log(line);
    return 0;
  } catch (error) {
    console.error(`backup failed: ${(error as Error).message}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
