/**
 * The tamper-evident record's verifier (docs/audit.md). Three forms:
 *
 *   pnpm verify-audit [--data-dir <dir>]              the live database (DATABASE_URL or the SQLite
 *                                                     file), read-only, with the keys it lists
 *   pnpm verify-audit --file <export> --key <base64>  an `pnpm audit-export` file, with only the
 *                                                     public key(s) given (--key repeats)
 *   pnpm verify-audit --proof <file> --key <base64>   one round's proof (GET /v1/round/{id}/proof)
 *
 * Prints the first break (which anchor, which record, what differs) and exits 1; exits 0 when all
 * holds, 2 on bad arguments or input it cannot read. It never changes anything.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type AuditBreak, type AuditKey, keyIdOf, verifyAudit, verifyProof } from '@raspa/core/audit';
import { proofShape, readAuditExport } from '../audit/audit-export.ts';
import { verifyStoredAudit } from '../audit/verify-records.ts';
import { openCliStore } from './cli-store.ts';

const USAGE =
  'usage: pnpm verify-audit [--data-dir <dir>] | --file <export.json> --key <base64> | --proof <proof.json> --key <base64>';

const write = (line: string) => process.stdout.write(`${line}\n`);

function describeBreak(found: AuditBreak): string {
  return `BREAK at anchor ${found.anchorSeq}${found.record ? `, ${found.record}` : ''}: ${found.reason}: ${found.detail}`;
}

/** `--key` values: base64 raw 32-byte Ed25519 public keys; their ids are derived from them. */
function keysOf(values: string[]): AuditKey[] | string {
  const keys: AuditKey[] = [];
  for (const value of values) {
    const raw = Buffer.from(value, 'base64');
    if (!/^[A-Za-z0-9+/]{43}=$/.test(value) || raw.length !== 32)
      return `--key ${value} is not a base64 32-byte public key`;
    keys.push({ keyId: keyIdOf(raw), publicKey: value });
  }
  return keys.length > 0 ? keys : '--key is required with --file and --proof';
}

function readJsonFile(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function checkProof(path: string, keys: AuditKey[]): number {
  let json: unknown;
  try {
    json = readJsonFile(path);
  } catch (error) {
    console.error(`cannot read ${path}: ${(error as Error).message}`);
    return 2;
  }
  // The API's answer as saved, or its `data` alone.
  const body = (json as { data?: unknown })?.data ?? json;
  const parsed = proofShape.safeParse(body);
  if (!parsed.success) {
    console.error(`${path} is not a round's proof: ${parsed.error.issues[0]?.message ?? ''}`);
    return 2;
  }
  const verdict = verifyProof(parsed.data, keys);
  if (!verdict.ok) {
    write(`BREAK: ${verdict.reason}: ${verdict.detail}`);
    return 1;
  }
  const { anchor, leafIndex } = parsed.data;
  write(
    `OK: the record is leaf ${leafIndex} of anchor ${anchor.seq} of client ${anchor.clientId} (${anchor.at}), signed by key ${anchor.keyId}.`,
  );
  return 0;
}

function checkExport(path: string, keys: AuditKey[]): number {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    console.error(`cannot read ${path}: ${(error as Error).message}`);
    return 2;
  }
  const clients = readAuditExport(text);
  if (typeof clients === 'string') {
    console.error(`${path}: ${clients}`);
    return 2;
  }
  let anchors = 0;
  let leaves = 0;
  for (const { clientId, anchors: chain } of clients) {
    const foreign = chain.find((item) => item.anchor.clientId !== clientId);
    if (foreign) {
      write(
        `client ${clientId}: BREAK at anchor ${foreign.anchor.seq}: client: the anchor names ${foreign.anchor.clientId}`,
      );
      return 1;
    }
    const verdict = verifyAudit(chain, keys);
    if (!verdict.ok) {
      write(`client ${clientId}: ${describeBreak(verdict.break)}`);
      return 1;
    }
    anchors += verdict.anchors;
    leaves += verdict.leaves;
  }
  write(
    `OK: ${clients.length} clients, ${anchors} anchors, ${leaves} leaves verified with the key(s) given.`,
  );
  return 0;
}

async function checkDatabase(dataDir: string | undefined): Promise<number> {
  const opened = openCliStore(dataDir, USAGE);
  if (!opened) return 2;
  const { store, where } = opened;
  try {
    const { clientId, verdict } = await verifyStoredAudit(store.auditAnchors);
    if (!verdict.ok) {
      write(`client ${clientId}: ${describeBreak(verdict.break)}`);
      return 1;
    }
    write(`OK: ${verdict.anchors} anchors, ${verdict.leaves} leaves verified in ${where}.`);
    return 0;
  } finally {
    await store.close();
  }
}

async function main(argv: string[]): Promise<number> {
  let values: { file?: string; proof?: string; key?: string[]; 'data-dir'?: string };
  try {
    values = parseArgs({
      args: argv,
      options: {
        file: { type: 'string' },
        proof: { type: 'string' },
        key: { type: 'string', multiple: true },
        'data-dir': { type: 'string' },
      },
      strict: true,
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.file === undefined && values.proof === undefined) return checkDatabase(values['data-dir']);
  if (values.file !== undefined && values.proof !== undefined) {
    console.error(`--file and --proof are two forms: give one\n${USAGE}`);
    return 2;
  }
  const keys = keysOf(values.key ?? []);
  if (typeof keys === 'string') {
    console.error(`${keys}\n${USAGE}`);
    return 2;
  }
  return values.proof !== undefined ? checkProof(values.proof, keys) : checkExport(values.file ?? '', keys);
}

process.exitCode = await main(process.argv.slice(2));
