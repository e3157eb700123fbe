import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReplayPageRouter } from './replay-page.ts';

const TOKEN = 'live-replay-token';
// Only the cover: the page never builds the round's dossier (its /v1/replay fetch does, once).
const rounds = { replayCover: async (token: string) => (token === TOKEN ? { gameLang: 'pt' } : undefined) };

let built: string;
let empty: string;
const servers: Server[] = [];

async function serve(distDir: string): Promise<string> {
  const app = express();
  app.use(createReplayPageRouter({ rounds, distDir }));
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(() => {
  built = mkdtempSync(join(tmpdir(), 'raspa-replay-page-'));
  empty = mkdtempSync(join(tmpdir(), 'raspa-replay-none-'));
  writeFileSync(
    join(built, 'replay.html'),
    '<!doctype html><html lang="en"><head></head><body></body></html>',
  );
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  rmSync(built, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
});

describe('GET /replay/{token}', () => {
  it('serves the page for a live link, in the game’s language or ?lang, with the player page’s headers', async () => {
    const base = await serve(built);
    const response = await fetch(`${base}/replay/${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(await response.text()).toContain('<html lang="pt" data-replay="ok">');
    const spanish = await fetch(`${base}/replay/${TOKEN}?lang=es`);
    expect(await spanish.text()).toContain('<html lang="es" data-replay="ok">');
    const unknownLang = await fetch(`${base}/replay/${TOKEN}?lang=fr`, {
      headers: { 'accept-language': 'es' },
    });
    expect(await unknownLang.text()).toContain('<html lang="pt" data-replay="ok">');
  });

  it('marks an unknown, altered or expired link (and the bare /replay/ a reload lands on) as expired, 404', async () => {
    const base = await serve(built);
    for (const path of ['/replay/not-a-token', '/replay/', '/replay/not-a-token?lang=es']) {
      const response = await fetch(`${base}${path}`, { headers: { 'accept-language': 'fr, es;q=0.5' } });
      expect(response.status).toBe(404);
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(await response.text()).toContain('<html lang="es" data-replay="expired">');
    }
  });

  it('says how to build the page when it is not built', async () => {
    const base = await serve(empty);
    const response = await fetch(`${base}/replay/${TOKEN}`);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('pnpm --filter @raspa/game build');
  });
});
