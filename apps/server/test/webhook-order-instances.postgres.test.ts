// postgres-only: instances on the cluster, already run on PostgreSQL in the server project
import { beforeAll, expect, it } from 'vitest';
import { useFleet } from './fleet-fixture.ts';
import { expectOpenBeforeClose, fleetSettings, listAll, startHangingOperator } from './fleet-scenario.ts';
import type { TokenSet } from './harness.ts';
import { connectPlayer, eventually, registerWebhook } from './play-fixtures.ts';
import { type ServiceProcess, sessionToken, setUpWalletGame } from './service-process.ts';

/**
 * Issue 22 item 1, as it was found: two instances on one PostgreSQL database, 40 players spread
 * over both, and a wallet that leaves some bets and prizes unanswered after applying them. Events
 * commit out of seq order there (webhook-commit-order.postgres.test.ts shows how, step by step);
 * whatever the order, each round's close-round must reach the receiver only after its open-round
 * was accepted. Bounded: 40 players × 6 rounds, on 127.0.0.1.
 */
const API_KEY = 'rsp_webhook-order-api-key-0123456789';
const PLAYERS = 40;
const ROUNDS_EACH = 6;

// Every 7th bet or prize is left unanswered: the bet is rolled back, the prize sent again by the
// retrier, each in units of their own beside the players' rounds.
const fleet = useFleet({ operator: startHangingOperator, settings: fleetSettings(API_KEY) });
const { instances } = fleet;
beforeAll(async () => {
  // The first instance sets the empty database up (migrations, the demo client); then the other.
  await fleet.start();
  await fleet.start();
}, 120_000);

it('sends each round’s close-round after its open-round was accepted, with two instances and wallet faults', async () => {
  const [first, second] = instances as [ServiceProcess, ServiceProcess];
  const { call } = first;
  const tokens: TokenSet = (await call('POST', '/v1/auth/login', { body: { apiKey: API_KEY } })).body.data;
  const game = await setUpWalletGame(call, tokens, fleet.operator, {
    gameModel: 'frevo-da-sorte',
    prizedPercent: 0.5,
  });
  await registerWebhook(call, tokens, fleet.operator.webhookUrl);

  const sessions: string[] = [];
  for (let i = 0; i < PLAYERS; i += 10) {
    const batch = Array.from({ length: 10 }, (_, j) => sessionToken(call, tokens, game, `player-${i + j}`));
    sessions.push(...(await Promise.all(batch)));
  }
  // Every other player on the second instance: both write rounds and both drain the queue in turn.
  const players = await Promise.all(
    sessions.map((token, i) => connectPlayer((i % 2 === 0 ? first : second).url, token)),
  );
  await Promise.all(
    players.map(async (player) => {
      for (let i = 0; i < ROUNDS_EACH; i++) {
        const bought = await player.ask('buy');
        if (bought.ok) await player.ask('reveal', { roundId: bought.data.round.roundId });
      }
    }),
  );
  for (const player of players) player.close();

  // Every round ends (a hung prize is sent again by the retrier), and each that opened has its
  // open-round and close-round accepted.
  const rounds = await eventually(async () => {
    const list = await listAll({ call }, tokens, `/v1/round?profileId=${game.profileId}`);
    return list.every((round) => ['closed', 'declined', 'voided'].includes(round.status)) && list;
  }, 120_000);
  const opened = rounds.filter((round) => round.status === 'closed');
  expect(opened.length).toBeGreaterThan(PLAYERS * 3);
  const accepted = (event: string, roundId: string) =>
    fleet.operator.events.some((e) => e.event === event && e.payload._id === roundId && e.status < 300);
  await eventually(
    () => opened.every((r) => accepted('open-round', r._id) && accepted('close-round', r._id)),
    60_000,
  );
  expectOpenBeforeClose(fleet.operator.events, opened);
  for (const instance of instances) expect(await instance.stop()).toBe(0);
}, 300_000);
