import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`, e.g. `pnpm bench:play --cpu-prof DIR`):
 * where the self time went, by function and by package, so a bench run says what limits it.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' } },
});
if (positionals.length === 0) {
  console.error('usage: pnpm bench:profile FILE.cpuprofile [--top N]');
  process.exit(2);
}

/** node_modules/<package>, our source folder, or node's internals. */
function area(url: string): string {
  if (url === '') return '(native / idle / gc)';
  const module = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (module?.[1]) return module[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const ours = /\/(apps|packages)\/([^/]+)\/src\/([^/]+)/.exec(url);
  return ours ? `${ours[1]}/${ours[2]}/${ours[3]}` : url;
}

for (const file of positionals) {
  const profile: { nodes: ProfileNode[]; startTime: number; endTime: number } = JSON.parse(
    readFileSync(file, 'utf8'),
  );
  const total = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + hits);
    byArea.set(area(url), (byArea.get(area(url)) ?? 0) + hits);
  }
  // Inclusive time of our own named functions: a sample counts once for each of them on its stack.
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const inclusive = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0) continue;
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parentOf.get(id)) {
      const { functionName, url } = byId.get(id)?.callFrame ?? { functionName: '', url: '' };
      if (!functionName || !/\/(apps|packages)\//.test(url) || url.includes('node_modules')) continue;
      const name = `${functionName} ${url.split('/').slice(-2).join('/')}`;
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + hits);
    }
  }
  const share = (hits: number) => `${((100 * hits) / total).toFixed(1)}%`;
  const top = (map: Map<string, number>, n: number) =>
    Object.fromEntries(
      [...map]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([k, v]) => [k, share(v)]),
    );
  console.log(`\n${file}: ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s, ${total} samples`);
  console.log('self time by area:');
  console.table(top(byArea, 20));
  console.log('self time by function:');
  console.table(top(byFunction, Number(values.top)));
  console.log('inclusive time of our functions (callees included):');
  console.table(top(inclusive, Number(values.top)));
}
