import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SANDBOX_DIR = fileURLToPath(new URL('../../apps/sandbox/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

/** The built sandbox served from 127.0.0.1, as a designer's static host would. */
export interface SandboxSite {
  url: string;
  /** How long the build took (0 when SANDBOX_DIST pointed at an existing one). */
  buildMs: number;
  close(): Promise<void>;
}

/**
 * Builds the sandbox with its own `vite build` into a temporary directory (or serves SANDBOX_DIST,
 * to iterate on the tests without rebuilding) and serves it with a small static server.
 */
export async function startSandboxSite(): Promise<SandboxSite> {
  const started = Date.now();
  let dist = process.env.SANDBOX_DIST;
  let temporary: string | undefined;
  if (!dist) {
    temporary = mkdtempSync(join(tmpdir(), 'raspa-sandbox-'));
    dist = temporary;
    const vite = join(SANDBOX_DIR, 'node_modules', 'vite', 'bin', 'vite.js');
    await run(process.execPath, [vite, 'build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: SANDBOX_DIR,
    });
  }
  const buildMs = temporary ? Date.now() - started : 0;
  const root = resolve(dist);
  if (!existsSync(join(root, 'index.html'))) throw new Error(`no sandbox build in ${root}`);
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = normalize(join(root, path === '/' ? 'index.html' : path));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response
      .writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      })
      .end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    buildMs,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => {
          if (temporary) rmSync(temporary, { recursive: true, force: true });
          done();
        });
      }),
  };
}
