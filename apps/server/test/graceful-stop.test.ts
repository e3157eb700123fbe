import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRecovered, fleetSettings } from './fleet-scenario.ts';
import type { TokenSet } from './harness.ts';
import { eventually, registerWebhook } from './play-fixtures.ts';
import { createTestDatabase, type TestDatabase } from './postgres-database.ts';
import { openTab, type Tab } from './reconnecting-tab.ts';
import {
  type ServiceProcess,
  sessionToken,
  setUpWalletGame,
  startServiceProcess,
} from './service-process.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * SIGTERM with play requests in flight (issue 36): under play behind HAProxy, buys and reveals were
 * left unanswered when their instance stopped, their socket closed with the request under way. Here
 * the service process gets SIGTERM while 3 buys and 2 reveals wait on the wallet: each is answered
 * with its round, a buy sent meanwhile is answered SERVICE_STOPPING (and, once those are answered,
 * any new request, while a `state` held at the wallet is still under way: before, the stop closed
 * the sockets without waiting for it, and served the reveals sent then), every socket is closed so its
 * client reconnects (to the same port once the service is started again), the process exits 0, and
 * after the restart the money reconciles (fleet-scenario.ts expectRecovered).
 */
const API_KEY = 'rsp_graceful-stop-api-key-0123456789';
const PLAYERS = 6;

let operator: TestOperator;
let dataDir: string;
let database: TestDatabase | undefined;
const services: ServiceProcess[] = [];

beforeAll(async () => {
  operator = await startTestOperator();
  dataDir = mkdtempSync(join(tmpdir(), 'raspa-graceful-stop-'));
  if (process.env.RASPA_TEST_STORE === 'postgres') database = await createTestDatabase();
});
afterAll(async () => {
  for (const service of services) if (service.child.exitCode === null) service.child.kill('SIGKILL');
  await operator.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('SIGTERM with buys and reveals in flight', () => {
  it('answers each with its round, refuses new buys, closes the sockets to reconnect, exits 0, and the money reconciles', async () => {
    const env = {
      WORKERS: '1',
      DATA_DIR: dataDir,
      ...fleetSettings(API_KEY),
      // The held wallet calls below are answered, not timed out.
      WALLET_TIMEOUT_MS: '30000',
      ...(database && { DATABASE_URL: database.url }),
    };
    const first = await startServiceProcess(env);
    services.push(first);
    const { call } = first;
    const tokens: TokenSet = (await call('POST', '/v1/auth/login', { body: { apiKey: API_KEY } })).body.data;
    // Every card wins: each reveal sends a prize to the wallet.
    const game = await setUpWalletGame(call, tokens, operator, {
      gameModel: 'frevo-da-sorte',
      prizedPercent: 1,
    });
    const webhookId = await registerWebhook(call, tokens, operator.webhookUrl);
    const tabs: Tab[] = [];
    for (let i = 0; i < PLAYERS; i++)
      tabs.push(await openTab(first.url, await sessionToken(call, tokens, game, `player-${i}`)));
    const [t0, t1, t2, t3, t4, t5] = tabs as [Tab, Tab, Tab, Tab, Tab, Tab];

    // Players 0 and 1 hold open rounds; players 2–4 buy with their bets held at the wallet, then
    // players 0 and 1 reveal with their prizes held.
    const open = await Promise.all([t0, t1].map((tab) => tab.ask('buy')));
    for (const answer of open) expect(answer.ok, JSON.stringify(answer)).toBe(true);
    const bets = [1, 2, 3].map(() => operator.holdNext('bet'));
    const buys = [t2, t3, t4].map((tab) => tab.ask('buy'));
    await Promise.all(bets.map((bet) => bet.arrived));
    const prizes = [1, 2].map(() => operator.holdNext('prize'));
    const reveals = [t0, t1].map((tab, i) => tab.ask('reveal', { roundId: open[i].data.round.roundId }));
    await Promise.all(prizes.map((prize) => prize.arrived));

    // And a `state` waits on the wallet's balance: the stop's second step waits for it, with every
    // other request answered and the sockets still open.
    const balance = operator.holdNext('balance');
    const state = t5.ask('state');
    await balance.arrived;

    const exited = first.stop();
    await eventually(async () => (await fetch(`${first.url}/ready`)).status === 503);
    // No new round while it stops, answered at once though the held calls still wait.
    const late = await t5.ask('buy');
    expect(late === 'lost' ? late : late.error?.code).toBe('SERVICE_STOPPING');
    for (const held of [...bets, ...prizes]) held.answer();

    const bought = await Promise.all(buys);
    for (const answer of bought) expect(answer === 'lost' ? answer : answer.data?.round.status).toBe('open');
    const revealed = await Promise.all(reveals);
    for (const answer of revealed)
      expect(answer === 'lost' ? answer : answer.data?.round.status).toBe('closed');
    // Once those are answered, any new request is answered SERVICE_STOPPING at once, a reveal too
    // (its round stays open for the next instance), while the held `state` is still under way.
    await eventually(async () => (await t3.ask('state')).error?.code === 'SERVICE_STOPPING');
    const lateReveal = await t2.ask('reveal', { roundId: bought[0].data.round.roundId });
    expect(lateReveal === 'lost' ? lateReveal : lateReveal.error?.code).toBe('SERVICE_STOPPING');
    balance.answer();
    const stated = await state;
    expect(stated === 'lost' ? stated : stated.ok).toBe(true);
    expect(await exited).toBe(0);
    expect(first.errors()).toEqual([]);
    // Each connection closed by its transport: one a Socket.IO client reconnects after by itself.
    for (const tab of tabs) expect(tab.drops).toEqual(['transport close']);

    // Started again on the same port: every page reconnects on its own and reveals its open round.
    const second = await startServiceProcess({ ...env, PORT: new URL(first.url).port });
    services.push(second);
    await eventually(() => tabs.every((tab) => tab.socket.connected));
    const reopened = await Promise.all(
      [t2, t3, t4].map((tab, i) => tab.ask('reveal', { roundId: bought[i].data.round.roundId })),
    );
    for (const answer of reopened) expect(answer.data?.round.status, JSON.stringify(answer)).toBe('closed');
    for (const tab of tabs) tab.socket.close();

    await expectRecovered(second, operator, {
      tokens,
      profileId: game.profileId,
      webhookId,
      players: PLAYERS,
    });
    expect(await second.stop()).toBe(0);
    expect(second.errors()).toEqual([]);
  }, 240_000);
});
