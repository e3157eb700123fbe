import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenSet } from './harness.ts';
import { connectPlayer, eventually, type Player } from './play-fixtures.ts';
import {
  type ServiceProcess,
  sessionToken,
  setUpWalletGame,
  startServiceProcess,
} from './service-process.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * WORKERS=2 under faults: 20 players play a burst across both workers while the wallet leaves
 * some bets and prizes unanswered after applying them; one worker is killed with SIGKILL mid-burst
 * (the primary starts another). Its leases expire and the others finish its work: every round
 * ends closed, declined or voided, no bet is sent twice, and every player's wallet balance equals
 * the completed transactions.
 */
const API_KEY = 'rsp_workers-faults-api-key-0123456789';
const PLAYERS = 20;
const ROUNDS_EACH = 5;

let operator: TestOperator;
let dataDir: string;
let service: ServiceProcess | undefined;

beforeAll(async () => {
  let calls = 0;
  // Every 7th bet or prize is applied and then left unanswered.
  operator = await startTestOperator({
    chooseFault: (kind) => (kind !== 'rollback' && ++calls % 7 === 0 ? 'ok-then-hang' : undefined),
  });
  dataDir = mkdtempSync(join(tmpdir(), 'raspa-workers-faults-'));
});
afterAll(async () => {
  if (service?.child.exitCode === null) service.child.kill('SIGKILL');
  await operator.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** An answer, or 'lost' when the worker died before answering. */
function answerOf<T>(player: Player & { gone: boolean }, ask: Promise<T>): Promise<T | 'lost'> {
  return new Promise((resolve) => {
    const lost = () => resolve('lost');
    player.socket.once('disconnect', lost);
    void ask.then((answer) => {
      player.socket.off('disconnect', lost);
      resolve(answer);
    });
    if (player.gone) lost();
  });
}

async function listAll(service: ServiceProcess, tokens: TokenSet, path: string): Promise<any[]> {
  const items: any[] = [];
  for (let pageIndex = 1; ; pageIndex++) {
    const answer = await service.call('GET', `${path}&pageSize=100&pageIndex=${pageIndex}`, {
      token: tokens,
    });
    items.push(...answer.body.data);
    if (items.length >= answer.body.pagination.totalCount) return items;
  }
}

describe('WORKERS=2 with a worker killed mid-burst', () => {
  it('leaves every round ended, no bet sent twice, and every balance equal to the completed transactions', async () => {
    const running = await startServiceProcess({
      WORKERS: '2',
      DATA_DIR: dataDir,
      DEMO_API_KEY: API_KEY,
      WALLET_TIMEOUT_MS: '1000',
      ROUND_IDLE_TIMEOUT: '60s', // the shortest allowed: rounds whose reveal died with the worker close by it
      OUTBOUND_ALLOW_PRIVATE: 'true', // the test operator's wallet is on 127.0.0.1
    });
    service = running;
    const { call, url } = running;
    const pids = running.workerPids();
    const tokens: TokenSet = (await call('POST', '/v1/auth/login', { body: { apiKey: API_KEY } })).body.data;
    const game = await setUpWalletGame(call, tokens, operator, {
      gameModel: 'frevo-da-sorte',
      prizedPercent: 0.5,
    });
    const { profileId } = game;
    const players: Array<Player & { gone: boolean }> = [];
    for (let i = 0; i < PLAYERS; i++) {
      const player = Object.assign(
        await connectPlayer(url, await sessionToken(call, tokens, game, `player-${i}`)),
        {
          gone: false,
        },
      );
      player.socket.once('disconnect', () => {
        player.gone = true;
      });
      players.push(player);
    }

    const bursts = players.map(async (player) => {
      for (let i = 0; i < ROUNDS_EACH && !player.gone; i++) {
        const bought = await answerOf(player, player.ask('buy'));
        if (bought === 'lost' || !bought.ok) continue;
        await answerOf(player, player.ask('reveal', { roundId: bought.data.round.roundId }));
      }
    });
    // Mid-burst: once some rounds are under way, one worker dies without a chance to clean up.
    await eventually(() => operator.calls.filter((c) => c.kind === 'bet').length >= PLAYERS, 30_000);
    process.kill(pids[0] as number, 'SIGKILL');
    await Promise.all(bursts);
    for (const player of players) player.close();
    await eventually(() => running.logs().includes('a worker stopped; starting another'), 10_000);

    // The dead worker's leases expire (30 s for a wallet call) and the others finish its work.
    const rounds = await eventually(async () => {
      const list = await listAll(running, tokens, `/v1/round?profileId=${profileId}`);
      return list.every((round) => ['closed', 'declined', 'voided'].includes(round.status)) && list;
    }, 120_000);
    expect(rounds.length).toBeGreaterThan(PLAYERS);
    const transactions = await eventually(async () => {
      const list = await listAll(running, tokens, `/v1/transaction?profileId=${profileId}`);
      return list.every((t) => t.status !== 'pending') && list;
    }, 60_000);

    // A bet is never sent again (an unanswered one is rolled back): one call per bet transactionId.
    const betIds = operator.calls.filter((c) => c.kind === 'bet').map((c) => c.body.transactionId);
    expect(new Set(betIds).size).toBe(betIds.length);
    const users = await listAll(running, tokens, `/v1/user?profileId=${profileId}`);
    for (const user of users) {
      const completed = transactions
        .filter((t) => t.userId === user._id && t.status === 'completed')
        .reduce((sum, t) => sum + Math.round(t.amount * 100), 0);
      expect(completed, `${user.credential}: completed transactions vs the wallet`).toBe(
        operator.balanceOf(user.credential) - 100_000,
      );
    }

    expect(await running.stop()).toBe(0);
  }, 240_000);
});
