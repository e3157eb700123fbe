// The production build: src/main.ts bundled with esbuild into one ES module that plain `node` runs,
// beside copies of the files the service reads at run time (SQL migrations, docs pages, covers).
//   node scripts/build.mjs [outdir]     (default: dist)
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const srcDir = join(serverDir, 'src');
const outdir = resolve(serverDir, process.argv[2] ?? 'dist');
const { dependencies } = JSON.parse(readFileSync(join(serverDir, 'package.json'), 'utf8'));

// The server's own npm dependencies stay imports (installed beside it; better-sqlite3 and argon2
// are native). The workspace's @raspa/core is TypeScript, so it is bundled in, with whatever it
// imports that the server does not depend on itself.
const external = Object.keys(dependencies)
  .filter((name) => !name.startsWith('@raspa/'))
  .flatMap((name) => [name, `${name}/*`]);

/**
 * Modules find their files next to themselves (`import.meta.url`): in the bundle each one keeps
 * the URL it would have had in a dist/ laid out like src/, and the files are copied to match.
 */
const keepModuleUrls = {
  name: 'keep-module-urls',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!args.path.startsWith(srcDir + sep) || !source.includes('import.meta.url')) return undefined;
      const mirrored = `./${relative(srcDir, args.path).split(sep).join('/').replace(/\.ts$/, '.js')}`;
      const url = `new URL(${JSON.stringify(mirrored)}, import.meta.url).href`;
      return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [join(srcDir, 'main.ts')],
  outfile: join(outdir, 'main.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
  external,
  plugins: [keepModuleUrls],
  // Bundled CommonJS (a dependency of @raspa/core) may require() Node's own modules.
  banner: {
    js: "import { createRequire as __raspaRequire } from 'node:module'; const require = __raspaRequire(import.meta.url);",
  },
  logLevel: 'warning',
});

// Every file of src/ that is not code is read at run time: copy it to the same place under outdir.
for (const entry of readdirSync(srcDir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || /\.(ts|md)$/.test(entry.name)) continue;
  const from = join(entry.parentPath, entry.name);
  cpSync(from, join(outdir, relative(srcDir, from)));
}
console.log(`built ${relative(process.cwd(), join(outdir, 'main.js')) || 'main.js'}`);
