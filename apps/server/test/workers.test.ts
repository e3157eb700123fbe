import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, freePort, type TokenSet } from './harness.ts';
import { connectPlayer, eventually, type Player } from './play-fixtures.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * WORKERS=2: the real service as a primary and two worker processes on one SQLite file, Node's
 * cluster sharing the port. A player's tabs land on both workers (the cluster deals connections
 * round-robin); pushes reach all of them; concurrent buys open one round; SIGTERM stops them all.
 */
const serverDir = fileURLToPath(new URL('..', import.meta.url));
const API_KEY = 'rsp_workers-test-api-key-0123456789';

let operator: TestOperator;
let dataDir: string;
let service: ChildProcess | undefined;
let logs = '';

beforeAll(async () => {
  operator = await startTestOperator();
  dataDir = mkdtempSync(join(tmpdir(), 'raspa-workers-'));
});
afterAll(async () => {
  if (service && service.exitCode === null && service.signalCode === null) service.kill('SIGKILL');
  await operator.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('WORKERS=2', () => {
  it('serves a player from both processes: every tab is pushed to, one round opens, SIGTERM stops all', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: {
        ...process.env,
        WORKERS: '2',
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        DEMO_API_KEY: API_KEY,
        LOG_LEVEL: 'info',
        OUTBOUND_ALLOW_PRIVATE: 'true', // the test operator's wallet is on 127.0.0.1
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service = child;
    child.stdout?.on('data', (d) => (logs += String(d)));
    child.stderr?.on('data', (d) => (logs += String(d)));
    await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`the service exited: ${logs}`);
      return logs.includes('"workers listening"') && (await fetch(`${url}/ready`).catch(() => undefined))?.ok;
    }, 60_000);
    const listening = JSON.parse(
      logs.split('\n').find((line) => line.includes('"workers listening"')) ?? '{}',
    );
    expect(new Set(listening.pids).size).toBe(2);

    const call = apiCaller(url);
    const tokens: TokenSet = (await call('POST', '/v1/auth/login', { body: { apiKey: API_KEY } })).body.data;
    const profileId = (
      await call('POST', '/v1/profile', {
        token: tokens,
        body: {
          name: 'Two workers',
          type: 'operator',
          walletUrl: operator.walletUrl,
          walletSignatureToken: operator.walletSecret,
        },
      })
    ).body.data.profileId;
    const game = (
      await call('POST', '/v1/game', {
        token: tokens,
        body: {
          profileId,
          gameModel: 'oxe-ganhei',
          lang: 'en',
          currency: 'BRL',
          rtp: 0.9,
          sampling: 100_001,
          prizedPercent: 0.5,
          betPrice: 2,
          simulation: false,
          replacePreviousVersion: true,
        },
      })
    ).body.data;
    const user = await call('POST', '/v1/user/auth', {
      token: tokens,
      body: { profileId, credential: 'ana', credentialType: 'username' },
    });
    const tabs: Player[] = [];
    const pushed: number[][] = [];
    for (let tab = 0; tab < 4; tab++) {
      const session = await call('POST', '/v1/game/session', {
        token: tokens,
        body: { userToken: user.body.data.userToken, gameId: game.id },
      });
      const player = await connectPlayer(
        url,
        new URL(session.body.data.gameUrl).searchParams.get('token') ?? '',
      );
      const balances: number[] = [];
      player.socket.on('balance', ({ balance }: { balance: number }) => balances.push(balance));
      tabs.push(player);
      pushed.push(balances);
    }

    // Every tab asks at once; the tabs are on both processes: one round opens.
    const answers = await Promise.all(tabs.map((tab) => tab.ask('buy')));
    const opened = answers.filter((answer) => answer.ok);
    expect(opened).toHaveLength(1);
    for (const refused of answers.filter((answer) => !answer.ok))
      expect(refused.error.code).toBe('ROUND_IN_PROGRESS');
    expect(operator.calls.filter((c) => c.kind === 'bet')).toHaveLength(1);
    // The one bet's new balance reaches every tab, whichever process it is on.
    await eventually(() => pushed.every((balances) => balances.includes(100_000 - 200)), 15_000);

    for (const tab of tabs) tab.close();
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode);
      else child.once('exit', (exit) => resolve(exit));
    });
    expect(code).toBe(0);
  }, 120_000);
});
