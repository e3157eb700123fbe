// no-store: the local start's outbound address policy; the database is the default file and not under test
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServiceProcess, startServiceProcess } from './service-process.ts';

/**
 * Issue 22: `npm start` allowed private outbound addresses even when HOST exposed the service. The
 * local start (package.json's `serve`, which `npm start` runs) now leaves the decision to the
 * service's configuration, which knows HOST: here it listens on every interface, so a wallet on
 * this machine is refused, and the start says so and how to allow it.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
/** main.ts's arguments in the `serve` script, as `npm start` runs it. */
const serveArgs: string[] =
  (packageJson.scripts.serve as string).split('src/main.ts')[1]?.trim().split(/\s+/) ?? [];

const dataDir = mkdtempSync(join(tmpdir(), 'raspa-local-start-'));
let service: ServiceProcess | undefined;
afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start on an exposed HOST (issue 22)', () => {
  it('leaves private outbound addresses to the service, not to the npm script', () => {
    expect(serveArgs).toContain('--local');
    const runner = readFileSync(join(root, 'scripts/run-with-pnpm.mjs'), 'utf8');
    expect(runner).not.toMatch(/OUTBOUND_ALLOW_PRIVATE|ALLOW_PRIVATE_WEBHOOKS/);
  });

  it('refuses a wallet on a private address, and its start says so and how to allow it', async () => {
    const apiKey = 'local-start-demo-key-0123456789';
    // 0.0.0.0: reachable from other machines. The test's own requests go to 127.0.0.1 only.
    service = await startServiceProcess(
      { HOST: '0.0.0.0', WORKERS: '1', DATA_DIR: dataDir, DEMO_API_KEY: apiKey },
      serveArgs,
    );
    expect(service.logs()).toMatch(
      /HOST=0\.0\.0\.0 is reachable from other machines: wallets and webhooks on private addresses are refused; set OUTBOUND_ALLOW_PRIVATE=true to allow them/,
    );
    const login = await service.call('POST', '/v1/auth/login', { body: { apiKey } });
    expect(login.status).toBe(200);
    const profile = await service.call('POST', '/v1/profile', {
      token: login.body.data,
      body: {
        name: 'Local wallet',
        type: 'operator',
        walletUrl: 'http://127.0.0.1:9/wallet',
        walletSignatureToken: 'a-wallet-secret-of-enough-length',
      },
    });
    expect(profile.status).toBe(400);
    expect(JSON.stringify(profile.body.messages)).toContain('set OUTBOUND_ALLOW_PRIVATE=true');
  });
});
