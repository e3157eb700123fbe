import { DEMO_GAME } from '../../src/demo/setup.ts';
import { type Answer, apiCaller, type TokenSet } from '../../test/harness.ts';

/**
 * N players, each with a game session on the demo profile's game (the built-in demo wallet), made
 * through the API as an integrator would: log in with the demo key, then per player POST
 * /v1/user/auth and POST /v1/game/session. Returns the session token of each gameUrl.
 */
export async function createDemoSessions(
  url: string,
  apiKey: string,
  count: number,
  options: { concurrency: number; onProgress?: (done: number) => void },
): Promise<string[]> {
  const call = apiCaller(url);
  const accepted = async (answer: Promise<Answer>, status: number) => {
    const { status: got, body } = await answer;
    if (got !== status) throw new Error(`set-up failed (${got}): ${JSON.stringify(body)}`);
    return body;
  };
  // The service creates the demo client just after it starts listening: retry for a few seconds.
  const { tokens, demo } = await untilReady(async () => {
    const tokens: TokenSet = (await accepted(call('POST', '/v1/auth/login', { body: { apiKey } }), 200)).data;
    const profiles: { profileId: string; type: string }[] = (
      await accepted(call('GET', '/v1/profile', { token: tokens }), 200)
    ).data;
    const demo = profiles.find((profile) => profile.type === 'demo');
    if (!demo) throw new Error('no demo profile: was the service started on an empty data directory?');
    return { tokens, demo };
  });

  const sessionFor = async (index: number): Promise<string> => {
    const user = await accepted(
      call('POST', '/v1/user/auth', {
        token: tokens,
        body: { profileId: demo.profileId, credential: `idle-player-${index}`, credentialType: 'username' },
      }),
      200,
    );
    const session = await accepted(
      call('POST', '/v1/game/session', {
        token: tokens,
        body: { userToken: user.data.userToken, profileId: demo.profileId, gameModel: DEMO_GAME.gameModel },
      }),
      201,
    );
    return new URL(session.data.gameUrl).searchParams.get('token') ?? '';
  };

  // A fixed number of workers taking the next index: bounded, and no idle gaps between batches.
  const sessions = new Array<string>(count);
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let index = next++; index < count; index = next++) {
      sessions[index] = await sessionFor(index);
      if (++done % 500 === 0 || done === count) options.onProgress?.(done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, count) }, worker));
  return sessions;
}

async function untilReady<T>(attempt: () => Promise<T>, limitMs = 15_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
