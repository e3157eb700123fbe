#!/usr/bin/env node
// Fails when the relative imports of a source folder form a cycle (type-only imports included:
// a cycle of types is still two modules that cannot be read one without the other).
//   node scripts/import-cycles.mjs <dir>...
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const sources = (dir) =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
    .filter((entry) => !/(^|\/)(node_modules|dist)(\/|$)/.test(entry.parentPath))
    .map((entry) => normalize(join(entry.parentPath, entry.name)));

let cycles = 0;
for (const root of process.argv.slice(2)) {
  const files = new Set(sources(root));
  const graph = new Map();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const imports = [...text.matchAll(/from\s+'(\.[^']+)'/g)].map((m) =>
      normalize(join(dirname(file), m[1])),
    );
    graph.set(
      file,
      imports.filter((target) => files.has(target)),
    );
  }
  // Tarjan's strongly connected components: each one of more than one module is a cycle.
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  let next = 0;
  const visit = (file) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file)) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file), low.get(target)));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file), index.get(target)));
    }
    if (low.get(file) !== index.get(file)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) {
      cycles++;
      console.log(`import cycle: ${component.map((f) => relative(process.cwd(), f)).join(' ↔ ')}`);
    }
  };
  for (const file of files) if (!index.has(file)) visit(file);
}
process.exit(cycles > 0 ? 1 : 0);
