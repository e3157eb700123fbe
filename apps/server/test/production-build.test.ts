// sqlite-only: starts the bundled service on an empty DATA_DIR, as a first install does; the bundle, not the database, is under test
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './harness.ts';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
let outdir: string;
let dataDir: string;
let child: ChildProcess | undefined;

beforeAll(() => {
  // Beside dist/, at the same depth, so the bundle finds what dist/ would (the game page's build).
  outdir = mkdtempSync(join(serverDir, 'dist-test-'));
  dataDir = mkdtempSync(join(tmpdir(), 'raspa-dist-'));
  execFileSync(process.execPath, ['scripts/build.mjs', outdir], { cwd: serverDir, stdio: 'pipe' });
}, 180_000); // esbuild's bundle of the whole service, on a machine as busy as CI's
afterAll(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(outdir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Waits for the event, the service's first ready answer, or for its exit. The test's own time-out
 * bounds it: on a loaded machine the bundle's first start took longer than a fixed 20 s once.
 */
async function untilReady(url: string, service: ChildProcess): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(`${url}/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    if (service.exitCode !== null || service.signalCode !== null)
      throw new Error(
        `the built service exited (${service.exitCode ?? service.signalCode}) before it was ready`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the production build', () => {
  it('runs with plain node: health, ready, the API and a clean SIGTERM, its secrets in a 0600 file', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const { NODE_OPTIONS: _loaders, ...env } = process.env; // nothing may load tsx into it
    const started = spawn(process.execPath, [join(outdir, 'main.js')], {
      cwd: dataDir,
      env: { ...env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let stdout = '';
    let stderr = '';
    started.stdout?.on('data', (chunk) => {
      stdout += String(chunk);
    });
    started.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => started.once('exit', (code) => resolve(code)));

    await untilReady(url, started);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect(await (await fetch(`${url}/ready`)).json()).toEqual({ status: 'ok' });
    // The files the service reads at run time came along: migrations (it answered), docs, covers.
    expect((await fetch(`${url}/docs`)).status).toBe(200);
    expect((await fetch(`${url}/media/covers/oxe-ganhei.svg`)).status).toBe(200);

    // Not a TTY: the first start's secrets are in a file only its owner reads, and only its path is logged.
    const file = join(dataDir, 'demo-credentials.txt');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const apiKey = /apiKey:\s+(\S+)/.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
    expect(apiKey).toMatch(/^rsp_/);
    const login = await fetch(`${url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey }),
    });
    expect(login.status).toBe(200);
    expect(await login.json()).toMatchObject({
      status: 'success',
      data: { accessToken: expect.any(String) },
    });

    started.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line.path === file)).toBeDefined();
    expect(lines.filter((line) => line.msg === 'request' && line.route === '/v1/auth/login')).toHaveLength(1);
    expect(stdout).not.toContain(apiKey);
  }, 180_000);
});
