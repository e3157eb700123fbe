import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPanelRouter } from './panel-page.ts';

const HTML =
  '<!doctype html><html lang="en"><head><script type="module" src="/panel/assets/index-abc123.js"></script></head><body></body></html>';
let built: string;
const servers: Server[] = [];

async function serve(distDir: string): Promise<string> {
  const app = express();
  app.use(createPanelRouter({ distDir }));
  app.use((_request, response) => {
    response.status(404).json({ status: 'error', code: 'NOT_FOUND' });
  });
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(() => {
  built = mkdtempSync(join(tmpdir(), 'raspa-panel-page-'));
  mkdirSync(join(built, 'assets'));
  writeFileSync(join(built, 'index.html'), HTML);
  writeFileSync(join(built, 'assets', 'index-abc123.js'), 'console.log(1);');
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  rmSync(built, { recursive: true, force: true });
});

describe('the back office at /panel', () => {
  it.each(['/panel', '/panel/', '/panel/rounds', '/panel/reset-password?token=abc', '/panel/a/b'])(
    'answers its one page for %s, never cached',
    async (path) => {
      const response = await fetch(`${await serve(built)}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.text()).toBe(HTML);
    },
  );

  it('serves its hashed files for a year, and a missing one is a 404 (not the page)', async () => {
    const url = await serve(built);
    const file = await fetch(`${url}/panel/assets/index-abc123.js`);
    expect(file.status).toBe(200);
    expect(file.headers.get('cache-control')).toContain('immutable');
    expect(await file.text()).toBe('console.log(1);');
    const missing = await fetch(`${url}/panel/assets/index-gone.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('says how to build it when it is not built', async () => {
    const response = await fetch(`${await serve(join(built, 'nowhere'))}/panel/`);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('pnpm --filter @raspa/panel build');
  });
});
