// postgres-only: instances on the cluster behind HAProxy, already run on PostgreSQL in the server project
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useFleet } from './fleet-fixture.ts';
import { expectPlayedRoundsClosed, fleetSettings, setUpPlayedGame } from './fleet-scenario.ts';
import { apiCaller } from './harness.ts';
import { eventually } from './play-fixtures.ts';
import { newPlay, openTab, playOn, revealOpen, type Tab } from './reconnecting-tab.ts';
import { RETRY_ONCE_IN_CI, type ServiceProcess, sessionToken } from './service-process.ts';
import { startTestOperator } from './test-operator.ts';

/**
 * The upgrade procedure of docs/operating.md ("Upgrading", issue 36), as an operator runs it: two
 * instances on one PostgreSQL database behind HAProxy (deploy/haproxy.cfg), players playing without
 * pause; a new instance is started at HAProxy's spare address, then each old one is stopped with
 * SIGTERM in turn, the second once another new one has started where the first was. Every request
 * that reaches an instance is answered (with its round, or SERVICE_STOPPING while its instance
 * stops; Play.lostOnTheWire are those that did not), each page reconnects on
 * its own and carries on, every round ends, no bet is sent or applied twice, every wallet reconciles
 * and every event is delivered (fleet-scenario.ts expectRecovered). Both builds are one generation,
 * so neither new instance waits; the stopped ones' heartbeats are gone.
 */
const API_KEY = 'rsp_rolling-restart-api-key-0123456789';
const PLAYERS = 16;

// Behind one proxy (docs/operating.md): the rate limits see the players' addresses.
const fleet = useFleet({
  operator: () => startTestOperator(),
  settings: { ...fleetSettings(API_KEY), TRUST_PROXY: '1' },
});

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
  it('answers every request that reaches an instance, reconnects every page, ends every round and reconciles every wallet', async () => {
    const { instances, operator } = fleet;
    // Two instances of the old version and, at HAProxy's spare address, the first of the new one,
    // started beside them (the template database is migrated already: all three start at once).
    const [first, second, spare] = await Promise.all([fleet.start(), fleet.start(), fleet.start()]);
    const balancer = await fleet.balance([first, second, spare]);
    const call = apiCaller(balancer.url);
    const played = await setUpPlayedGame(call, API_KEY, operator);
    const { tokens, game } = played;
    // Sessions first, then the pages one after the other: HAProxy's round-robin spreads them over
    // the three instances (between API calls, each page would land on the same one).
    const tokensOf: string[] = [];
    for (let i = 0; i < PLAYERS; i++) tokensOf.push(await sessionToken(call, tokens, game, `player-${i}`));
    const tabs: Tab[] = [];
    for (const token of tokensOf) tabs.push(await openTab(balancer.url, token));

    const started = Date.now();
    const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
    const play = newPlay();
    let playing = true;
    const players = tabs.map((tab) => playOn(tab, () => playing, play));
    await eventually(() => play.opened.length >= PLAYERS);

    // One old instance at a time, with SIGTERM: the first once the new one beside it serves, the
    // second once another new one has started where the first was (as HAProxy expects it there).
    const stop = async (old: ServiceProcess) => {
      console.log(`rolling restart: stopping ${old.url} at ${elapsed()}, ${play.opened.length} rounds`);
      expect(await old.stop()).toBe(0);
      expect(old.errors()).toEqual([]);
      // Play goes on through the fleet before the next step.
      const before = play.opened.length;
      await eventually(() => play.opened.length >= before + PLAYERS);
    };
    await stop(first);
    await fleet.start({ PORT: new URL(first.url).port });
    console.log(`rolling restart: the second new instance serves at ${elapsed()}`);
    await stop(second);
    playing = false;
    await Promise.all(players);
    console.log(`rolling restart: both old instances stopped, play over at ${elapsed()}`);

    expect(play.unanswered).toEqual([]);
    expect(play.unexpected).toEqual([]);
    // The pages on the stopped instances lost their connection, closed by the instance (not timed
    // out), and came back by themselves through HAProxy, as every other page is connected.
    const dropped = tabs.filter((tab) => tab.drops.length > 0);
    expect(dropped.length).toBeGreaterThan(0);
    expect(new Set(dropped.flatMap((tab) => tab.drops))).toEqual(new Set(['transport close']));
    await eventually(() => tabs.every((tab) => tab.socket.connected));
    for (const tab of tabs) await revealOpen(tab);
    for (const tab of tabs) tab.socket.close();

    // Every round a buy answered open ended closed: none lost, and one bet each (expectRecovered).
    await expectPlayedRoundsClosed({ call }, operator, { ...played, players: PLAYERS, opened: play.opened });
    // The stopped instances took their heartbeats with them: only the two new ones are left.
    expect(await heartbeats(fleet.database.url)).toBe(2);
    for (const instance of [spare, ...instances.slice(3)]) {
      expect(await instance.stop()).toBe(0);
      expect(instance.errors()).toEqual([]);
    }
    console.log(
      `rolling restart: ${play.opened.length} rounds, ${dropped.length} of ${PLAYERS} pages reconnected, ${play.stopping} requests answered SERVICE_STOPPING, ${play.lostOnTheWire.length} sent as their socket closed, checked at ${elapsed()}`,
    );
  }, 240_000);
});
