import { createHash } from 'node:crypto';

/**
 * A table's content as a row count, the sum of each money column (`*_minor`, exact, as bigint)
 * and an order-free digest: the sum (mod 2^64) of each row's SHA-256 prefix. Two reads agree only
 * if they hold the same rows, whatever order they come in and whichever database they come from
 * (a flag is 1/0, a number the same number, whether SQLite or PostgreSQL gave it).
 */
export interface TableDigest {
  rows: number;
  digest: bigint;
  sums: Record<string, bigint>;
}

/** The same value read from either side, written one way: every integer (and flag) as its digits. */
export function normalised(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value;
  if (Buffer.isBuffer(value)) return value.toString('base64');
  return value;
}

const MASK = 0xffff_ffff_ffff_ffffn;

export function createTableDigest(columns: readonly string[]) {
  let rows = 0;
  let digest = 0n;
  const money = columns.filter((column) => column.endsWith('_minor'));
  const sums: Record<string, bigint> = Object.fromEntries(money.map((column) => [column, 0n]));
  return {
    add(row: Record<string, unknown>): void {
      rows++;
      const line = JSON.stringify(columns.map((column) => normalised(row[column])));
      digest = (digest + createHash('sha256').update(line).digest().readBigUInt64BE(0)) & MASK;
      for (const column of money) {
        const value = row[column];
        if (value !== null && value !== undefined)
          sums[column] = (sums[column] ?? 0n) + BigInt(value as number);
      }
    },
    result: (): TableDigest => ({ rows, digest, sums: { ...sums } }),
  };
}

/** What differs between two digests of one table, in words; empty when they agree. */
export function digestDifferences(source: TableDigest, target: TableDigest): string[] {
  const differences: string[] = [];
  if (source.rows !== target.rows) differences.push(`${source.rows} rows copied, ${target.rows} read back`);
  for (const [column, sum] of Object.entries(source.sums)) {
    if (target.sums[column] !== sum)
      differences.push(`sum of ${column} ${sum} copied, ${target.sums[column]} read back`);
  }
  if (differences.length === 0 && source.digest !== target.digest)
    differences.push('the rows read back differ');
  return differences;
}
