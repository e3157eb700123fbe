#!/usr/bin/env node
// Prints the size of the built page's JavaScript, raw and gzipped, file by file and in total
// (budget: 350 KB gzipped in total). Run after `pnpm --filter @raspa/game build`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 350;
const assets = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'assets');
let files;
try {
  files = readdirSync(assets).filter((name) => name.endsWith('.js'));
} catch {
  console.error(`no build at ${assets}: run pnpm --filter @raspa/game build first`);
  process.exit(1);
}
const kb = (bytes) => (bytes / 1024).toFixed(1);
let raw = 0;
let gzipped = 0;
const rows = files
  .map((name) => {
    const bytes = readFileSync(join(assets, name));
    const gz = gzipSync(bytes, { level: 9 }).length;
    raw += statSync(join(assets, name)).size;
    gzipped += gz;
    return { name, raw: bytes.length, gz };
  })
  .sort((a, b) => b.gz - a.gz);
for (const row of rows)
  console.log(`${kb(row.gz).padStart(8)} KB gz  ${kb(row.raw).padStart(8)} KB  ${row.name}`);
console.log(
  `${kb(gzipped).padStart(8)} KB gz  ${kb(raw).padStart(8)} KB  total JavaScript (${files.length} files)`,
);
if (gzipped / 1024 > BUDGET_KB) {
  console.error(`over the budget of ${BUDGET_KB} KB gzipped`);
  process.exit(1);
}
