import { randomUUID } from 'node:crypto';
import type { Ack } from '@raspa/core';
import { io, type Socket } from 'socket.io-client';
import type { Caller, TestServer, TokenSet } from './harness.ts';
import type { TestOperator } from './test-operator.ts';

export interface GameSetup {
  tokens: TokenSet;
  profileId: string;
  gameId: string;
  webhookId: string;
}

/**
 * An operator profile wired to the test operator's wallet and webhook receiver, with one active game,
 * for a new API client or the one of `client` (its token set).
 */
export async function setUpOperatorGame(
  server: TestServer,
  operator: TestOperator,
  game: {
    prizedPercent?: number;
    sampling?: number;
    betPrice?: number;
    gameModel?: string;
    /** A test profile's game (docs/certification.md); default operator. */
    profileType?: 'operator' | 'test';
  } = {},
  client?: TokenSet,
): Promise<GameSetup> {
  const tokens = client ?? (await server.newClient()).tokens;
  const profile = await server.call('POST', '/v1/profile', {
    token: tokens,
    body: {
      name: 'Test casino',
      type: game.profileType ?? 'operator',
      currency: 'BRL',
      walletUrl: operator.walletUrl,
      walletSignatureToken: operator.walletSecret,
    },
  });
  if (profile.status !== 201) throw new Error(JSON.stringify(profile.body));
  const profileId = profile.body.data.profileId;
  const webhookId = await registerWebhook(server.call, tokens, operator.webhookUrl);
  const created = await server.call('POST', '/v1/game', {
    token: tokens,
    body: {
      profileId,
      gameModel: game.gameModel ?? 'oxe-ganhei',
      lang: 'en',
      currency: 'BRL',
      rtp: 0.9,
      sampling: game.sampling ?? 100_001,
      prizedPercent: game.prizedPercent ?? 0.5,
      betPrice: game.betPrice ?? 2,
      simulation: false,
      replacePreviousVersion: true,
    },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return { tokens, profileId, gameId: created.body.data.id, webhookId };
}

/** A webhook at `url` for both events (single deliveries unless `delivery` says), through the API; its id. */
export async function registerWebhook(
  call: Caller,
  tokens: TokenSet,
  url: string,
  delivery?: { mode: 'single' | 'batch'; maxEvents?: number; maxWaitMs?: number },
): Promise<string> {
  const webhook = await call('POST', '/v1/webhook', {
    token: tokens,
    body: {
      url,
      eventTriggers: ['open-round', 'close-round'],
      signatureToken: randomUUID(),
      ...(delivery && { delivery }),
    },
  });
  if (webhook.status !== 201) throw new Error(JSON.stringify(webhook.body));
  return webhook.body.data.webhookId;
}

/** A player of the game with a session (its language and way back, if given): its ids, gameUrl and token. */
export async function seatPlayer(
  server: Pick<TestServer, 'call'>,
  setup: Pick<GameSetup, 'tokens' | 'profileId' | 'gameId'>,
  credential: string,
  options: { lang?: string; returnUrl?: string } = {},
): Promise<{ playerId: string; sessionId: string; gameUrl: string; token: string }> {
  const user = await server.call('POST', '/v1/user/auth', {
    token: setup.tokens,
    body: { profileId: setup.profileId, credential, credentialType: 'username' },
  });
  const session = await server.call('POST', '/v1/game/session', {
    token: setup.tokens,
    body: { userToken: user.body.data.userToken, gameId: setup.gameId, ...options },
  });
  if (session.status !== 201) throw new Error(JSON.stringify(session.body));
  const { gameUrl, sessionId } = session.body.data;
  return {
    playerId: user.body.data.userId,
    sessionId,
    gameUrl,
    token: new URL(gameUrl).searchParams.get('token') ?? '',
  };
}

export const newSession = async (server: TestServer, setup: GameSetup, credential: string): Promise<string> =>
  (await seatPlayer(server, setup, credential)).token;

export interface Player {
  socket: Socket;
  ask<T = any>(event: string, payload?: unknown): Promise<Ack<T>>;
  close(): void;
}

/** A real Socket.IO client on the play namespace. */
export async function connectPlayer(url: string, token: string): Promise<Player> {
  const socket = io(`${url}/play`, {
    auth: { token },
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return {
    socket,
    ask: (event, payload) =>
      new Promise((resolve) => {
        if (payload === undefined) socket.emit(event, resolve);
        else socket.emit(event, payload, resolve);
      }),
    close: () => socket.close(),
  };
}

/**
 * Waits until `check` holds (polling). `ms` is a ceiling against a hang, not a time the event must
 * meet: on a loaded 2-core CI machine, events a quiet machine sees in a second took tens.
 */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 60_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
