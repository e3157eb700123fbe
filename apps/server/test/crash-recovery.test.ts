import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRecovered, fleetSettings, revealOpenRound, stepper } from './fleet-scenario.ts';
import { apiCaller, type Caller, freePort, type TokenSet } from './harness.ts';
import { idleTimeoutPassed } from './idle-timeout-passed.ts';
import { connectPlayer, eventually, type Player, registerWebhook } from './play-fixtures.ts';
import { createTestDatabase, type TestDatabase } from './postgres-database.ts';
import { RETRY_ONCE_IN_CI, sessionToken, setUpWalletGame } from './service-process.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * The real service as its own process, killed with SIGKILL at once between each pair of a round's
 * write units (docs/store.md, "A round's writes") and during a webhook delivery batch, the wallet
 * and the webhook receiver holding their answers; then restarted on the same database: every
 * round ends, no bet is taken twice, every won prize is paid exactly once, every balance equals
 * the completed transactions and every event is delivered (docs/store.md, "Kill points").
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
      ...fleetSettings(API_KEY),
      LOG_LEVEL: process.env.CRASH_DEBUG ? 'debug' : 'warn',
      // The wallet's held answers must still be awaited when the process dies.
      WALLET_TIMEOUT_MS: '60000',
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

describe(
  'SIGKILL between each pair of a round’s units and during a delivery batch, then a restart',
  RETRY_ONCE_IN_CI,
  () => {
    it('ends every round, pays each prize once, rolls back unanswered bets and delivers every event', async () => {
      const step = stepper();
      let service = await startService();
      // The restarted service may listen on another port (see startService): each call reads `url`.
      const call = ((...args: Parameters<Caller>) => apiCaller(url)(...args)) as Caller;
      const tokens: TokenSet = (await call('POST', '/v1/auth/login', { body: { apiKey: API_KEY } })).body
        .data;
      // Every ticket wins: the prize's send and its unit (c) are exercised for sure.
      const game = await setUpWalletGame(call, tokens, operator, {
        gameModel: 'frevo-da-sorte',
        prizedPercent: 1,
      });
      // A batch webhook (issue 35): the kill comes with two batches in flight. Single deliveries are
      // killed mid-burst by workers-faults (SQLite) and instances-faults (PostgreSQL).
      const webhookId = await registerWebhook(call, tokens, operator.webhookUrl, {
        mode: 'batch',
        maxEvents: 3,
        maxWaitMs: 0,
      });
      const credentials = [
        'late',
        'idle',
        'returning',
        'closed',
        'winner',
        'unpaid',
        'retried',
        'bettor',
        'unsent',
      ];
      const tokenOf = Object.fromEntries(
        await Promise.all(
          credentials.map(async (c) => [c, await sessionToken(call, tokens, game, c)] as const),
        ),
      );
      const players: Player[] = [];
      const connect = async (credential: string) => {
        const player = await connectPlayer(url, tokenOf[credential] ?? '');
        players.push(player);
        return player;
      };
      /** Prizes in minor units by round, as the buys answered them. */
      const prizes = new Map<string, number>();
      const buy = async (player: Player) => {
        const bought = await player.ask('buy');
        if (!bought.ok) throw new Error(JSON.stringify(bought));
        prizes.set(bought.data.round.roundId, bought.data.round.prize);
        return bought.data.round.roundId as string;
      };
      const callsOf = (kind: string) => operator.calls.filter((c) => c.kind === kind).length;
      const receivedOpen = (roundId: string) =>
        operator.events.some((e) => e.event === 'open-round' && e.payload._id === roundId);

      // Before: a round opened and its open-round delivered, so the receiver has answered a 2xx.
      const late = await connect('late');
      const lateRound = await buy(late);
      await eventually(async () => {
        // Logged too: the drain that sent it has ended, and the next one starts with one in flight.
        const log = (await call('GET', `/v1/webhook/${webhookId}`, { token: tokens })).body.data as any[];
        return log.some((row) => row.payload._id === lateRound && row.success);
      });

      // From here the receiver holds every delivery. The late round's reveal, (c) committed: its
      // close-round goes first and is held, alone (a drain sends one at a time until a 2xx).
      operator.holdWebhooks(true);
      expect((await late.ask('reveal', { roundId: lateRound })).ok).toBe(true);
      await eventually(() => operator.heldWebhooks() === 1);

      // Between (b) and (c): bought, not revealed. One closes by the idle time-out after the restart,
      // the other is revealed by its player, back on the page.
      const idleRound = await buy(await connect('idle'));
      const returningRound = await buy(await connect('returning'));
      // After (c): closed, its close-round queued behind its held open-round.
      const closing = await connect('closed');
      const closedRound = await buy(closing);
      expect((await closing.ask('reveal', { roundId: closedRound })).ok).toBe(true);
      // Between the prize's send and its unit (c): nothing written since (b), the round still open
      // (docs/store.md cut 6); the wallet pays the prize and never answers, or never even sees it.
      const prizeHeld = async (credential: string, fault: 'ok-then-hang' | 'hang') => {
        const player = await connect(credential);
        const roundId = await buy(player);
        const before = callsOf('prize');
        operator.failNext('prize', fault);
        player.socket.emit('reveal', { roundId }, () => {});
        await eventually(() => callsOf('prize') === before + 1);
        return roundId;
      };
      const winnerRound = await prizeHeld('winner', 'ok-then-hang');
      const unpaidRound = await prizeHeld('unpaid', 'hang');
      // After (c) with no yes: the first answer was a 500, so (c) committed the prize pending and
      // the round closing; the retrier's next attempt is in flight, leased, and never answered.
      const retried = await connect('retried');
      const retriedRound = await buy(retried);
      operator.failNext('prize', 'http500', 'hang');
      retried.socket.emit('reveal', { roundId: retriedRound }, () => {});
      const sentOf = (roundId: string) =>
        operator.calls.filter((c) => c.kind === 'prize' && c.body.roundId === roundId).length;
      await eventually(() => sentOf(retriedRound) === 2);
      // Between (a) and (b): the round and its bet committed pending and sent; the wallet takes the
      // bet and never answers, or never even sees it.
      const betHeld = async (credential: string, fault: 'ok-then-hang' | 'hang') => {
        const player = await connect(credential);
        const before = callsOf('bet');
        operator.failNext('bet', fault);
        player.socket.emit('buy', () => {});
        await eventually(() => callsOf('bet') === before + 1);
      };
      await betHeld('bettor', 'ok-then-hang');
      await betHeld('unsent', 'hang');
      expect(operator.balanceOf('winner')).toBe(100_000 - 200 + (prizes.get(winnerRound) ?? 0));
      expect(operator.balanceOf('unpaid')).toBe(100_000 - 200);
      expect(operator.balanceOf('retried')).toBe(100_000 - 200);
      expect(operator.balanceOf('bettor')).toBe(100_000 - 200);
      expect(operator.balanceOf('unsent')).toBe(100_000);
      // The reveal of a won card wrote nothing before its send: the round is open, its bet alone.
      for (const roundId of [winnerRound, unpaidRound]) {
        const [listed] = (await call('GET', `/v1/round?roundId=${roundId}`, { token: tokens })).body.data;
        expect(listed.status, roundId).toBe('open');
        expect(listed.transactions.map((t: any) => t.type)).toEqual(['bet']);
      }
      const [closingRound] = (await call('GET', `/v1/round?roundId=${retriedRound}`, { token: tokens })).body
        .data;
      expect(closingRound.status).toBe('closing');
      expect(closingRound.transactions.map((t: any) => [t.type, t.status])).toEqual([
        ['bet', 'completed'],
        ['prize', 'pending'],
      ]);

      // During delivery batches: the held close-round is accepted, so the drain sends the six queued
      // open-rounds at once in two batches of three (maxEvents), and the receiver holds both.
      operator.answerHeldWebhooks(200);
      const opened = [idleRound, returningRound, closedRound, winnerRound, unpaidRound, retriedRound];
      await eventually(() => opened.every(receivedOpen) && operator.heldWebhooks() >= 2);

      // One batch answered just before the kill (its record maybe not committed: its events are
      // sent again), the other still held (sent again).
      const held = operator.heldWebhooks();
      operator.answerHeldWebhooks(200, Math.floor(held / 2));
      step('every kill point reached');
      service.kill('SIGKILL');
      await exitOf(service);
      const receivedBeforeKill = new Set(operator.events.map((e) => e.id));
      for (const player of players) player.close();
      operator.holdWebhooks(false);
      // The restart comes after ROUND_IDLE_TIMEOUT, without the test waiting it out: no process
      // lives, so the dead one's leases end now (the webhook's queue, the wallet calls it had in
      // flight) and the rounds left open are idle, but the one whose player comes back to reveal it.
      await idleTimeoutPassed({ dataDir, config: { DATABASE_URL: database?.url } }, [returningRound]);

      service = await startService();
      step('restarted');
      // The returning player reveals the round the page shows open, as the page does.
      const back = await connect('returning');
      await revealOpenRound(async () => back, 90_000);
      back.close();
      step('the returning page revealed its round');

      // The restarted process sends what the dead one's leases held, closes the idle rounds, and
      // every check of a recovery holds.
      const { rounds } = await expectRecovered({ call }, operator, {
        tokens,
        profileId: game.profileId,
        webhookId,
        players: credentials.length,
        step,
      });
      const byPlayer = Object.fromEntries(rounds.map((round: any) => [round.user.credential, round]));
      expect(rounds).toHaveLength(credentials.length);
      for (const credential of ['late', 'idle', 'returning', 'closed', 'winner', 'unpaid', 'retried'])
        expect(
          byPlayer[credential].transactions.map((t: any) => [t.type, t.status]),
          credential,
        ).toEqual([
          ['bet', 'completed'],
          ['prize', 'completed'],
        ]);
      // An unanswered bet is voided and counted with its confirmed rollback: the pair nets to zero.
      for (const credential of ['bettor', 'unsent']) {
        expect(byPlayer[credential].status).toBe('voided');
        expect(byPlayer[credential].transactions.map((t: any) => [t.type, t.amount, t.status])).toEqual([
          ['bet', -2, 'completed'],
          ['rollback', 2, 'completed'],
        ]);
        expect(operator.balanceOf(credential)).toBe(100_000);
      }
      // The held prizes went again under the transactionId fixed at the round's opening (by the idle
      // close, or the returning page's reveal); each was paid once.
      for (const roundId of [winnerRound, unpaidRound, retriedRound]) {
        const sent = operator.calls.filter((c) => c.kind === 'prize' && c.body.roundId === roundId);
        expect(sent.length).toBeGreaterThanOrEqual(2);
        expect(new Set(sent.map((c) => c.body.transactionId)).size, roundId).toBe(1);
        expect(operator.moves.filter((m) => m.kind === 'prize' && m.roundId === roundId)).toHaveLength(1);
      }
      // A delivery repeats only for an event the receiver had got before the kill (its attempt
      // maybe unrecorded), with the same event id (in a batch of a new webhook-id).
      const receipts = new Map<string, number>();
      for (const { id } of operator.events) receipts.set(id, (receipts.get(id) ?? 0) + 1);
      for (const [id, count] of receipts) if (count > 1) expect(receivedBeforeKill.has(id), id).toBe(true);

      if (database) {
        // The service ran on the test's PostgreSQL database, not on a SQLite file of its DATA_DIR.
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM rounds');
          expect(Number(rows[0]?.n)).toBe(credentials.length);
        } finally {
          await client.end();
        }
      }

      // SIGTERM: a clean stop, exit code 0.
      service.kill('SIGTERM');
      expect(await exitOf(service)).toBe(0);
    }, 300_000);
  },
);
