import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, type Caller, freePort, type TokenSet } from './harness.ts';
import { connectPlayer, eventually } from './play-fixtures.ts';
import { createTestDatabase, type TestDatabase } from './postgres-database.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * The real service as its own process, killed with SIGKILL while the wallet holds its answers,
 * then restarted on the same database: nothing may be left undecided, no bet taken twice, every
 * won prize paid exactly once.
 */
const serverDir = fileURLToPath(new URL('..', import.meta.url));
const API_KEY = 'rsp_crash-test-api-key-0123456789';

let operator: TestOperator;
let dataDir: string;
/** The server-postgres project: the spawned service runs on its own PostgreSQL database. */
let database: TestDatabase | undefined;
let port: number;
let url: string;
const children: ChildProcess[] = [];

/**
 * Starts the service on a port free a moment ago. Another process can take that port before the
 * child listens (the port is chosen here, the child binds it later): then the child exits with
 * EADDRINUSE, and it is started again on another port (`url` follows it; `call` reads it each time).
 */
async function startService(): Promise<ChildProcess> {
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const started = await spawnService();
    if (started.child) return started.child;
    if (!started.portTaken || attempt >= 5) throw new Error(`the service did not start: ${started.reason}`);
  }
}

async function spawnService(): Promise<{ child?: ChildProcess; portTaken?: boolean; reason?: string }> {
  // One process (node with tsx's loader), so SIGKILL hits the service itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      WORKERS: '1',
      DATA_DIR: dataDir,
      ...(database && { DATABASE_URL: database.url }),
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_API_KEY: API_KEY,
      LOG_LEVEL: process.env.CRASH_DEBUG ? 'debug' : 'warn',
      WALLET_TIMEOUT_MS: '60000',
      OUTBOUND_ALLOW_PRIVATE: 'true', // the test operator's wallet and receiver are on 127.0.0.1
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  // It listens before the demo client exists: /ready answers 200 only once it is set up.
  let errors = '';
  child.stdout?.on('data', (d) => process.env.CRASH_DEBUG && process.stdout.write(d));
  child.stderr?.on('data', (d) => {
    if (errors.length < 16_384) errors += String(d);
    if (process.env.CRASH_DEBUG) process.stdout.write(d);
  });
  // Generous: on a loaded 2-core machine, node with tsx's loader can take a while to start.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      return { portTaken: errors.includes('EADDRINUSE'), reason: `it exited (${child.exitCode}): ${errors}` };
    }
    try {
      if ((await fetch(`${url}/ready`)).ok) return { child };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      return { reason: 'it was not ready within 60 s' };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

beforeAll(async () => {
  operator = await startTestOperator();
  dataDir = mkdtempSync(join(tmpdir(), 'raspa-crash-'));
  if (process.env.RASPA_TEST_STORE === 'postgres') database = await createTestDatabase();
});
afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(children.map(exitOf));
  await operator.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('SIGKILL between the pending row and the wallet’s answer, then a restart', () => {
  it('rolls back the unanswered bet, pays the unanswered prize once, and leaves no round undecided', async () => {
    let service = await startService();
    // The restarted service may listen on another port (see startService): each call reads `url`.
    const call = ((...args: Parameters<Caller>) => apiCaller(url)(...args)) as Caller;
    const tokens: TokenSet = (await call('POST', '/v1/auth/login', { body: { apiKey: API_KEY } })).body.data;
    const profileId = (
      await call('POST', '/v1/profile', {
        token: tokens,
        body: {
          name: 'Crash casino',
          type: 'operator',
          walletUrl: operator.walletUrl,
          walletSignatureToken: operator.walletSecret,
        },
      })
    ).body.data.profileId;
    await call('POST', '/v1/webhook', {
      token: tokens,
      body: {
        url: operator.webhookUrl,
        eventTriggers: ['open-round', 'close-round'],
        signatureToken: randomUUID(),
      },
    });
    const game = (
      await call('POST', '/v1/game', {
        token: tokens,
        body: {
          profileId,
          gameModel: 'frevo-da-sorte',
          lang: 'en',
          currency: 'BRL',
          rtp: 0.9,
          sampling: 100_001,
          prizedPercent: 1, // every ticket wins: the prize path is exercised for sure
          betPrice: 2,
          simulation: false,
          replacePreviousVersion: true,
        },
      })
    ).body.data;
    const sessionFor = async (credential: string) => {
      const user = await call('POST', '/v1/user/auth', {
        token: tokens,
        body: { profileId, credential, credentialType: 'username' },
      });
      const session = await call('POST', '/v1/game/session', {
        token: tokens,
        body: { userToken: user.body.data.userToken, gameId: game.id },
      });
      return new URL(session.body.data.gameUrl).searchParams.get('token') ?? '';
    };

    // The winner's prize reaches the wallet, which pays it but never answers.
    const winner = await connectPlayer(url, await sessionFor('winner'));
    const bought = await winner.ask('buy');
    if (!bought.ok) throw new Error(JSON.stringify(bought));
    operator.failNext('prize', 'ok-then-hang');
    winner.socket.emit('reveal', { roundId: bought.data.round.roundId });
    // The bettor's bet is debited by the wallet, which never answers either.
    const bettor = await connectPlayer(url, await sessionFor('bettor'));
    operator.failNext('bet', 'ok-then-hang');
    bettor.socket.emit('buy', () => {});
    await eventually(
      () =>
        operator.calls.some((c) => c.kind === 'prize') &&
        operator.calls.filter((c) => c.kind === 'bet').length === 2,
    );
    expect(operator.balanceOf('winner')).toBe(100_000 - 200 + bought.data.round.prize);
    expect(operator.balanceOf('bettor')).toBe(100_000 - 200);

    service.kill('SIGKILL');
    await exitOf(service);
    winner.close();
    bettor.close();

    service = await startService();
    // On PostgreSQL nothing is released at start: the calls wait out their 30 s lease.
    const afterRestartMs = database ? 60_000 : 30_000;
    await eventually(() => operator.calls.some((c) => c.kind === 'rollback'), afterRestartMs);
    await eventually(() => operator.calls.filter((c) => c.kind === 'prize').length === 2, afterRestartMs);

    // No bet taken twice: the bettor has all his money back; the winner was paid exactly once.
    expect(operator.balanceOf('bettor')).toBe(100_000);
    expect(operator.balanceOf('winner')).toBe(100_000 - 200 + bought.data.round.prize);
    const prizes = operator.calls.filter((c) => c.kind === 'prize');
    expect(prizes[0]?.body.transactionId).toBe(prizes[1]?.body.transactionId);

    const fresh: TokenSet = (await call('POST', '/v1/auth/login', { body: { apiKey: API_KEY } })).body.data;
    const settled = await eventually(async () => {
      const list = (await call('GET', '/v1/round?pageSize=100', { token: fresh })).body.data as any[];
      return list.every((round) => round.status === 'closed' || round.status === 'voided') && list;
    }, afterRestartMs);
    expect(settled.length).toBe(2);
    if (database) {
      // The service ran on the test's PostgreSQL database, not on a SQLite file of its DATA_DIR.
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM rounds');
        expect(Number(rows[0]?.n)).toBe(2);
      } finally {
        await client.end();
      }
    }
    const byPlayer = Object.fromEntries(settled.map((round: any) => [round.user.credential, round]));
    expect(byPlayer.winner.status).toBe('closed');
    expect(byPlayer.winner.transactions.map((t: any) => [t.type, t.status])).toEqual([
      ['bet', 'completed'],
      ['prize', 'completed'],
    ]);
    expect(byPlayer.bettor.status).toBe('voided');
    // The unanswered bet is counted with its confirmed rollback: the pair nets to zero.
    expect(byPlayer.bettor.transactions.map((t: any) => [t.type, t.amount, t.status])).toEqual([
      ['bet', -2, 'completed'],
      ['rollback', 2, 'completed'],
    ]);
    // The winner's close-round event, queued after the restart, is delivered too.
    await eventually(
      () =>
        operator.events.some((e) => e.event === 'close-round' && e.payload._id === bought.data.round.roundId),
      30_000,
    );

    // SIGTERM: a clean stop, exit code 0.
    service.kill('SIGTERM');
    expect(await exitOf(service)).toBe(0);
  }, 240_000);
});
