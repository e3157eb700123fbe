#!/usr/bin/env node
// Fails when a module of the server imports against its layers (docs/layers.md). Each row below
// is a layer, top first; a room is a folder of apps/server/src or a file at its root. A room may
// import from its own files and from the rooms of the rows below its own, never from its own row
// or above: so the order reads as a map, and a folder that reaches up (a router in ops/, a helper
// the services need kept in deps.ts) shows here before it becomes a cycle.
// A room not in the table fails too: a new folder is placed here when it is made.
//   node scripts/import-layers.mjs            (run by `pnpm typecheck`)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const LAYERS = [
  ['main.ts', 'cli/'], // entry points: the service; the command-line tools
  ['demo/'], // the first start's demo client and its credentials file
  ['server.ts'], // builds the process's Deps and starts its parts
  ['app.ts'], // the Express app: mounts the routers
  ['http/', 'realtime/'], // the transports: REST routes, pages, /health /ready /metrics, OpenAPI; the play socket
  ['services/'], // what a request asks for, over the store; puts play and webhooks together
  ['play/', 'webhooks/', 'audit/'], // the play loop; webhook delivery; the audit anchors
  ['wallet/'], // the operators' wallets
  ['deps.ts'], // what is injected: the store, the clock, ids, secrets, mail, metrics, DNS
  ['config.ts', 'mail/', 'security/', 'ops/', 'schemas/'], // settings; mail; secrets, passwords, captcha; metrics and readiness; wire schemas
  ['store/', 'outbound/', 'media/'], // the database; the outbound address policy; game covers
  ['clock.ts', 'ids.ts', 'logger.ts'], // leaves
];

const repo = fileURLToPath(new URL('..', import.meta.url));
const src = join(repo, 'apps', 'server', 'src');
const rowOf = new Map(LAYERS.flatMap((row, index) => row.map((room) => [room, index])));
const roomOf = (file) => {
  const path = relative(src, file).split(sep);
  return path.length > 1 ? `${path[0]}/` : path[0];
};

const files = readdirSync(src, { withFileTypes: true, recursive: true })
  .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
  .map((entry) => normalize(join(entry.parentPath, entry.name)));

const problems = [];
for (const file of files) {
  const from = roomOf(file);
  if (!rowOf.has(from)) {
    problems.push(`${relative(repo, file)}: ${from} has no layer (scripts/import-layers.mjs)`);
    continue;
  }
  // Static imports, re-exports and import() of a literal path; type-only imports count too.
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)) {
    const target = normalize(join(dirname(file), match[1]));
    if (!target.startsWith(src + sep)) continue;
    const to = roomOf(target);
    if (to === from) continue;
    if (!rowOf.has(to)) continue; // reported once, at its own files
    if (rowOf.get(to) <= rowOf.get(from)) {
      const where = rowOf.get(to) === rowOf.get(from) ? 'in the same layer as' : 'in a layer above';
      problems.push(`${relative(repo, file)} imports ${match[1]}: ${to} is ${where} ${from}`);
    }
  }
}
for (const problem of problems) console.log(`import against the layers: ${problem}`);
process.exit(problems.length > 0 ? 1 : 0);
