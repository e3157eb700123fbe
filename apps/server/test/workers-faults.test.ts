import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processTree } from '../bench/kit/cpu.ts';
import { SETTING_DEFAULTS } from '../src/config.ts';
import type { TokenSet } from './harness.ts';
import { connectPlayer, eventually, type Player, registerWebhook } from './play-fixtures.ts';
import {
  type ServiceProcess,
  sessionToken,
  setUpWalletGame,
  startServiceProcess,
} from './service-process.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * Several processes on one database (issue 12): WORKERS=2 on one SQLite file, 100 players spread
 * over both workers by the cluster's round-robin, a webhook receiver on 127.0.0.1. Some players
 * play with two tabs, connected one after the other (so on both workers), that ask to buy at once.
 * The wallet leaves every 7th bet or prize unanswered after applying it, and the receiver fails its
 * first deliveries. Mid-burst one worker is killed with SIGKILL; the primary starts another, the
 * dead worker's leases expire (30 s for a wallet call, 60 s for a webhook's queue) and the others
 * finish its work, while its players reconnect and reveal the rounds they had open, as the page does.
 * Then: every round ends closed, declined or voided; each wallet call goes under one transactionId
 * (one per round and kind; a bet is never sent twice); every balance equals the completed
 * transactions; the receiver got every event, one receipt per logged attempt (besides those the
 * dead worker sent and could not log), and a round's close-round after its open-round.
 */
const API_KEY = 'rsp_workers-faults-api-key-0123456789';
const PLAYERS = 100;
/** Players with two tabs asking to buy at once, on both workers. */
const TWO_TAB_PLAYERS = 20;
const ROUNDS_EACH = 3;

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

type Tab = Player & { gone: boolean };

/** A tab that notes when its connection drops (its worker killed). */
async function openTab(url: string, token: string): Promise<Tab> {
  const tab = Object.assign(await connectPlayer(url, token), { gone: false });
  tab.socket.once('disconnect', () => {
    tab.gone = true;
  });
  return tab;
}

/** An answer, or 'lost' when the tab's worker died before answering. */
function answerOf<T>(tab: Tab, ask: Promise<T>): Promise<T | 'lost'> {
  return new Promise((resolve) => {
    const lost = () => resolve('lost');
    tab.socket.once('disconnect', lost);
    void ask.then((answer) => {
      tab.socket.off('disconnect', lost);
      resolve(answer);
    });
    if (tab.gone) lost();
  });
}

async function listAll(service: ServiceProcess, tokens: TokenSet, path: string): Promise<any[]> {
  const items: any[] = [];
  const join = path.includes('?') ? '&' : '?';
  for (let pageIndex = 1; ; pageIndex++) {
    const answer = await service.call('GET', `${path}${join}pageSize=100&pageIndex=${pageIndex}`, {
      token: tokens,
    });
    items.push(...answer.body.data);
    if (items.length >= answer.body.pagination.totalCount) return items;
  }
}

/** How many times each key occurs. */
function tally(keys: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

describe('WORKERS=2 on one SQLite file, a worker killed mid-burst', () => {
  it('ends every round, sends each wallet call under one transactionId, keeps the balances and delivers every event as logged', async () => {
    const running = await startServiceProcess({
      WORKERS: '2',
      DATA_DIR: dataDir,
      DEMO_API_KEY: API_KEY,
      WALLET_TIMEOUT_MS: '1000',
      ROUND_IDLE_TIMEOUT: '60s', // the shortest allowed: a safety net, as players reveal their rounds
      WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s,1s,1s,1s', // retried soon, and not given up
      OUTBOUND_ALLOW_PRIVATE: 'true', // the test operator's wallet and receiver are on 127.0.0.1
    });
    service = running;
    const { call, url } = running;
    const pids = running.workerPids();
    expect(new Set(pids).size).toBe(2);
    const tokens: TokenSet = (await call('POST', '/v1/auth/login', { body: { apiKey: API_KEY } })).body.data;
    const game = await setUpWalletGame(call, tokens, operator, {
      gameModel: 'frevo-da-sorte',
      prizedPercent: 0.5,
    });
    const { profileId } = game;
    const webhookId = await registerWebhook(call, tokens, operator.webhookUrl);
    operator.webhookAnswers(500, 503); // the first two attempts fail and are retried

    // Sessions ten at a time; then each player's tabs, connected one after the other: the cluster
    // deals connections to the workers in turn, so a player's two tabs are on both.
    const tokensOf: string[] = [];
    for (let i = 0; i < PLAYERS; i += 10) {
      const batch = Array.from({ length: Math.min(10, PLAYERS - i) }, (_, j) =>
        sessionToken(call, tokens, game, `player-${i + j}`),
      );
      tokensOf.push(...(await Promise.all(batch)));
    }
    const players: Array<{ credential: string; token: string; tabs: Tab[] }> = [];
    for (const [i, token] of tokensOf.entries()) {
      const tabs = [await openTab(url, token)];
      if (i < TWO_TAB_PLAYERS) tabs.push(await openTab(url, token));
      players.push({ credential: `player-${i}`, token, tabs });
    }

    const betsOf = (credential: string) =>
      operator.calls.filter((c) => c.kind === 'bet' && c.body.credential === credential).length;
    /** Bet calls sent during each burst of one player's tabs: one round opens at most. */
    const betsPerBurst: number[] = [];
    const refusals: string[] = [];
    const bursts = players.map(async (player) => {
      for (let i = 0; i < ROUNDS_EACH; i++) {
        const live = player.tabs.filter((tab) => !tab.gone);
        if (live.length === 0) return; // its worker died: it reconnects below
        const betsBefore = betsOf(player.credential);
        const answers = await Promise.all(live.map((tab) => answerOf(tab, tab.ask('buy'))));
        betsPerBurst.push(betsOf(player.credential) - betsBefore);
        const opened = answers.findIndex((answer) => answer !== 'lost' && answer.ok);
        for (const answer of answers)
          if (answer !== 'lost' && !answer.ok) refusals.push(answer.error.code as string);
        const tab = live[opened];
        const bought = answers[opened];
        if (!tab || !bought || bought === 'lost' || !bought.ok) continue;
        await answerOf(tab, tab.ask('reveal', { roundId: bought.data.round.roundId }));
      }
    });
    // Mid-burst, one worker dies without a chance to clean up.
    // Once some rounds are under way and webhook deliveries have begun.
    await eventually(
      () =>
        operator.calls.filter((c) => c.kind === 'bet').length >= PLAYERS / 2 && operator.events.length >= 10,
      60_000,
    );
    process.kill(pids[0] as number, 'SIGKILL');
    await Promise.all(bursts);

    // Some two-tab player kept one tab and lost the other: its tabs were on both workers.
    const split = players
      .slice(0, TWO_TAB_PLAYERS)
      .filter((player) => player.tabs.some((tab) => tab.gone) && player.tabs.some((tab) => !tab.gone));
    expect(split.length).toBeGreaterThan(0);
    expect(Math.max(...betsPerBurst)).toBeLessThanOrEqual(1);
    expect(betsPerBurst.filter((bets) => bets === 1).length).toBeGreaterThan(PLAYERS);
    expect(new Set(refusals).has('ROUND_IN_PROGRESS')).toBe(true);

    // The primary replaces the dead worker: two workers again, one of them new.
    await eventually(() => running.logs().includes('a worker stopped; starting another'), 30_000);
    const replaced = await eventually(() => {
      const workers = processTree(running.child.pid).slice(1);
      return workers.length === 2 && !workers.includes(pids[0] as number) && workers;
    }, 30_000);
    expect(replaced.filter((pid) => !pids.includes(pid))).toHaveLength(1);

    // Players reconnect where their worker died (to either worker) and reveal the round they have
    // open, as the page does: a round whose buy was answered on a dead tab is open on the other.
    await Promise.all(
      players.map(async (player) => {
        let tab = player.tabs.find((each) => !each.gone);
        if (!tab) {
          tab = await eventually(() => openTab(url, player.token).catch(() => undefined), 30_000);
          player.tabs.push(tab);
        }
        const on = tab;
        await eventually(async () => {
          const state = await on.ask('state');
          const open = state.ok ? state.data.openRound : undefined;
          if (open?.status === 'open') await on.ask('reveal', { roundId: open.roundId });
          return state.ok && (open === null || open.status !== 'open');
        }, 60_000);
      }),
    );
    for (const player of players) for (const tab of player.tabs) tab.close();

    // The dead worker's leases expire and the others finish its work: every round ends.
    const rounds = await eventually(async () => {
      const list = await listAll(running, tokens, `/v1/round?profileId=${profileId}`);
      return list.every((round) => ['closed', 'declined', 'voided'].includes(round.status)) && list;
    }, 150_000);
    expect(rounds.length).toBeGreaterThanOrEqual(PLAYERS);
    const transactions = await eventually(async () => {
      const list = await listAll(running, tokens, `/v1/transaction?profileId=${profileId}`);
      return list.every((t) => t.status !== 'pending') && list;
    }, 60_000);

    // Each wallet call goes under one transactionId: a round's bet, prize and rollback each have
    // one, whatever the retries; a bet is never sent again (an unanswered one is rolled back).
    const moneyCalls = operator.calls.filter((c) => c.kind !== 'balance');
    const idsPerRoundAndKind = new Map<string, Set<string>>();
    for (const { kind, body } of moneyCalls) {
      const key = `${body.roundId} ${kind}`;
      idsPerRoundAndKind.set(key, (idsPerRoundAndKind.get(key) ?? new Set()).add(body.transactionId));
    }
    for (const [key, ids] of idsPerRoundAndKind) expect(ids.size, key).toBe(1);
    const sameCall = new Map<string, string>();
    for (const { kind, body } of moneyCalls) {
      const what = `${kind} ${body.roundId} ${body.amount} ${body.originalTransactionId ?? ''}`;
      expect(sameCall.get(body.transactionId) ?? what, body.transactionId).toBe(what);
      sameCall.set(body.transactionId, what);
    }
    const betIds = moneyCalls.filter((c) => c.kind === 'bet').map((c) => c.body.transactionId);
    expect(new Set(betIds).size).toBe(betIds.length);
    // The wallet applied each bet and prize at most once, and refunded a bet at most once.
    const applied = operator.moves.filter((move) => move.kind !== 'rollback').map((m) => m.transactionId);
    expect(new Set(applied).size).toBe(applied.length);

    // The wallet's balances equal the completed transactions.
    const users = await listAll(running, tokens, `/v1/user?profileId=${profileId}`);
    expect(users).toHaveLength(PLAYERS);
    for (const user of users) {
      const completed = transactions
        .filter((t) => t.userId === user._id && t.status === 'completed')
        .reduce((sum, t) => sum + Math.round(t.amount * 100), 0);
      expect(completed, `${user.credential}: completed transactions vs the wallet`).toBe(
        operator.balanceOf(user.credential) - 100_000,
      );
    }

    // Every event reached the receiver: an open-round per round that opened, a close-round per
    // round that closed after opening (a declined or voided round never opened).
    const opened = rounds.filter((round) => round.status === 'closed');
    const answeredOk = (event: string, roundId: string) =>
      operator.events.some((e) => e.event === event && e.payload._id === roundId && e.status < 300);
    await eventually(
      () => opened.every((r) => answeredOk('open-round', r._id) && answeredOk('close-round', r._id)),
      120_000,
    );
    const eventsOf = new Set(operator.events.map((e) => e.payload._id));
    for (const round of rounds.filter((r) => r.status !== 'closed'))
      expect(eventsOf.has(round._id)).toBe(false);
    // A round's close-round arrives only after its open-round was accepted.
    for (const round of opened) {
      const firstAccepted = operator.events.findIndex(
        (e) => e.event === 'open-round' && e.payload._id === round._id && e.status < 300,
      );
      const firstClose = operator.events.findIndex(
        (e) => e.event === 'close-round' && e.payload._id === round._id,
      );
      expect(firstClose, round._id).toBeGreaterThan(firstAccepted);
    }

    // One receipt per logged attempt: the log row and the request share the event, the round and
    // the second the attempt was sent in (webhook-timestamp). The only receipts not in the log are
    // attempts the dead worker had in flight (at most WEBHOOK_IN_FLIGHT), each sent again and logged.
    const receiptKey = (event: string, roundId: string, seconds: number) => `${event} ${roundId} ${seconds}`;
    // Each event's last attempt is its accepted one: once each is logged, so are the earlier ones.
    const log = await eventually(async () => {
      const rows = await listAll(running, tokens, `/v1/webhook/${webhookId}`);
      const accepted = new Set(
        rows.filter((row) => row.success).map((row) => `${row.eventType} ${row.payload._id}`),
      );
      return operator.events.every((e) => accepted.has(`${e.event} ${e.payload._id}`)) && rows;
    }, 30_000);
    const logged = tally(
      log.map((row) =>
        receiptKey(row.eventType, row.payload._id, Math.floor(Date.parse(row.timestamp) / 1000)),
      ),
    );
    const received = tally(
      operator.events.map((e) => receiptKey(e.event, e.payload._id, Number(e.headers['webhook-timestamp']))),
    );
    for (const [key, count] of logged) expect(received.get(key) ?? 0, key).toBe(count);
    const unlogged = [...received].filter(([key, count]) => count > (logged.get(key) ?? 0));
    expect(unlogged.length).toBeLessThanOrEqual(SETTING_DEFAULTS.WEBHOOK_IN_FLIGHT);
    for (const [key] of unlogged) {
      const [event, roundId] = key.split(' ');
      expect(
        log.some((row) => row.eventType === event && row.payload._id === roundId && row.success),
        key,
      ).toBe(true);
    }
    expect(log.filter((row) => !row.success)).toHaveLength(2);

    expect(await running.stop()).toBe(0);
  }, 400_000);
});
