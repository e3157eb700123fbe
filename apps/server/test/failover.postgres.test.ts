// postgres-only: a primary and its standby of its own, already run on PostgreSQL in the server project
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../src/store/postgres/database.ts';
import { expectPlayedRoundsClosed, fleetSettings, setUpPlayedGame } from './fleet-scenario.ts';
import { apiCaller } from './harness.ts';
import { createInstallation } from './installation.ts';
import { eventually } from './play-fixtures.ts';
import { type ReplicatedCluster, startOwnCluster, startStandby } from './postgres-cluster.ts';
import { mergedPlay, newPlay, openTab, type Play, playOn, revealOpen, type Tab } from './reconnecting-tab.ts';
import {
  RETRY_ONCE_IN_CI,
  type ServiceProcess,
  sessionToken,
  startServiceProcess,
} from './service-process.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * A failover (docs/operating.md, "Failover", issue 36): a primary and a streaming standby with
 * synchronous replication, two instances whose DATABASE_URL names both with
 * target_session_attrs=read-write, players playing without pause. The primary dies at once
 * (`pg_ctl stop -m immediate`), the standby is promoted, and the instances carry on against it
 * without a restart: every request is answered (a refusal while no server takes writes), every
 * round a buy answered open is on the new primary and ends, and every wallet reconciles.
 */
const API_KEY = 'rsp_failover-api-key-0123456789abcdef';
const PLAYERS = 8;
/** What a player may be told while no server takes writes: the page says so and the player retries. */
const DURING_THE_FAILOVER = ['INTERNAL_ERROR'];

let primary: ReplicatedCluster;
let standby: ReplicatedCluster;
let operator: TestOperator;
let installation: ReturnType<typeof createInstallation>;
let databaseUrl: string;
const instances: ServiceProcess[] = [];

beforeAll(async () => {
  // The standby's flush confirms each commit: an answered unit is on both servers (§6).
  primary = await startOwnCluster(['synchronous_standby_names=standby']);
  standby = await startStandby(primary, 'standby');
  operator = await startTestOperator();
  const servers = [primary, standby].map((cluster) => `127.0.0.1:${cluster.port}`);
  databaseUrl = `postgres://postgres@${servers.join(',')}/postgres?target_session_attrs=read-write`;
  installation = createInstallation(databaseUrl, fleetSettings(API_KEY));
}, 120_000);

afterAll(async () => {
  for (const instance of instances) if (instance.child.exitCode === null) instance.child.kill('SIGKILL');
  await operator?.close();
  await standby?.stop();
  await primary?.stop();
  installation?.removeFolders();
}, 60_000);

async function syncState(cluster: ReplicatedCluster): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ sync_state: string }>('SELECT sync_state FROM pg_stat_replication');
    return rows[0]?.sync_state;
  } finally {
    await client.end();
  }
}

describe('a PostgreSQL failover under play', RETRY_ONCE_IN_CI, () => {
  it('carries on against the promoted standby: every answered round there and ended, every wallet reconciled', async () => {
    instances.push(await startServiceProcess(installation.env()));
    instances.push(await startServiceProcess(installation.env()));
    const [first, second] = instances as [ServiceProcess, ServiceProcess];
    const call = apiCaller(first.url);
    const played = await setUpPlayedGame(call, API_KEY, operator);
    const { tokens, game } = played;
    const tabs: Tab[] = [];
    for (let i = 0; i < PLAYERS; i++) {
      const token = await sessionToken(call, tokens, game, `player-${i}`);
      tabs.push(await openTab((i % 2 === 0 ? first : second).url, token));
    }

    // What each instance's pages met, apart: both must carry on.
    const plays = [newPlay(), newPlay()] as const;
    let playing = true;
    const players = tabs.map((tab, i) =>
      playOn(tab, () => playing, plays[i % 2] as Play, DURING_THE_FAILOVER),
    );
    const opened = () => plays.map((play) => play.opened.length);
    await eventually(() => opened().every((count) => count >= PLAYERS / 2));

    // The standby confirms each commit before it is answered (synchronous, not merely streaming).
    expect(await syncState(primary)).toBe('sync');
    const before = opened();
    primary.kill();
    standby.promote();
    console.log(`failover: the standby took over after ${before.join(' + ')} rounds`);
    // Play goes on against the new primary on each instance, neither restarted: every page of each
    // opens at least one more round.
    await eventually(() => opened().every((count, i) => count >= (before[i] ?? 0) + PLAYERS), 120_000);
    playing = false;
    await Promise.all(players);
    const play = mergedPlay(plays);
    // A read-only tool's pool (verify-pool, simulate) on the same URL reads the new primary.
    const tool = createPool(databaseUrl, { readonly: true, max: 1 });
    try {
      const { rows } = await tool.query<{ n: number }>('SELECT count(*)::int AS n FROM rounds');
      expect(rows[0]?.n).toBeGreaterThanOrEqual(play.opened.length);
    } finally {
      await tool.end();
    }
    // No page lost its connection: the instances never stopped.
    expect(tabs.flatMap((tab) => tab.drops)).toEqual([]);
    for (const tab of tabs) await revealOpen(tab);
    for (const tab of tabs) tab.socket.close();

    expect(play.unanswered).toEqual([]);
    expect(play.lostOnTheWire).toEqual([]);
    expect(play.unexpected).toEqual([]);
    // Every round a buy answered open is on the new primary, and closed.
    await expectPlayedRoundsClosed({ call: apiCaller(second.url) }, operator, {
      ...played,
      players: PLAYERS,
      opened: play.opened,
    });
    for (const instance of instances) expect(instance.child.exitCode).toBeNull();
    for (const instance of instances) expect(await instance.stop()).toBe(0);
    console.log(
      `failover: ${play.opened.length} rounds, refused while no server took writes: ${JSON.stringify(play.refused)}`,
    );
  }, 300_000);
});
