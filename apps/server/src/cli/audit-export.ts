/**
 * Writes every client's anchors with their leaves to a file, for an auditor to verify offline
 * with the public key alone (`pnpm verify-audit --file <it> --key <base64>`; docs/audit.md).
 *
 *   pnpm audit-export --out <file> [--data-dir <dir>]
 *
 * Reads the database (DATABASE_URL or the SQLite file) read-only. Exit 0 when written, 2 otherwise.
 */
import { writeFileSync } from 'node:fs';
import { exportAudit } from '../audit/audit-export.ts';
import { openCliStore } from './cli-store.ts';
import { readToolOptions, refuseUsage } from './tool-options.ts';

const USAGE = 'usage: pnpm audit-export --out <file> [--data-dir <dir>]';

async function main(argv: string[]): Promise<number> {
  const values = readToolOptions(argv, ['out', 'data-dir']);
  if (typeof values === 'string') return refuseUsage(values, USAGE);
  if (!values.out) return refuseUsage('--out is required', USAGE);
  const opened = openCliStore(values['data-dir'], USAGE);
  if (!opened) return 2;
  const { store } = opened;
  try {
    const exported = await exportAudit(store.auditAnchors);
    writeFileSync(values.out, `${JSON.stringify(exported)}\n`);
    const anchors = exported.clients.reduce((n, client) => n + client.anchors.length, 0);
    process.stdout.write(`wrote ${anchors} anchors of ${exported.clients.length} clients to ${values.out}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
