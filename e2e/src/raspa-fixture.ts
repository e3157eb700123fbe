import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { createPool, type GameModel, seedFromHex, ticketAt } from '@raspa/core';
import {
  LOCAL_INTEGRATION,
  startTestServer,
  type TestServer,
  type TokenSet,
} from '../../apps/server/test/harness.ts';
import { connectPlayer, type Player, seatPlayer } from '../../apps/server/test/play-fixtures.ts';
import { startTestOperator, type TestOperator } from '../../apps/server/test/test-operator.ts';
import { type OperatorPage, startOperatorPage } from './operator-page.ts';

export type Lang = 'pt' | 'en' | 'es';

/** A round as `GET /v1/round` lists it (money in major units). */
export interface ListedRound {
  _id: string;
  status: string;
  prize: number;
  paidPrice: number;
  transactions: Array<{ type: string; amount: number; status: string }>;
}
export type Outcome = 'win' | 'lose';

/** Everything a browser test plays against: a real server, a real operator (wallet + webhooks) and its page. */
export interface Raspa {
  server: TestServer;
  operator: TestOperator;
  host: OperatorPage;
  tokens: TokenSet;
  profileId: string;
  /** A new active game of `model` on the operator's profile (replacing any earlier version). */
  createGame(model: GameModel): Promise<string>;
  /** A player's session on a game: its gameUrl. */
  newSession(gameId: string, credential: string, lang?: Lang): Promise<string>;
  /**
   * A new active game of `model` on the client's `test` profile (docs/certification.md), made on
   * first use with the same wallet and page origin as the operator's profile: its sessions may be
   * forced with `POST /v1/test/next-cards`.
   */
  createTestGame(model: GameModel): Promise<{ gameId: string; profileId: string }>;
  /** A player's session on a game (of the operator's profile unless `profileId` says), with the ids a test needs. */
  seat(
    gameId: string,
    credential: string,
    options?: { lang?: Lang; returnUrl?: string; profileId?: string },
  ): Promise<Seat>;
  /** Changes the operator's profile (PUT /v1/profile/{id}): its jurisdiction, reality check… */
  setProfile(body: Record<string, unknown>): Promise<void>;
  /** Makes the game's next ticket a win or a loss, by burning tickets with another player. */
  steer(gameId: string, outcome: Outcome): Promise<number>;
  /** A round as the integrator API lists it. */
  round(roundId: string): Promise<ListedRound | undefined>;
  /** Cuts every open connection to the server (the page's socket included), as a network drop would. */
  dropConnections(): void;
  close(): Promise<void>;
}

export interface Seat {
  gameUrl: string;
  playerId: string;
  sessionId: string;
  /** The session token of the gameUrl, for a socket of the same session. */
  token: string;
}

export async function startRaspa(): Promise<Raspa> {
  const operator = await startTestOperator({ startCents: 100_000 });
  const server = await startTestServer({ env: LOCAL_INTEGRATION });
  const host = await startOperatorPage();
  const sockets = new Set<Socket>();
  server.running.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const { tokens } = await server.newClient('Casa Lotérica');
  async function newProfile(name: string, type: 'operator' | 'test'): Promise<string> {
    const profile = await server.call('POST', '/v1/profile', {
      token: tokens,
      body: {
        name,
        type,
        currency: 'BRL',
        walletUrl: operator.walletUrl,
        walletSignatureToken: operator.walletSecret,
        allowedOrigins: [host.origin],
      },
    });
    if (profile.status !== 201) throw new Error(JSON.stringify(profile.body));
    return profile.body.data.profileId;
  }
  const profileId = await newProfile('Casa Lotérica', 'operator');
  let testProfileId: Promise<string> | undefined;
  const webhook = await server.call('POST', '/v1/webhook', {
    token: tokens,
    body: {
      url: operator.webhookUrl,
      eventTriggers: ['open-round', 'close-round'],
      signatureToken: randomUUID(),
    },
  });
  if (webhook.status !== 201) throw new Error(JSON.stringify(webhook.body));
  const burners = new Map<string, Player>();

  const seat = (
    gameId: string,
    credential: string,
    { profileId: on = profileId, ...options }: { lang?: Lang; returnUrl?: string; profileId?: string } = {},
  ) => seatPlayer(server, { tokens, profileId: on, gameId }, credential, options);

  async function createGameOn(on: string, model: GameModel): Promise<string> {
    const created = await server.call('POST', '/v1/game', {
      token: tokens,
      body: {
        profileId: on,
        gameModel: model,
        lang: 'pt',
        currency: 'BRL',
        rtp: 0.9,
        sampling: 100_001,
        prizedPercent: 0.5,
        betPrice: 2,
        simulation: false,
        replacePreviousVersion: true,
      },
    });
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
    return created.body.data.id;
  }

  const newSession = async (gameId: string, credential: string, lang?: Lang): Promise<string> =>
    (await seat(gameId, credential, lang && { lang })).gameUrl;

  async function burn(gameId: string): Promise<void> {
    let burner = burners.get(gameId);
    if (!burner) {
      const gameUrl = await newSession(gameId, `burner-${gameId}`);
      burner = await connectPlayer(server.url, new URL(gameUrl).searchParams.get('token') ?? '');
      burners.set(gameId, burner);
    }
    const bought = await burner.ask('buy');
    if (!bought.ok) throw new Error(`burner could not buy: ${JSON.stringify(bought)}`);
    const revealed = await burner.ask('reveal', { roundId: bought.data.round.roundId });
    if (!revealed.ok) throw new Error(`burner could not reveal: ${JSON.stringify(revealed)}`);
  }

  /** The level of the game's next ticket, computed with the core from the pool's seed (as an auditor would). */
  async function nextLevel(gameId: string): Promise<number | undefined> {
    const { store, secrets } = server.deps;
    const [pool, game] = await Promise.all([store.pools.findCurrent(gameId), store.games.findById(gameId)]);
    if (!pool || !game) return undefined;
    const tickets = createPool(
      seedFromHex(secrets.open(pool.seedSealed)),
      pool.sampling,
      game.ladder.levels.map((level) => level.winners),
    );
    return ticketAt(tickets, pool.draws);
  }

  return {
    server,
    operator,
    host,
    tokens,
    profileId,
    createGame: (model) => createGameOn(profileId, model),
    async createTestGame(model) {
      testProfileId ??= newProfile('Laboratório de testes', 'test');
      const on = await testProfileId;
      return { gameId: await createGameOn(on, model), profileId: on };
    },
    newSession,
    seat,
    async setProfile(body) {
      const answer = await server.call('PUT', `/v1/profile/${profileId}`, { token: tokens, body });
      if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
    },
    async steer(gameId, outcome) {
      for (let burned = 0; burned < 60; burned++) {
        const level = await nextLevel(gameId);
        if (level !== undefined && (outcome === 'win') === level > 0) return level;
        await burn(gameId);
      }
      throw new Error(`could not steer game ${gameId} to a ${outcome}`);
    },
    async round(roundId) {
      const answer = await server.call('GET', `/v1/round?roundId=${encodeURIComponent(roundId)}`, {
        token: tokens,
      });
      return (answer.body as { data: ListedRound[] }).data[0];
    },
    dropConnections() {
      for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const burner of burners.values()) burner.close();
      await host.close();
      await server.close();
      await operator.close();
    },
  };
}

/** Waits until `check` holds (polling), or fails after `ms` (a bound for a loaded machine). */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 60_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
