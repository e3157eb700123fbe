import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, type OperatorServer } from '../../../examples/operator/operator.mjs';
import { LOCAL_INTEGRATION, startTestServer, type TestServer } from './harness.ts';
import { connectPlayer, eventually } from './play-fixtures.ts';

/** The service playing real rounds against the reference operator of examples/operator. */
let server: TestServer;
let operator: OperatorServer;
let operatorUrl: string;
const walletSecret = 'reference-wallet-secret-0123456789';
const webhookSecret = randomUUID();

beforeAll(async () => {
  server = await startTestServer({ env: LOCAL_INTEGRATION });
  operator = createOperator({
    walletSecret,
    webhookSecret,
    now: () => server.clock().getTime(),
    log: () => {},
  });
  await new Promise<void>((resolve) => operator.listen(0, '127.0.0.1', resolve));
  operatorUrl = `http://127.0.0.1:${(operator.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server.close();
  operator.closeAllConnections();
  await new Promise((resolve) => operator.close(resolve));
});

describe('the service against examples/operator', () => {
  it('plays rounds: the operator’s wallet moves the money and its receiver verifies both webhooks', async () => {
    const { tokens } = await server.newClient();
    const profileId = (
      await server.call('POST', '/v1/profile', {
        token: tokens,
        body: {
          name: 'Reference',
          type: 'operator',
          walletUrl: `${operatorUrl}/wallet`,
          walletSignatureToken: walletSecret,
        },
      })
    ).body.data.profileId;
    await server.call('POST', '/v1/webhook', {
      token: tokens,
      body: {
        url: `${operatorUrl}/webhooks/raspa`,
        eventTriggers: ['open-round', 'close-round'],
        signatureToken: webhookSecret,
      },
    });
    const game = await server.call('POST', '/v1/game', {
      token: tokens,
      body: {
        profileId,
        gameModel: 'bumba-meu-green',
        lang: 'es',
        currency: 'BRL',
        rtp: 0.9,
        sampling: 100_001,
        prizedPercent: 1,
        betPrice: 5,
        simulation: false,
        replacePreviousVersion: true,
      },
    });
    const user = await server.call('POST', '/v1/user/auth', {
      token: tokens,
      body: { profileId, credential: 'ana@example.com', credentialType: 'email' },
    });
    const session = await server.call('POST', '/v1/game/session', {
      token: tokens,
      body: { userToken: user.body.data.userToken, gameId: game.body.data.id },
    });
    const player = await connectPlayer(
      server.url,
      new URL(session.body.data.gameUrl).searchParams.get('token') ?? '',
    );
    const bought = await player.ask('buy');
    if (!bought.ok) throw new Error(JSON.stringify(bought));
    const revealed = await player.ask('reveal', { roundId: bought.data.round.roundId });
    if (!revealed.ok) throw new Error(JSON.stringify(revealed));
    player.close();
    expect(operator.operator.balanceOf('ana@example.com', 'BRL')).toBe(
      1000 - 5 + bought.data.round.prize / 100,
    );
    const events = await eventually(() => operator.operator.events.length === 2 && operator.operator.events);
    expect(events.map((event) => event.event)).toEqual(['open-round', 'close-round']);
    expect(events[1]?.payload).toMatchObject({
      _id: bought.data.round.roundId,
      status: 'closed',
      promotionId: null,
    });
    expect(events[0]?.payload).toMatchObject({ status: 'open', paidPrice: 5, promotionId: null });
  });
});
