import type { Deps } from '../deps.ts';
import type { AuthContext } from '../services/auth-context.ts';
import type { GameInput } from '../services/game-service.ts';
import type { Services } from '../services/services.ts';

/** The demo profile's playable game, ready to open. */
export interface DemoGame {
  profileId: string;
  gameId: string;
  userId: string;
  sessionId: string;
  gameUrl: string;
  expireAt: string;
}

export interface DemoInfo {
  apiKey: string;
  email: string;
  password: string;
  game: DemoGame;
}

export const DEMO_EMAIL = 'demo@raspa.local';
export const DEMO_PLAYER = 'demo-player';

export const DEMO_GAME = {
  gameModel: 'oxe-ganhei',
  lang: 'pt',
  currency: 'BRL',
  rtp: 0.9,
  sampling: 1_000_000,
  prizedPercent: 0.3,
  betPrice: 2,
} as const satisfies Omit<GameInput, 'profileId' | 'simulation' | 'replacePreviousVersion'>;

/**
 * On an empty database: the demo API client (with DEMO_API_KEY as its key when set), so a newcomer
 * can log in at once, and a demo profile with an active game, a player and a session, so the
 * gameUrl can be opened at once. Returns what to print, or undefined when the database already
 * has clients.
 */
export async function setUpDemo(
  services: Services,
  deps: Pick<Deps, 'store' | 'logger' | 'random'>,
  demoApiKey: string | undefined,
): Promise<DemoInfo | undefined> {
  if ((await deps.store.clients.countClients()) > 0) return undefined;
  const password = deps.random(12).toString('base64url');
  let created: Awaited<ReturnType<Services['auth']['createClient']>>;
  try {
    created = await services.auth.createClient({
      name: 'Demo operator',
      email: DEMO_EMAIL,
      password,
      ...(demoApiKey && { apiKey: demoApiKey }),
    });
  } catch (error) {
    // Several instances started at once on one empty database: another one's demo client came
    // first (the e-mail and the key are unique), and that instance sets up the rest.
    // A count that fails too (the database gone) leaves the first error to tell what happened.
    if ((await deps.store.clients.countClients().catch(() => 0)) > 0) return undefined;
    throw error;
  }
  const { apiKey, client } = created;
  deps.logger.info('created the demo API client', { email: DEMO_EMAIL });
  const game = await setUpDemoGame(services, client.id);
  deps.logger.info('created the demo profile, game, player and session', {
    profileId: game.profileId,
    gameId: game.gameId,
  });
  return { apiKey, email: DEMO_EMAIL, password, game };
}

/** The same steps an integrator takes over HTTP, through the services. */
async function setUpDemoGame(services: Services, clientId: string): Promise<DemoGame> {
  const auth = await authAs(services, clientId);
  const profile = await services.profiles.create(auth, {
    name: 'Demo',
    type: 'demo',
    currency: DEMO_GAME.currency,
    allowedOrigins: [],
  });
  const { game } = await services.games.create(auth, {
    ...DEMO_GAME,
    profileId: profile.id,
    simulation: false,
    replacePreviousVersion: false,
  });
  if (game.id === null) throw new Error('the demo game was not stored');
  const login = await services.players.logIn(auth, {
    profileId: profile.id,
    credential: DEMO_PLAYER,
    credentialType: 'username',
  });
  const started = await services.sessions.start(auth, { userToken: login.userToken, gameId: game.id });
  return {
    profileId: profile.id,
    gameId: game.id,
    userId: login.player.id,
    sessionId: started.session.id,
    gameUrl: started.gameUrl,
    expireAt: started.expireAt,
  };
}

/** A real token set of the client, as a login would give, so the services see an ordinary caller. */
async function authAs(services: Services, clientId: string): Promise<AuthContext> {
  const { accessToken } = await services.auth.issueTokenSet(clientId);
  const auth = await services.auth.authenticate(accessToken);
  if (!auth) throw new Error('a token set issued just now did not authenticate');
  return auth;
}
