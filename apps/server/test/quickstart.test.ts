import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

const run = promisify(execFile);
const quickstart = fileURLToPath(new URL('../../../examples/integrator-quickstart.mjs', import.meta.url));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('examples/integrator-quickstart.mjs (the README walk-through)', () => {
  it('logs in, creates a profile, a game, a player and a session, and gets a gameUrl the server accepts', async () => {
    const { apiKey } = await server.newClient();
    const { stdout } = await run(process.execPath, [quickstart, server.url, apiKey]);
    const gameUrl = /^gameUrl: (\S+)$/m.exec(stdout)?.[1];
    expect(gameUrl).toMatch(new RegExp(`^${server.url}/play/[\\w-]+\\?token=ses_[\\w-]+$`));
    const token = new URL(gameUrl ?? '').searchParams.get('token') ?? '';
    const session = await server.running.app.services.sessions.resolveSessionToken(token);
    expect(session?.game.gameModel).toBe('frevo-da-sorte');
    expect(session?.player.credential).toBe('maria@example.com');
  });
});
