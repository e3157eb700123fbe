import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crossProcessMessages, scrape } from '../bench/kit/cross-process.ts';
import { connectionOwner } from './connection-owner.ts';
import type { TokenSet } from './harness.ts';
import { connectPlayer, eventually, type Player, registerWebhook } from './play-fixtures.ts';
import { createTestDatabase, type TestDatabase } from './postgres-database.ts';
import {
  type ServiceProcess,
  sessionToken,
  setUpWalletGame,
  startServiceProcess,
} from './service-process.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * WORKERS=2: the real service as a primary and two worker processes on one SQLite file, Node's
 * cluster sharing the port. A player's tabs land on both workers (the cluster deals connections
 * round-robin); pushes reach all of them; concurrent buys open one round; SIGTERM stops them all.
 * A player with one tab sends no push between the processes. On the file the primary delivers the
 * webhooks (docs/store.md, "Deliveries in their own process"); on PostgreSQL the workers do.
 * In the server-postgres project the same on a PostgreSQL database: the pushes then go through
 * PostgreSQL (@socket.io/postgres-adapter), and the one-live-round rule is the unique index.
 */
const API_KEY = 'rsp_workers-test-api-key-0123456789';

let operator: TestOperator;
let dataDir: string;
let service: ServiceProcess | undefined;
let database: TestDatabase | undefined;

beforeAll(async () => {
  operator = await startTestOperator();
  dataDir = mkdtempSync(join(tmpdir(), 'raspa-workers-'));
  if (process.env.RASPA_TEST_STORE === 'postgres') database = await createTestDatabase();
});
afterAll(async () => {
  if (service?.child.exitCode === null) service.child.kill('SIGKILL');
  await operator.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('WORKERS=2', () => {
  it('serves a player from both processes: every tab is pushed to, one round opens, SIGTERM stops all', async () => {
    service = await startServiceProcess({
      WORKERS: '2',
      DATA_DIR: dataDir,
      DEMO_API_KEY: API_KEY,
      OUTBOUND_ALLOW_PRIVATE: 'true', // the test operator's wallet is on 127.0.0.1
      ...(database && { DATABASE_URL: database.url }),
    });
    const { call, url } = service;
    expect(new Set(service.workerPids()).size).toBe(2);
    // WebSocket only: a long-polling session's requests would reach different processes.
    const polling = await fetch(`${url}/socket.io/?EIO=4&transport=polling`);
    expect(polling.status).toBe(400);
    expect(await polling.json()).toMatchObject({ message: 'Transport unknown' });

    const tokens: TokenSet = (await call('POST', '/v1/auth/login', { body: { apiKey: API_KEY } })).body.data;
    const game = await setUpWalletGame(call, tokens, operator, {
      gameModel: 'oxe-ganhei',
      prizedPercent: 0.5,
    });
    const tabs: Player[] = [];
    const pushed: number[][] = [];
    for (let tab = 0; tab < 4; tab++) {
      const player = await connectPlayer(url, await sessionToken(call, tokens, game, 'ana'));
      const balances: number[] = [];
      player.socket.on('balance', ({ balance }: { balance: number }) => balances.push(balance));
      tabs.push(player);
      pushed.push(balances);
    }

    // Both workers announced the player and the first answered the second (three messages), so each
    // knows of the other (the second one hop after that answer, well before a buy's wallet call ends).
    await eventually(async () => (await crossProcessMessages([url], 2)).presence >= 3);
    // Every tab asks at once; the tabs are on both processes: one round opens.
    const answers = await Promise.all(tabs.map((tab) => tab.ask('buy')));
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    for (const refused of answers.filter((answer) => !answer.ok))
      expect(refused.error.code).toBe('ROUND_IN_PROGRESS');
    expect(operator.calls.filter((c) => c.kind === 'bet')).toHaveLength(1);
    // The one bet's new balance reaches every tab, whichever process it is on.
    await eventually(() => pushed.every((balances) => balances.includes(100_000 - 200)));
    for (const tab of tabs) tab.close();

    // A player with one tab: its rounds' pushes stay in its process (issue 23).
    await registerWebhook(call, tokens, operator.webhookUrl);
    operator.holdWebhooks(true); // the first delivery's connection stays open while we look
    const alone = await connectPlayer(url, await sessionToken(call, tokens, game, 'bia'));
    const before = await crossProcessMessages([url], 2);
    const roundIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const bought = await alone.ask('buy');
      if (!bought.ok) throw new Error(`buy failed: ${JSON.stringify(bought)}`);
      roundIds.push(bought.data.round.roundId);
      expect(await alone.ask('reveal', { roundId: bought.data.round.roundId })).toMatchObject({ ok: true });
    }
    expect((await crossProcessMessages([url], 2)).push).toBe(before.push);
    alone.close();

    // Who posted the first event: the primary on the file, a worker on PostgreSQL.
    const held = await eventually(() => operator.events[0]);
    const primary = service.child.pid as number;
    const sender = connectionOwner(held.remotePort as number, [primary, ...service.workerPids()]);
    if (database) expect(service.workerPids()).toContain(sender);
    else expect(sender).toBe(primary);
    operator.holdWebhooks(false);
    operator.answerHeldWebhooks(200);
    // Every round's events arrive, each round's close-round after its open-round.
    const kinds = (roundId: string) =>
      operator.events.filter((e) => e.payload._id === roundId && e.status === 200).map((e) => e.event);
    await eventually(() => roundIds.every((id) => kinds(id).length >= 2));
    for (const id of roundIds) expect([...new Set(kinds(id))]).toEqual(['open-round', 'close-round']);
    // The deliveries are counted in /metrics wherever they were made (the primary serves none).
    const delivered = async () => {
      let most = 0;
      for (let i = 0; i < 6; i++) {
        const line = (await scrape(url))
          .split('\n')
          .find((each) => each.startsWith('raspa_webhook_deliveries_total{result="delivered"}'));
        most = Math.max(most, Number(line?.split(' ')[1] ?? 0));
      }
      return most >= roundIds.length * 2;
    };
    await eventually(delivered);

    expect(await service.stop()).toBe(0);
  }, 120_000);
});
