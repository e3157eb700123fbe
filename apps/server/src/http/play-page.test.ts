import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSession } from '../services/session-service.ts';
import { createPlayPageRouter, frameAncestors } from './play-page.ts';

const TOKEN = 'ses_valid-token';
const ENDED_TOKEN = 'ses_ended-token';
const live = {
  session: { id: 'session-1', lang: 'es', endCode: null, returnUrl: 'https://casino.example/lobby' },
  game: { gameModel: 'frevo-da-sorte' },
  profile: { allowedOrigins: ['https://casino.example', 'http://localhost:3000'] },
} as unknown as LiveSession;
const ended = {
  ...live,
  session: {
    id: 'session-3',
    lang: 'pt',
    endCode: 'PLAYER_EXCLUDED',
    returnUrl: 'https://casino.example/lobby?a=1&b="2"',
  },
} as LiveSession;
const sessions = {
  resolveSessionToken: async (token: string) =>
    token === TOKEN ? live : token === ENDED_TOKEN ? ended : undefined,
};

let built: string;
let servers: Server[] = [];

async function serve(distDir: string): Promise<string> {
  const app = express();
  app.use(createPlayPageRouter({ sessions, distDir }));
  app.use((_request, response) => {
    response.status(404).json({ status: 'error', code: 'NOT_FOUND' });
  });
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(() => {
  built = mkdtempSync(join(tmpdir(), 'raspa-play-page-'));
  mkdirSync(join(built, 'assets'));
  writeFileSync(
    join(built, 'index.html'),
    '<!doctype html><html lang="en"><head><script type="module" src="/play/assets/index-abc123.js"></script></head><body></body></html>',
  );
  writeFileSync(join(built, 'assets', 'index-abc123.js'), 'console.log(1);');
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  servers = [];
  rmSync(built, { recursive: true, force: true });
});

describe('GET /play/{sessionId}', () => {
  it('serves the page framable by the profile’s origins, in the session’s language, never cached', async () => {
    const base = await serve(built);
    const response = await fetch(`${base}/play/session-1?token=${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'self' https://casino.example http://localhost:3000");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    const html = await response.text();
    expect(html).toContain('<html lang="es" data-session="ok" data-model="frevo-da-sorte">');
    expect(html).toContain('/play/assets/index-abc123.js');
  });

  it('serves an ended session’s page as framed and worded as its live one, marked with how it ended', async () => {
    const base = await serve(built);
    const response = await fetch(`${base}/play/session-3?token=${ENDED_TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain(
      "frame-ancestors 'self' https://casino.example http://localhost:3000",
    );
    // Its way back is written (escaped: an operator's URL), since the page will never get a `state`.
    expect(await response.text()).toContain(
      '<html lang="pt" data-session="excluded" data-model="frevo-da-sorte" data-return-url="https://casino.example/lobby?a=1&amp;b=&quot;2&quot;">',
    );
  });

  it('answers an unknown token, or the token of another session, with frame-ancestors none and an expired page', async () => {
    const base = await serve(built);
    for (const path of [
      '/play/session-1?token=ses_unknown',
      '/play/session-2?token=ses_valid-token',
      '/play/session-1',
    ]) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(await response.text()).toContain('<html lang="en" data-session="expired">');
    }
  });

  it('says how to build the page when it is not built', async () => {
    const base = await serve(join(built, 'missing'));
    const response = await fetch(`${base}/play/session-1?token=${TOKEN}`);
    expect(response.status).toBe(503);
    const html = await response.text();
    expect(html).toContain("The player's page is not built");
    expect(html).toContain('pnpm --filter @raspa/game build');
  });
});

describe('GET /play/assets/*', () => {
  it('serves hashed files for a year, and 404s the rest', async () => {
    const base = await serve(built);
    const asset = await fetch(`${base}/play/assets/index-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(`${base}/play/assets/nothing.js`)).status).toBe(404);
    const traversal = await fetch(`${base}/play/assets/%2e%2e%2findex.html`);
    expect(traversal.status).toBeGreaterThanOrEqual(400);
    expect(await traversal.text()).not.toContain('<html');
  });
});

describe('frameAncestors', () => {
  it('keeps exact origins only', () => {
    expect(frameAncestors([])).toBe("'self'");
    expect(
      frameAncestors([
        'https://a.example',
        'https://b.example/path',
        'https://c.example; script-src *',
        'ftp://d',
      ]),
    ).toBe("'self' https://a.example");
  });
});
