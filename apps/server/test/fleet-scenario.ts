import { expect } from 'vitest';
import { SETTING_DEFAULTS } from '../src/config.ts';
import type { Caller, TokenSet } from './harness.ts';
import { FLEET_ROUND_IDLE_SECONDS } from './idle-timeout-passed.ts';
import { connectPlayer, eventually, type Player, registerWebhook } from './play-fixtures.ts';
import { sessionToken, setUpWalletGame } from './service-process.ts';
import { accepted, startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * Several serving processes on one database, one of them killed mid-burst (issues 12 and 13): the
 * same scenario for WORKERS on one SQLite file and for instances behind a load balancer on one
 * PostgreSQL database. Players, some with two tabs connected one after the other (so on two
 * processes) that ask to buy at once, play bursts against a wallet that leaves some bets and
 * prizes unanswered after applying them and a receiver that fails its first deliveries. Mid-burst
 * one process dies by SIGKILL and is replaced; its leases expire and the others finish its work,
 * while its players reconnect and reveal the rounds they had open, as the page does. Then: every
 * round ends closed, declined or voided; each wallet call goes under one transactionId (one per
 * round and kind; a bet is never sent twice); every balance equals the completed transactions;
 * the receiver got every event, one receipt per logged attempt (besides those the dead process
 * sent and could not log), and a round's close-round after its open-round.
 */
export interface Fleet {
  /** Where the players' pages and the API go: the one port of the workers, or the load balancer. */
  url: string;
  call: Caller;
  apiKey: string;
  /** Kills one serving process with SIGKILL, mid-burst. */
  killOne(): void;
  /** Resolves once the killed process is replaced. */
  replaced(): Promise<void>;
  /** What the serving processes logged at level error, for a failure's message. */
  errors(): string[];
}

export interface ScenarioOptions {
  players: number;
  /** Players with two tabs asking to buy at once, on two processes. */
  twoTabPlayers: number;
  roundsEach: number;
}

/** What the checks after the scenario may look at. */
export interface ScenarioOutcome {
  tokens: TokenSet;
  profileId: string;
  gameId: string;
  webhookId: string;
  rounds: any[];
  log: any[];
  /** Two-tab players both of whose tabs lived, each tab pushed to. */
  pushedOnBothTabs: number;
}

/** The test operator of the fleet tests: its wallet applies every 7th bet or prize and then leaves it unanswered. */
export function startHangingOperator(): Promise<TestOperator> {
  let calls = 0;
  return startTestOperator({
    chooseFault: (kind) => (kind !== 'rollback' && ++calls % 7 === 0 ? 'ok-then-hang' : undefined),
  });
}

/** The settings every process of a fleet test shares. */
export const fleetSettings = (apiKey: string): Record<string, string> => ({
  DEMO_API_KEY: apiKey,
  WALLET_TIMEOUT_MS: '1000',
  // A safety net, as players reveal their rounds; crash-recovery moves its rounds' last action back
  // rather than wait it out (idle-timeout-passed.ts).
  ROUND_IDLE_TIMEOUT: `${FLEET_ROUND_IDLE_SECONDS}s`,
  WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s,1s,1s,1s', // retried soon, and not given up
  OUTBOUND_ALLOW_PRIVATE: 'true', // the test operator's wallet and receiver are on 127.0.0.1
});

type Tab = Player & { gone: boolean; balancePushes: number };

/**
 * Longer than any answer may take (a wallet time-out of 1 s, its retries, a busy machine): a
 * request a live process leaves unanswered this long is a fault the scenario reports, instead of
 * waiting until the test's own time-out says nothing of where.
 */
const ASK_LIMIT_MS = 45_000;
/** The requests a live process left unanswered, as `event after ms` (checked after the bursts). */
const unanswered: string[] = [];

/**
 * A tab that notes when its connection drops (its process killed), counts its balance pushes,
 * and whose requests are answered within ASK_LIMIT_MS (else an error ack, noted in `unanswered`).
 */
async function openTab(url: string, token: string): Promise<Tab> {
  const player = await connectPlayer(url, token);
  const tab: Tab = Object.assign(player, {
    gone: false,
    balancePushes: 0,
    ask: (event: string, payload?: unknown) =>
      new Promise<any>((resolve) => {
        const answered = (error: Error | null, ack: unknown) => {
          if (!error) return resolve(ack);
          if (!tab.gone) unanswered.push(`${event} after ${ASK_LIMIT_MS} ms`);
          resolve({ ok: false, error: { code: 'NO_ANSWER', message: `${event} was not answered` } });
        };
        const timed = player.socket.timeout(ASK_LIMIT_MS);
        if (payload === undefined) timed.emit(event, answered);
        else timed.emit(event, payload, answered);
      }),
  });
  tab.socket.once('disconnect', () => {
    tab.gone = true;
  });
  tab.socket.on('balance', () => {
    tab.balancePushes++;
  });
  return tab;
}

/** Says how far the scenario got, so a run that times out shows where (vitest prints it). */
export function stepper(): (name: string) => void {
  const start = Date.now();
  return (name) => console.log(`fleet scenario: ${name} at ${((Date.now() - start) / 1000).toFixed(1)} s`);
}

/** An answer, or 'lost' when the tab's process died before answering. */
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

export async function listAll(service: Pick<Fleet, 'call'>, tokens: TokenSet, path: string): Promise<any[]> {
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

/**
 * A round's close-round arrived only after its open-round was accepted (docs/contract.md §7): the
 * receiver answers each request as it arrives, so in its arrival log the first accepted
 * open-round of each round comes before any close-round of it.
 */
export function expectOpenBeforeClose(events: TestOperator['events'], rounds: Array<{ _id: string }>): void {
  for (const round of rounds) {
    const firstAccepted = events.findIndex(
      (e) => e.event === 'open-round' && e.payload._id === round._id && accepted(e),
    );
    const firstClose = events.findIndex((e) => e.event === 'close-round' && e.payload._id === round._id);
    expect(firstAccepted, `${round._id}: its open-round was accepted`).toBeGreaterThanOrEqual(0);
    expect(
      firstClose,
      `${round._id}: its close-round came after its open-round was accepted`,
    ).toBeGreaterThan(firstAccepted);
  }
}

/**
 * Back on the page after a crash: reveals the round its state shows open, as the page does, until
 * none is (the service may still be settling its bet). Each try asks `liveTab` for a tab: one
 * connected when the process was killed may learn of it only after it was chosen. If the round
 * stays open, the error says what the last try saw.
 */
export async function revealOpenRound(liveTab: () => Promise<Player>, ms: number): Promise<void> {
  let seen = 'nothing yet';
  try {
    await eventually(async () => {
      const tab = await liveTab();
      const state = await tab.ask('state');
      const open = state.ok ? state.data.openRound : undefined;
      seen = `state ${JSON.stringify(state.ok ? open : state.error)}`;
      if (open?.status === 'open') {
        const revealed = await tab.ask('reveal', { roundId: open.roundId });
        seen += `, reveal ${JSON.stringify(revealed.ok ? revealed.data.round.status : revealed.error)}`;
      }
      return state.ok && (open === null || open.status !== 'open');
    }, ms);
  } catch (error) {
    throw new Error(`a round stayed open: the last try saw ${seen}`, { cause: error });
  }
}

/** How many times each key occurs. */
function tally(keys: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

export async function playThroughAKill(
  fleet: Fleet,
  operator: TestOperator,
  options: ScenarioOptions,
): Promise<ScenarioOutcome> {
  const { call, url } = fleet;
  const step = stepper();
  const { tokens, game, webhookId } = await setUpPlayedGame(call, fleet.apiKey, operator);
  const { profileId } = game;
  operator.webhookAnswers(500, 503); // the first two attempts fail and are retried

  // Sessions ten at a time; then each player's tabs, connected one after the other: the cluster
  // deals connections to the processes in turn (the cluster, or the load balancer's round-robin), so
  // a player's two tabs are on two of them.
  const tokensOf: string[] = [];
  for (let i = 0; i < options.players; i += 10) {
    const batch = Array.from({ length: Math.min(10, options.players - i) }, (_, j) =>
      sessionToken(call, tokens, game, `player-${i + j}`),
    );
    tokensOf.push(...(await Promise.all(batch)));
  }
  const players: Array<{ credential: string; token: string; tabs: Tab[] }> = [];
  for (const [i, token] of tokensOf.entries()) {
    const tabs = [await openTab(url, token)];
    if (i < options.twoTabPlayers) tabs.push(await openTab(url, token));
    players.push({ credential: `player-${i}`, token, tabs });
  }

  const betsOf = (credential: string) =>
    operator.calls.filter((c) => c.kind === 'bet' && c.body.credential === credential);
  /** The rounds whose bets were sent during each burst of one player's tabs: one opens at most. */
  const roundsPerBurst: string[][] = [];
  const refusals: string[] = [];
  const bursts = players.map(async (player) => {
    for (let i = 0; i < options.roundsEach; i++) {
      const live = player.tabs.filter((tab) => !tab.gone);
      if (live.length === 0) return; // its process died: it reconnects below
      const betsBefore = betsOf(player.credential).length;
      const answers = await Promise.all(live.map((tab) => answerOf(tab, tab.ask('buy'))));
      roundsPerBurst.push(
        betsOf(player.credential)
          .slice(betsBefore)
          .map((c) => c.body.roundId as string),
      );
      const opened = answers.findIndex((answer) => answer !== 'lost' && answer.ok);
      for (const answer of answers)
        if (answer !== 'lost' && !answer.ok) refusals.push(answer.error.code as string);
      const tab = live[opened];
      const bought = answers[opened];
      if (!tab || !bought || bought === 'lost' || !bought.ok) continue;
      await answerOf(tab, tab.ask('reveal', { roundId: bought.data.round.roundId }));
    }
  });
  // Mid-burst, one process dies without a chance to clean up.
  // Once some rounds are under way and webhook deliveries have begun.
  await eventually(
    () =>
      operator.calls.filter((c) => c.kind === 'bet').length >= options.players / 2 &&
      operator.events.length >= 10,
    60_000,
  );
  step('killing one process');
  fleet.killOne();
  await Promise.all(bursts);
  // The dead process's tabs learn it when their connections drop, which may come after the bursts
  // end: each tab either answers a `state` (its process lives) or sees its connection drop, so every
  // tab of the dead process is marked gone before they are counted below.
  await Promise.all(players.flatMap((player) => player.tabs.map((tab) => answerOf(tab, tab.ask('state')))));
  step('bursts over');
  expect(unanswered, 'requests a live process never answered').toEqual([]);

  // Some two-tab player kept one tab and lost the other: its tabs were on two processes.
  const split = players
    .slice(0, options.twoTabPlayers)
    .filter((player) => player.tabs.some((tab) => tab.gone) && player.tabs.some((tab) => !tab.gone));
  const tabs = players.flatMap((player) => player.tabs);
  expect(
    split.length,
    `two-tab players split by the kill (${tabs.filter((tab) => tab.gone).length} of ${tabs.length} tabs gone); errors logged: ${fleet.errors().join('\n') || 'none'}`,
  ).toBeGreaterThan(0);
  expect(roundsPerBurst.filter((ids) => ids.length === 1).length).toBeGreaterThan(options.players);
  expect(new Set(refusals).has('ROUND_IN_PROGRESS')).toBe(true);
  // A bet's new balance reaches every tab of its player, whichever process each tab is on (the
  // Socket.IO adapter): a two-tab player whose tabs both lived got pushes on both. (With two
  // workers no player keeps both; workers.test.ts checks their pushes.)
  const bothLived = players.slice(0, options.twoTabPlayers).filter((p) => p.tabs.every((tab) => !tab.gone));
  await eventually(() => bothLived.every((p) => p.tabs.every((tab) => tab.balancePushes > 0)));

  // The dead process is replaced (a worker forked again, an instance restarted).
  await fleet.replaced();
  step('the dead process replaced');

  // Players reconnect where their process died (to any other) and reveal the round they have
  // open, as the page does: a round whose buy was answered on a dead tab is open on the other.
  await Promise.all(
    players.map((player) =>
      revealOpenRound(async () => {
        const live = player.tabs.find((each) => !each.gone);
        if (live) return live;
        const tab = await eventually(() => openTab(url, player.token).catch(() => undefined));
        player.tabs.push(tab);
        return tab;
      }, 60_000),
    ),
  );
  for (const player of players) for (const tab of player.tabs) tab.close();
  step('open rounds revealed');

  // The dead process's leases expire and the others finish its work: every round ends.
  const { rounds, log } = await expectRecovered(fleet, operator, {
    tokens,
    profileId,
    webhookId,
    players: options.players,
    step,
  });
  expect(rounds.length).toBeGreaterThanOrEqual(options.players);
  // One round at a time per player: a burst's second bet only follows a first one that ended
  // without opening (voided after a wallet time-out, or declined) while the other tab's buy was
  // still on its way (a unit retried on PostgreSQL); never two rounds opened in one burst.
  const statusOf = new Map(rounds.map((round) => [round._id as string, round.status as string]));
  for (const ids of roundsPerBurst.filter((each) => each.length > 1))
    expect(ids.filter((id) => statusOf.get(id) === 'closed').length, ids.join(' ')).toBeLessThanOrEqual(1);
  expect(log.filter((row) => !row.success)).toHaveLength(2);
  return {
    tokens,
    profileId,
    gameId: game.gameId,
    webhookId,
    rounds,
    log,
    pushedOnBothTabs: bothLived.length,
  };
}

/**
 * After a kill and a restart (or a replacement): every round of the profile ends closed, declined
 * or voided; each wallet call went under one transactionId (one per round and kind; a bet never
 * sent twice) and the wallet applied it at most once; every balance equals the completed
 * transactions; every event of an opened round reached the receiver and was accepted, a round's
 * close-round after its open-round; and each receipt is a logged attempt, besides at most
 * WEBHOOK_IN_FLIGHT the dead process had sent and not logged, each sent again and logged.
 */
export async function expectRecovered(
  service: Pick<Fleet, 'call'>,
  operator: TestOperator,
  at: {
    tokens: TokenSet;
    profileId: string;
    webhookId: string;
    players: number;
    /** Says how far the checks got (stepper()). */
    step?: (name: string) => void;
  },
): Promise<{ rounds: any[]; log: any[] }> {
  const { tokens, profileId, webhookId, step = () => {} } = at;
  const rounds = await eventually(async () => {
    const list = await listAll(service, tokens, `/v1/round?profileId=${profileId}`);
    return list.every((round) => ['closed', 'declined', 'voided'].includes(round.status)) && list;
  }, 150_000);
  step('every round ended');
  const transactions = await eventually(async () => {
    const list = await listAll(service, tokens, `/v1/transaction?profileId=${profileId}`);
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
  const users = await listAll(service, tokens, `/v1/user?profileId=${profileId}`);
  expect(users).toHaveLength(at.players);
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
    operator.events.some((e) => e.event === event && e.payload._id === roundId && accepted(e));
  await eventually(
    () => opened.every((r) => answeredOk('open-round', r._id) && answeredOk('close-round', r._id)),
    120_000,
  );
  step('every event delivered');
  const eventsOf = new Set(operator.events.map((e) => e.payload._id));
  for (const round of rounds.filter((r) => r.status !== 'closed'))
    expect(eventsOf.has(round._id)).toBe(false);
  expectOpenBeforeClose(operator.events, opened);

  // One receipt per logged attempt: the log row and the request share the event, the round and
  // the second the attempt was sent in (webhook-timestamp). The only receipts not in the log are
  // attempts the dead process had in flight (at most WEBHOOK_IN_FLIGHT), each sent again and logged.
  const receiptKey = (event: string, roundId: string, seconds: number) => `${event} ${roundId} ${seconds}`;
  // Each event's last attempt is its accepted one: once each is logged, so are the earlier ones.
  const log = await eventually(async () => {
    const rows = await listAll(service, tokens, `/v1/webhook/${webhookId}`);
    const accepted = new Set(
      rows.filter((row) => row.success).map((row) => `${row.eventType} ${row.payload._id}`),
    );
    return operator.events.every((e) => accepted.has(`${e.event} ${e.payload._id}`)) && rows;
  });
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
  return { rounds, log };
}

/** A fleet test's operator side: signed in, a wallet game prizing half its tickets, and a webhook. */
export async function setUpPlayedGame(call: Caller, apiKey: string, operator: TestOperator) {
  const tokens: TokenSet = (await call('POST', '/v1/auth/login', { body: { apiKey } })).body.data;
  const game = await setUpWalletGame(call, tokens, operator, {
    gameModel: 'frevo-da-sorte',
    prizedPercent: 0.5,
  });
  const webhookId = await registerWebhook(call, tokens, operator.webhookUrl);
  return { tokens, game, webhookId };
}

/**
 * expectRecovered for a game set up by setUpPlayedGame, and every round a buy answered open
 * (`opened`) is there and closed: none lost, and one bet each.
 */
export async function expectPlayedRoundsClosed(
  service: Pick<Fleet, 'call'>,
  operator: TestOperator,
  played: Awaited<ReturnType<typeof setUpPlayedGame>> & { players: number; opened: string[] },
): Promise<void> {
  const { rounds } = await expectRecovered(service, operator, {
    tokens: played.tokens,
    profileId: played.game.profileId,
    webhookId: played.webhookId,
    players: played.players,
  });
  const closed = new Set(rounds.filter((round) => round.status === 'closed').map((round) => round._id));
  expect(played.opened.filter((id) => !closed.has(id))).toEqual([]);
}
