import { randomUUID } from 'node:crypto';
import { type Answer, apiCaller, type TokenSet } from '../../test/harness.ts';

export interface OperatorAddress {
  walletUrl: string;
  webhookUrl: string;
  walletSecret: string;
}

/** Runs `task` over `items` with at most `limit` at a time. */
export async function inBatches<T, R>(
  items: T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += limit) {
    results.push(...(await Promise.all(items.slice(i, i + limit).map(task))));
  }
  return results;
}

/**
 * What an integrator does before players come: an operator profile on the bench operator's wallet,
 * a webhook for both events, a game, and a session per player. Returns the sessions' tokens.
 */
export interface PlaySetUp {
  tokens: TokenSet;
  /** The gameUrl token of each player's session. */
  sessions: string[];
}

export async function setUpPlayers(
  url: string,
  apiKey: string,
  operator: OperatorAddress,
  players: number,
  withWebhook = true,
  /** The webhook receives batches (docs/webhooks.md, "Batches"). */
  batchWebhook = false,
): Promise<PlaySetUp> {
  const call = apiCaller(url);
  const accepted = async (answer: Promise<Answer>, status: number) => {
    const { status: got, body } = await answer;
    if (got !== status) throw new Error(`set-up failed (${got}): ${JSON.stringify(body)}`);
    return body.data;
  };
  const tokens: TokenSet = await accepted(call('POST', '/v1/auth/login', { body: { apiKey } }), 200);
  const { profileId } = await accepted(
    call('POST', '/v1/profile', {
      token: tokens,
      body: {
        name: 'Bench casino',
        type: 'operator',
        currency: 'BRL',
        walletUrl: operator.walletUrl,
        walletSignatureToken: operator.walletSecret,
      },
    }),
    201,
  );
  if (withWebhook)
    await accepted(
      call('POST', '/v1/webhook', {
        token: tokens,
        body: {
          url: operator.webhookUrl,
          eventTriggers: ['open-round', 'close-round'],
          signatureToken: randomUUID(),
          ...(batchWebhook && { delivery: { mode: 'batch' } }),
        },
      }),
      201,
    );
  const game = await accepted(
    call('POST', '/v1/game', {
      token: tokens,
      body: {
        profileId,
        gameModel: 'oxe-ganhei',
        lang: 'en',
        currency: 'BRL',
        rtp: 0.9,
        sampling: 1_000_001,
        prizedPercent: 0.5,
        betPrice: 2,
        simulation: false,
        replacePreviousVersion: true,
      },
    }),
    201,
  );
  const credentials = Array.from({ length: players }, (_, i) => `bench-player-${i}`);
  const sessions = await inBatches(credentials, 20, async (credential) => {
    const user = await accepted(
      call('POST', '/v1/user/auth', {
        token: tokens,
        body: { profileId, credential, credentialType: 'username' },
      }),
      200,
    );
    const session = await accepted(
      call('POST', '/v1/game/session', {
        token: tokens,
        body: { userToken: user.userToken, gameId: game.id },
      }),
      201,
    );
    return new URL(session.gameUrl).searchParams.get('token') ?? '';
  });
  return { tokens, sessions };
}
