// postgres-only: instances on the cluster behind HAProxy, already run on PostgreSQL in the server project
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useFleet } from './fleet-fixture.ts';
import { expectRecovered, fleetSettings } from './fleet-scenario.ts';
import { apiCaller, type TokenSet } from './harness.ts';
import { eventually, registerWebhook } from './play-fixtures.ts';
import { openTab, type Tab } from './reconnecting-tab.ts';
import { RETRY_ONCE_IN_CI, type ServiceProcess, sessionToken, setUpWalletGame } from './service-process.ts';
import { startTestOperator } from './test-operator.ts';

/**
 * The upgrade procedure of docs/operating.md ("Upgrading", issue 36), as an operator runs it: two
 * instances on one PostgreSQL database behind HAProxy (deploy/haproxy.cfg), players playing without
 * pause, each instance stopped with SIGTERM in turn and started again on its address. Every request
 * is answered (with its round, or SERVICE_STOPPING while its instance stops), each page reconnects on
 * its own and carries on, every round ends, no bet is sent or applied twice, every wallet reconciles
 * and every event is delivered (fleet-scenario.ts expectRecovered). Both builds are one generation,
 * so neither new instance waits; the stopped ones' heartbeats are gone.
 */
const API_KEY = 'rsp_rolling-restart-api-key-0123456789';
const PLAYERS = 16;

const fleet = useFleet({ operator: () => startTestOperator(), settings: fleetSettings(API_KEY) });

interface Play {
  /** Rounds a buy answered open. */
  opened: string[];
  /** Requests that got no answer: their connection dropped first, or 45 s passed. */
  unanswered: string[];
  /** Refusals other than a stop's or a round already open. */
  unexpected: string[];
  stopping: number;
}

/** Until the connection the tab had when it was refused has dropped and the tab is connected again. */
async function reconnected(tab: Tab, dropsBefore: number): Promise<void> {
  await eventually(() => tab.drops.length > dropsBefore && tab.socket.connected);
}

/** Reveals the round the tab's player has open, if any (as the page does when it comes back). */
async function revealOpen(tab: Tab): Promise<void> {
  const state = await tab.ask('state');
  const open = state?.ok ? state.data.openRound : null;
  if (open?.status === 'open') await tab.ask('reveal', { roundId: open.roundId });
}

/** A player who buys and reveals without pause until `playing()` is false, as a page would. */
async function playOn(tab: Tab, playing: () => boolean, play: Play): Promise<void> {
  const refused = async (what: string, answer: any, drops: number) => {
    if (answer === 'lost' || answer === 'unanswered') {
      play.unanswered.push(`${what} ${answer}`);
      await reconnected(tab, drops);
    } else if (answer.error.code === 'SERVICE_STOPPING') {
      // "The game is restarting": the page waits for its socket to come back through HAProxy.
      play.stopping++;
      await reconnected(tab, drops);
    } else if (answer.error.code === 'ROUND_IN_PROGRESS') await revealOpen(tab);
    else play.unexpected.push(`${what} ${answer.error.code}`);
  };
  while (playing()) {
    const drops = tab.drops.length;
    const bought = await tab.ask('buy');
    if (bought === 'lost' || bought === 'unanswered' || !bought.ok) {
      await refused('buy', bought, drops);
      continue;
    }
    play.opened.push(bought.data.round.roundId);
    const revealed = await tab.ask('reveal', { roundId: bought.data.round.roundId });
    if (revealed === 'lost' || revealed === 'unanswered' || !revealed.ok)
      await refused('reveal', revealed, drops);
  }
}

async function heartbeats(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (
      (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM instance_heartbeats')).rows[0]?.n ??
      -1
    );
  } finally {
    await client.end();
  }
}

describe('a rolling restart of two instances behind HAProxy under play', RETRY_ONCE_IN_CI, () => {
  it('answers every request, reconnects every page, ends every round and reconciles every wallet', async () => {
    const { instances, operator } = fleet;
    await fleet.start();
    await fleet.start();
    const balancer = await fleet.balance(instances as [ServiceProcess, ServiceProcess]);
    const call = apiCaller(balancer.url);
    const tokens: TokenSet = (await call('POST', '/v1/auth/login', { body: { apiKey: API_KEY } })).body.data;
    const game = await setUpWalletGame(call, tokens, operator, {
      gameModel: 'frevo-da-sorte',
      prizedPercent: 0.5,
    });
    const webhookId = await registerWebhook(call, tokens, operator.webhookUrl);
    const tabs: Tab[] = [];
    for (let i = 0; i < PLAYERS; i++)
      tabs.push(await openTab(balancer.url, await sessionToken(call, tokens, game, `player-${i}`)));

    const play: Play = { opened: [], unanswered: [], unexpected: [], stopping: 0 };
    let playing = true;
    const players = tabs.map((tab) => playOn(tab, () => playing, play));
    await eventually(() => play.opened.length >= PLAYERS);

    // One instance at a time: SIGTERM, then the new build (here the same one) where HAProxy expects it.
    for (const stopped of instances.slice(0, 2)) {
      expect(await stopped.stop()).toBe(0);
      expect(stopped.errors()).toEqual([]);
      await fleet.start({ PORT: new URL(stopped.url).port });
      // Play goes on through the fleet before the next instance stops.
      const before = play.opened.length;
      await eventually(() => play.opened.length >= before + PLAYERS);
    }
    playing = false;
    await Promise.all(players);

    expect(play.unanswered).toEqual([]);
    expect(play.unexpected).toEqual([]);
    // Every page lost its connection once or more (both instances stopped) and came back by itself.
    for (const tab of tabs) expect(tab.drops.length).toBeGreaterThan(0);
    await eventually(() => tabs.every((tab) => tab.socket.connected));
    for (const tab of tabs) await revealOpen(tab);
    for (const tab of tabs) tab.socket.close();

    const { rounds } = await expectRecovered({ call }, operator, {
      tokens,
      profileId: game.profileId,
      webhookId,
      players: PLAYERS,
    });
    // Every round a buy answered open ended closed: none lost, and one bet each (expectRecovered).
    const closed = new Set(rounds.filter((round) => round.status === 'closed').map((round) => round._id));
    expect(play.opened.filter((id) => !closed.has(id))).toEqual([]);
    // The stopped instances took their heartbeats with them: only the two running ones are left.
    expect(await heartbeats(fleet.database.url)).toBe(2);
    for (const instance of instances.slice(2)) {
      expect(await instance.stop()).toBe(0);
      expect(instance.errors()).toEqual([]);
    }
    console.log(
      `rolling restart: ${play.opened.length} rounds, ${play.stopping} requests answered SERVICE_STOPPING`,
    );
  }, 240_000);
});
