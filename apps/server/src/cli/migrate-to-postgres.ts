// `pnpm admin migrate-to-postgres --to postgres://… [--data-dir <dir>]` (docs/store.md "Moving to
// PostgreSQL"): what the operator sees of the copy. The copy itself is store/transfer/.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { SERVER_KEY_FILE } from '../security/server-key.ts';
import { createPool } from '../store/postgres/database.ts';
import { openLockedSource } from '../store/transfer/sqlite-source.ts';
import {
  copySqliteToPostgres,
  prepareTarget,
  type TransferReport,
} from '../store/transfer/sqlite-to-postgres.ts';
import { TransferError } from '../store/transfer/transfer-error.ts';

export const migrateToPostgresArgs = z.object({
  to: z.url({
    protocol: /^postgres(ql)?$/,
    error: (issue) =>
      issue.input === undefined ? 'is required' : 'must be a postgres:// or postgresql:// URL',
  }),
  'data-dir': z.string().trim().min(1, 'must not be empty').optional(),
});

export type MigrateToPostgresArgs = z.infer<typeof migrateToPostgresArgs>;

interface Output {
  out(line: string): void;
  err(line: string): void;
}

/** The URL as it may be printed: without its password. */
export function redactedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.href;
}

/** Where this installation's server key is, never the key itself (security/server-key.ts loadServerKey). */
function keyLines(config: Config, dataDir: string): string[] {
  const lines = [
    'Every instance on PostgreSQL needs the same server key as this installation: wallet and webhook tokens',
    'and the seeds of running pools are sealed with it, and cannot be opened with another one.',
  ];
  if (config.SECRET_KEY) {
    lines.push(
      "  This installation's key is SECRET_KEY in its configuration (environment or .env): give every",
      '  instance the same SECRET_KEY.',
    );
    return lines;
  }
  const file = join(dataDir, SERVER_KEY_FILE);
  if (existsSync(file)) {
    lines.push(
      `  This installation's key is in ${file}: give every instance SECRET_KEY=<the 64 hex characters in`,
      "  that file>, or copy the file into each instance's DATA_DIR. Keep it secret; it is not printed here.",
    );
  } else {
    lines.push(
      `  No key was found (SECRET_KEY is unset and ${file} does not exist): find the key this database was`,
      '  written with before you start the service on PostgreSQL.',
    );
  }
  return lines;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function summaryLines(report: TransferReport): string[] {
  const width = Math.max(...report.tables.map((t) => t.table.length), 5);
  const lines = [
    "Copied and checked row for row (count, money sums and every row's content), then committed:",
  ];
  for (const { table, rows, sums } of report.tables) {
    const money = Object.entries(sums).map(([column, sum]) => `${column} ${sum}`);
    lines.push(
      `  ${table.padEnd(width)} ${String(rows).padStart(9)} rows${money.length ? `   sums: ${money.join(', ')}` : ''}`,
    );
  }
  const total = report.tables.reduce((sum, t) => sum + t.rows, 0);
  lines.push(
    `  ${'total'.padEnd(width)} ${String(total).padStart(9)} rows in ${plural(report.tables.length, 'table')}`,
  );
  lines.push('Not copied:');
  for (const { table, why } of report.notCopied) lines.push(`  ${table}: ${why}`);
  lines.push("  schema_migrations: each database's own record of its migrations");
  return lines;
}

/** Runs the command; the exit code: 0 copied, 1 refused or failed (nothing changed on PostgreSQL). */
export async function migrateToPostgres(
  args: MigrateToPostgresArgs,
  config: Config,
  output: Output,
): Promise<number> {
  const dataDir = args['data-dir'] ?? config.DATA_DIR;
  const file = join(dataDir, 'raspa.sqlite');
  const target = redactedUrl(args.to);
  output.out(`Copying the embedded database ${file} into ${target}`);
  let source: ReturnType<typeof openLockedSource> | undefined;
  const pool = createPool(args.to, { max: 1 });
  try {
    source = openLockedSource(file);
    output.out(
      'The embedded database is locked for writing until the copy ends (SQLite BEGIN IMMEDIATE): a service still\n' +
        'running on it cannot change it meanwhile (its writes fail). Stop the service before you copy.',
    );
    const applied = await prepareTarget(pool);
    output.out(
      applied.length > 0
        ? `PostgreSQL: the target is empty; its schema was created (${applied.join(', ')}).`
        : "PostgreSQL: the target is empty and already at this version's schema.",
    );
    output.out(
      'Copying, in one PostgreSQL transaction that commits only if every table reads back the same:',
    );
    const report = await copySqliteToPostgres(source.db, pool, output.out);
    for (const line of summaryLines(report)) output.out(line);
    output.out('');
    for (const line of keyLines(config, dataDir)) output.out(line);
    output.out('');
    output.out(
      `Next: start the service with DATABASE_URL=${target} (and the same key). The SQLite file is unchanged:`,
    );
    output.out(
      'keep it as a backup, and do not start the service on it again, or the two databases would diverge.',
    );
    return 0;
  } catch (error) {
    output.err(`error: ${describe(error)}`);
    output.err(
      'No row was copied to PostgreSQL (the copy rolled back or never began); the SQLite file is unchanged.',
    );
    return 1;
  } finally {
    source?.release();
    await pool.end().catch(() => {});
  }
}

/** An error in words for the operator: the reason, never a stack trace. */
function describe(error: unknown): string {
  if (error instanceof TransferError) return error.message;
  const failure = error as NodeJS.ErrnoException & { code?: string };
  if (failure?.code === 'ECONNREFUSED' || failure?.code === 'ENOTFOUND' || failure?.code === 'ETIMEDOUT')
    return `cannot reach the PostgreSQL server (${failure.code}): ${failure.message}`;
  if (error instanceof AggregateError && error.errors.length > 0)
    return `cannot reach the PostgreSQL server: ${error.errors.map((e: Error) => e.message).join('; ')}`;
  return error instanceof Error ? `${error.message}` : String(error);
}
