// postgres-only: instances on the cluster, already run on PostgreSQL in the server project
import { describe, expect, it } from 'vitest';
import { useFleet } from './fleet-fixture.ts';
import { fleetSettings, listAll, playThroughAKill, startHangingOperator } from './fleet-scenario.ts';
import { apiCaller } from './harness.ts';
import { RETRY_ONCE_IN_CI, type ServiceProcess } from './service-process.ts';

/**
 * Many machines (issue 13): fleet-scenario.ts with three instances on one PostgreSQL database
 * behind HAProxy (deploy/haproxy.cfg, round-robin, no sticky sessions),
 * 200 players. One instance is killed with SIGKILL mid-burst and started again on its address;
 * its leases expire and the others finish its work. Beyond the scenario's checks: the pool counted
 * exactly one draw per round that opened (so no ticket was drawn twice or lost), and the webhook's
 * counters equal its delivery log.
 */
const API_KEY = 'rsp_instances-faults-api-key-0123456789';
const INSTANCES = 3;

const fleet = useFleet({ operator: startHangingOperator, settings: fleetSettings(API_KEY) });

describe(
  'three instances on one PostgreSQL database behind HAProxy, one killed mid-burst',
  RETRY_ONCE_IN_CI,
  () => {
    it('ends every round, keeps the balances, delivers every event as logged and draws each ticket once', async () => {
      // The first instance sets the empty database up (migrations, the demo client); then the others.
      const { instances } = fleet;
      await fleet.start();
      for (let i = 1; i < INSTANCES; i++) await fleet.start();
      const balancer = await fleet.balance(instances as [ServiceProcess, ServiceProcess, ServiceProcess]);
      const call = apiCaller(balancer.url);
      const killedPort = String(new URL(instances[0]?.url ?? '').port);

      const outcome = await playThroughAKill(
        {
          url: balancer.url,
          call,
          apiKey: API_KEY,
          killOne: () => instances[0]?.child.kill('SIGKILL'),
          errors: () => instances.flatMap((instance) => instance.errors()),
          // Started again where HAProxy expects it; its health check lets it back in.
          async replaced() {
            await fleet.start({ PORT: killedPort });
          },
        },
        fleet.operator,
        { players: 200, twoTabPlayers: 40, roundsEach: 3 },
      );

      // Tabs of one player on two live instances were both pushed to (NOTIFY through PostgreSQL).
      expect(outcome.pushedOnBothTabs).toBeGreaterThan(0);

      // Each round that opened drew one ticket, and the pool counted each draw once: with the
      // database's one round per (pool, draw index), no ticket was drawn twice or lost, whichever
      // instance drew it.
      const pools = (await call('GET', `/v1/game/${outcome.gameId}/pools`, { token: outcome.tokens })).body
        .data;
      expect(pools).toHaveLength(1);
      expect(pools[0].draws).toBe(outcome.rounds.filter((round) => round.status === 'closed').length);

      // The webhook's counters equal its delivery log.
      const webhooks = (await call('GET', '/v1/webhook', { token: outcome.tokens })).body.data;
      const webhook = webhooks.find((each: { id: string }) => each.id === outcome.webhookId);
      const log = await listAll({ call }, outcome.tokens, `/v1/webhook/${outcome.webhookId}`);
      expect(webhook.successCount).toBe(log.filter((row) => row.success).length);
      expect(webhook.failureCount).toBe(log.filter((row) => !row.success).length);

      for (const instance of instances.slice(1)) expect(await instance.stop()).toBe(0);
    }, 600_000);
  },
);
