// postgres-only: instances on the cluster, already run on PostgreSQL in the server project
import type { PlayRound } from '@raspa/core';
import { describe, expect, it } from 'vitest';
import { crossProcessMessages } from '../bench/kit/cross-process.ts';
import { useFleet } from './fleet-fixture.ts';
import type { TokenSet } from './harness.ts';
import { connectPlayer, eventually, type Player } from './play-fixtures.ts';
import { type ServiceProcess, sessionToken, setUpWalletGame } from './service-process.ts';
import { startTestOperator } from './test-operator.ts';

/**
 * Pushes only where the player is (issue 23): two instances on one PostgreSQL database behind
 * HAProxy (docs/operating.md's configuration, round-robin). A player's tabs on both instances get every
 * `balance` and `round` push, those of a reveal at one tab and those of the wallet retrier, which
 * runs away from any socket; a player with one tab costs no message between the instances per round.
 */
const API_KEY = 'rsp_instances-pushes-api-key-0123456789';
const START = 100_000;
const PRICE = 200;

const fleet = useFleet({
  operator: startTestOperator,
  settings: { DEMO_API_KEY: API_KEY, OUTBOUND_ALLOW_PRIVATE: 'true' }, // the test operator's wallet is on 127.0.0.1
});
const { instances } = fleet;

/** A tab through the load balancer, with every push it gets. */
interface Tab {
  player: Player;
  balances: number[];
  rounds: PlayRound[];
}
async function openTab(token: string): Promise<Tab> {
  const player = await connectPlayer(fleet.balancer.url, token);
  const tab: Tab = { player, balances: [], rounds: [] };
  player.socket.on('balance', ({ balance }: { balance: number }) => tab.balances.push(balance));
  player.socket.on('round', (round: PlayRound) => tab.rounds.push(round));
  return tab;
}

/** The messages of `kind` each instance has sent the others (its /metrics). */
const sent = (kind: 'push' | 'presence'): Promise<number[]> =>
  Promise.all(instances.map(async (instance) => (await crossProcessMessages([instance.url], 1))[kind]));

describe('pushes with two instances behind HAProxy', () => {
  let tokens: TokenSet;
  let game: { profileId: string; gameId: string };

  it('reach a player’s tabs on both instances, from a reveal at one tab and from the wallet retrier', async () => {
    const a = await fleet.start();
    const b = await fleet.start();
    // Round-robin over A, B, B: any three requests in a row reach both instances.
    await fleet.balance([a, b, b]);
    const call = instances[0]?.call as ServiceProcess['call'];
    tokens = (await call('POST', '/v1/auth/login', { body: { apiKey: API_KEY } })).body.data;
    // Every card wins, so every round pays a prize.
    game = await setUpWalletGame(call, tokens, fleet.operator, { gameModel: 'oxe-ganhei', prizedPercent: 1 });

    const token = await sessionToken(call, tokens, game, 'ana');
    const tabs: Tab[] = [];
    for (let i = 0; i < 3; i++) tabs.push(await openTab(token));
    // Each instance holds a tab: each announced the player, and the first tab's instance answered the
    // other's `here` (three messages). Only that answer says it knows of the other: the first tab buys.
    await eventually(async () => (await sent('presence')).reduce((a, b) => a + b, 0) >= 3);
    const [playing] = tabs as [Tab];

    // The buy at one tab: its balance reaches every tab.
    const bought = await playing.player.ask('buy');
    if (!bought.ok) throw new Error(`buy failed: ${JSON.stringify(bought)}`);
    const { round } = bought.data as { round: PlayRound & { prize: number } };
    await eventually(() => tabs.every((tab) => tab.balances.includes(START - PRICE)));

    // The reveal at one tab, its prize left unanswered: the round as it stands reaches every tab.
    fleet.operator.failNext('prize', 'http500');
    const revealed = await playing.player.ask('reveal', { roundId: round.roundId });
    expect(revealed).toMatchObject({ ok: true, data: { round: { status: 'closing', prizePending: true } } });
    await eventually(() =>
      tabs.every((tab) => tab.rounds.some((r) => r.roundId === round.roundId && r.prizePending)),
    );

    // The retrier pays it a second later, on whichever instance leased the call, away from any
    // socket: the paid balance and the closed round reach every tab.
    const paid = START - PRICE + round.prize;
    await eventually(() =>
      tabs.every(
        (tab) =>
          tab.balances.includes(paid) &&
          tab.rounds.some((r) => r.roundId === round.roundId && r.status === 'closed' && !r.prizePending),
      ),
    );
    expect(fleet.operator.balanceOf('ana')).toBe(paid);
    for (const tab of tabs) tab.player.close();
  }, 180_000);

  it('costs no message between the instances per round for a player with one tab', async () => {
    const call = instances[0]?.call as ServiceProcess['call'];
    const tab = await openTab(await sessionToken(call, tokens, game, 'bia'));
    const before = await sent('push');
    let balance = START;
    const closed: string[] = [];
    for (let i = 0; i < 5; i++) {
      const bought = await tab.player.ask('buy');
      if (!bought.ok) throw new Error(`buy failed: ${JSON.stringify(bought)}`);
      const { round } = bought.data as { round: PlayRound & { prize: number } };
      const revealed = await tab.player.ask('reveal', { roundId: round.roundId });
      expect(revealed).toMatchObject({ ok: true, data: { round: { status: 'closed' } } });
      balance += round.prize - PRICE;
      closed.push(round.roundId);
    }
    // Its pushes all reached it, none through PostgreSQL.
    await eventually(
      () =>
        tab.balances.at(-1) === balance &&
        closed.every((id) => tab.rounds.some((r) => r.roundId === id && r.status === 'closed')),
    );
    expect(await sent('push')).toEqual(before);
    // Stopped with the tab open: its instance's `gone` on the way out does not hold the stop up.
    for (const instance of instances) expect(await instance.stop()).toBe(0);
    tab.player.close();
  }, 120_000);
});
