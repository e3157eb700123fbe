import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Answer, apiCaller, freePort, type TokenSet } from '../test/harness.ts';
import { connectPlayer, type Player } from '../test/play-fixtures.ts';
import { startTestOperator } from '../test/test-operator.ts';

/**
 * Play-loop benchmark: the real service as its own process, an in-process operator (wallet +
 * webhook receiver), and N Socket.IO players buying and revealing in a loop for D seconds.
 * Measurement only; everything runs on 127.0.0.1 and stops by itself.
 */
const serverDir = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));
const API_KEY = 'rsp_bench-api-key-0123456789abcdef';
const DRAIN_LIMIT_MS = 30_000;

const { values } = parseArgs({
  options: { players: { type: 'string', default: '100' }, seconds: { type: 'string', default: '10' } },
});
const players = Number(values.players);
const seconds = Number(values.seconds);
if (!Number.isInteger(players) || players < 1 || !(seconds > 0)) {
  console.error('usage: pnpm bench:play [--players N] [--seconds D]');
  process.exit(2);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startService(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_API_KEY: API_KEY,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'], // the start-up banner is noise here; warnings still show
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('the service did not start');
    await sleep(100);
  }
}

/** Runs `task` over `items` with at most `limit` at a time. */
async function inBatches<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += limit) {
    results.push(...(await Promise.all(items.slice(i, i + limit).map(task))));
  }
  return results;
}

/** Nearest-rank percentile, in ms with two decimals. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const value = sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
  return Math.round(value * 100) / 100;
}

const latency = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  };
};

function rssMb(pid: number | undefined): number | null {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line?.[1] ? Math.round(Number(line[1]) / 1024) : null;
}

const operator = await startTestOperator({ startCents: 1e12 });
const dataDir = mkdtempSync(join(tmpdir(), 'raspa-bench-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
let service: ChildProcess | undefined;
const sockets: Player[] = [];

async function setUp(): Promise<string[]> {
  const call = apiCaller(url);
  const accepted = async (answer: Promise<Answer>, status: number) => {
    const { status: got, body } = await answer;
    if (got !== status) throw new Error(`set-up failed (${got}): ${JSON.stringify(body)}`);
    return body.data;
  };
  const tokens: TokenSet = await accepted(call('POST', '/v1/auth/login', { body: { apiKey: API_KEY } }), 200);
  const { profileId } = await accepted(
    call('POST', '/v1/profile', {
      token: tokens,
      body: {
        name: 'Bench casino',
        type: 'operator',
        currency: 'BRL',
        walletUrl: operator.walletUrl,
        walletSignatureToken: operator.walletSecret,
      },
    }),
    201,
  );
  await accepted(
    call('POST', '/v1/webhook', {
      token: tokens,
      body: {
        url: operator.webhookUrl,
        eventTriggers: ['open-round', 'close-round'],
        signatureToken: randomUUID(),
      },
    }),
    201,
  );
  const game = await accepted(
    call('POST', '/v1/game', {
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
    }),
    201,
  );
  const credentials = Array.from({ length: players }, (_, i) => `bench-player-${i}`);
  return inBatches(credentials, 20, async (credential) => {
    const user = await accepted(
      call('POST', '/v1/user/auth', {
        token: tokens,
        body: { profileId, credential, credentialType: 'username' },
      }),
      200,
    );
    const session = await accepted(
      call('POST', '/v1/game/session', {
        token: tokens,
        body: { userToken: user.userToken, gameId: game.id },
      }),
      201,
    );
    return new URL(session.gameUrl).searchParams.get('token') ?? '';
  });
}

const buyMs: number[] = [];
const revealMs: number[] = [];
const errors: { request: string; answer: unknown }[] = [];
let rounds = 0;
let buys = 0;

/** One player's loop: buy, reveal, repeat until the deadline. */
async function play(player: Player, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    let start = performance.now();
    const bought = await player.ask('buy');
    buyMs.push(performance.now() - start);
    if (!bought.ok) {
      errors.push({ request: 'buy', answer: bought });
      await sleep(50); // don't spin on a failing service
      continue;
    }
    buys++;
    start = performance.now();
    const revealed = await player.ask('reveal', { roundId: bought.data.round.roundId });
    revealMs.push(performance.now() - start);
    if (revealed.ok) rounds++;
    else errors.push({ request: 'reveal', answer: revealed });
  }
}

const distinctEvents = () => new Set(operator.events.map((event) => event.id)).size;

try {
  service = await startService(dataDir, port);
  const tokens = await setUp();
  sockets.push(...(await inBatches(tokens, 20, (token) => connectPlayer(url, token))));

  const callsBefore = operator.calls.length;
  const eventsBefore = distinctEvents();
  const started = performance.now();
  await Promise.all(sockets.map((player) => play(player, Date.now() + seconds * 1000)));
  const elapsed = (performance.now() - started) / 1000;
  const walletCalls = operator.calls.length - callsBefore;
  const eventsDuringRun = distinctEvents() - eventsBefore;

  // One open-round per accepted buy, one close-round per closed round.
  const expectedEvents = buys + rounds;
  const undeliveredAtEnd = expectedEvents - distinctEvents();
  const drainStart = performance.now();
  while (distinctEvents() < expectedEvents && performance.now() - drainStart < DRAIN_LIMIT_MS)
    await sleep(20);
  const drained = distinctEvents() >= expectedEvents;
  const drainMs = Math.round(performance.now() - drainStart);
  const rss = rssMb(service.pid);

  const result = {
    command: `pnpm bench:play --players ${players} --seconds ${seconds}`,
    machine: { cores: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
    players,
    seconds: Math.round(elapsed * 100) / 100,
    rounds,
    roundsPerSecond: Math.round(rounds / elapsed),
    buyMs: latency(buyMs),
    revealMs: latency(revealMs),
    walletCallsPerSecond: Math.round(walletCalls / elapsed),
    webhookDeliveriesPerSecond: Math.round(eventsDuringRun / elapsed),
    webhooks: {
      expected: expectedEvents,
      undeliveredAtEnd,
      drained,
      drainMs,
      stillUndelivered: expectedEvents - distinctEvents(),
    },
    serviceRssMb: rss,
    errors: errors.length,
  };

  console.log(`\n${result.command}`);
  console.log(
    `machine: ${result.machine.cores} cores (${result.machine.cpu}), node ${result.machine.node}\n`,
  );
  console.table({
    'rounds/s': result.roundsPerSecond,
    rounds: result.rounds,
    'buy p50/p95/p99 ms': `${result.buyMs.p50} / ${result.buyMs.p95} / ${result.buyMs.p99}`,
    'reveal p50/p95/p99 ms': `${result.revealMs.p50} / ${result.revealMs.p95} / ${result.revealMs.p99}`,
    'wallet calls/s': result.walletCallsPerSecond,
    'webhook deliveries/s': result.webhookDeliveriesPerSecond,
    'webhooks undelivered at end': undeliveredAtEnd,
    'webhook drain ms': drained ? drainMs : `> ${DRAIN_LIMIT_MS} (${result.webhooks.stillUndelivered} left)`,
    'service RSS MB': rss,
    errors: errors.length,
  });
  for (const error of errors.slice(0, 20)) console.log('error:', JSON.stringify(error));
  if (errors.length > 20) console.log(`… and ${errors.length - 20} more errors`);

  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `play-loop-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ ...result, errorSamples: errors.slice(0, 100) }, null, 2)}\n`);
  console.log(`\nwritten: ${file}`);
  process.exitCode = errors.length === 0 && drained ? 0 : 1;
} finally {
  for (const player of sockets) player.close();
  if (service && service.exitCode === null) {
    const exited = new Promise((resolve) => service?.once('exit', resolve));
    service.kill('SIGTERM');
    await Promise.race([exited, sleep(5000)]);
    if (service.exitCode === null && service.signalCode === null) service.kill('SIGKILL');
  }
  await operator.close();
  rmSync(dataDir, { recursive: true, force: true });
}
