import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_INTEGRATION, startTestServer, type TestServer, type TokenSet } from './harness.ts';
import { connectPlayer, type Player } from './play-fixtures.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * docs/contract.md §3: a profile's wallet may hold several currencies; a game's currency is the currency of
 * its bets and prizes in the wallet calls, and one player may play games of several of them.
 */

let server: TestServer;
let operator: TestOperator;
const sockets: Player[] = [];

beforeAll(async () => {
  operator = await startTestOperator();
  server = await startTestServer({
    env: LOCAL_INTEGRATION,
    play: { walletTimeoutMs: 2000, tickMs: 600_000 },
  });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.close();
  await operator?.close();
});

async function profileWithGames(tokens: TokenSet, profile: Record<string, unknown>) {
  const created = await server.call('POST', '/v1/profile', {
    token: tokens,
    body: { name: 'Two currencies', currencies: ['BRL', 'USD'], ...profile },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const profileId: string = created.body.data.profileId;
  const games: Record<string, string> = {};
  // One active version per (profile, model): each currency gets its own model.
  for (const [currency, gameModel] of [
    ['BRL', 'oxe-ganhei'],
    ['USD', 'fera-sortuda'],
  ] as const) {
    const game = await server.call('POST', '/v1/game', {
      token: tokens,
      body: {
        profileId,
        gameModel,
        lang: 'en',
        currency,
        rtp: 0.9,
        sampling: 100_001,
        prizedPercent: 1,
        betPrice: currency === 'BRL' ? 2 : 0.5,
        simulation: false,
        replacePreviousVersion: true,
      },
    });
    if (game.status !== 201) throw new Error(JSON.stringify(game.body));
    games[currency] = game.body.data.id;
  }
  return { profileId, games };
}

/** One player, one session per game; plays a winning round in each and returns what it saw. */
async function playBoth(tokens: TokenSet, profileId: string, games: Record<string, string>) {
  const user = await server.call('POST', '/v1/user/auth', {
    token: tokens,
    body: { profileId, credential: 'maria', credentialType: 'username' },
  });
  const userId: string = user.body.data.userId;
  const seen: Record<string, { start: number; price: number; prize: number; end: number }> = {};
  for (const currency of ['BRL', 'USD']) {
    const session = await server.call('POST', '/v1/game/session', {
      token: tokens,
      body: { userToken: user.body.data.userToken, gameId: games[currency] },
    });
    const token = new URL(session.body.data.gameUrl).searchParams.get('token') ?? '';
    const player = await connectPlayer(server.url, token);
    sockets.push(player);
    const state = await player.ask('state');
    if (!state.ok) throw new Error(JSON.stringify(state));
    expect(state.data.game.currency).toBe(currency);
    const bought = await player.ask('buy');
    if (!bought.ok) throw new Error(JSON.stringify(bought));
    const revealed = await player.ask('reveal', { roundId: bought.data.round.roundId });
    if (!revealed.ok) throw new Error(JSON.stringify(revealed));
    seen[currency] = {
      start: state.data.player.balance,
      price: state.data.game.price,
      prize: bought.data.round.prize,
      end: revealed.data.balance,
    };
  }
  return { userId, seen };
}

describe('one player, games of two currencies of one profile', () => {
  it('against an HTTP wallet: every wallet call carries the game’s currency, balances kept apart', async () => {
    const { tokens } = await server.newClient();
    const { profileId, games } = await profileWithGames(tokens, {
      type: 'operator',
      walletUrl: operator.walletUrl,
      walletSignatureToken: operator.walletSecret,
    });
    const { userId, seen } = await playBoth(tokens, profileId, games);

    const calls = operator.calls.filter((call) => call.body.userId === userId);
    expect(calls.map((call) => call.kind)).toEqual(['balance', 'bet', 'prize', 'balance', 'bet', 'prize']);
    for (const call of calls) {
      const currency = call.body.sessionId === calls[0]?.body.sessionId ? 'BRL' : 'USD';
      expect(call.body.currency, `${call.kind} of the ${currency} game`).toBe(currency);
      if (call.kind !== 'balance') expect(call.body.gameId).toBe(games[currency]);
    }
    for (const currency of ['BRL', 'USD']) {
      const round = seen[currency];
      if (!round) throw new Error(`no ${currency} round`);
      expect(round.start).toBe(100_000);
      expect(round.end).toBe(100_000 - round.price + round.prize);
      expect(operator.balanceOf('maria', currency)).toBe(round.end);
    }

    const users = await server.call('GET', `/v1/user?profileId=${profileId}`, { token: tokens });
    expect(users.body.data[0]).toMatchObject({
      balance: (seen.BRL?.end ?? 0) / 100,
      balances: { BRL: (seen.BRL?.end ?? 0) / 100, USD: (seen.USD?.end ?? 0) / 100 },
      totalBets: 2,
      betWins: 2,
    });
    const transactions = await server.call('GET', `/v1/transaction?userId=${userId}`, { token: tokens });
    expect(
      transactions.body.data.map((t: any) => [t.type, t.currency, t.amount, t.status]).reverse(),
    ).toEqual([
      ['bet', 'BRL', -2, 'completed'],
      ['prize', 'BRL', (seen.BRL?.prize ?? 0) / 100, 'completed'],
      ['bet', 'USD', -0.5, 'completed'],
      ['prize', 'USD', (seen.USD?.prize ?? 0) / 100, 'completed'],
    ]);
    // The round payload's player balance is in the round's own currency.
    const rounds = await server.call('GET', `/v1/round?userId=${userId}`, { token: tokens });
    for (const round of rounds.body.data) {
      const currency = round.transactions[0].currency as 'BRL' | 'USD';
      expect(round.user.balance).toBe((seen[currency]?.end ?? 0) / 100);
    }
  });

  it('against the demo wallet: one account per currency, each debited and credited in its own', async () => {
    const { tokens } = await server.newClient();
    const { profileId, games } = await profileWithGames(tokens, { type: 'demo' });
    const { userId, seen } = await playBoth(tokens, profileId, games);
    for (const currency of ['BRL', 'USD']) {
      const round = seen[currency];
      if (!round) throw new Error(`no ${currency} round`);
      expect(round.start).toBe(100_000);
      expect(round.end).toBe(100_000 - round.price + round.prize);
      expect(await server.deps.store.demoWallet.findBalance(userId, currency)).toBe(round.end);
    }
    const users = await server.call('GET', `/v1/user?profileId=${profileId}`, { token: tokens });
    expect(users.body.data[0].balances).toEqual({
      BRL: (seen.BRL?.end ?? 0) / 100,
      USD: (seen.USD?.end ?? 0) / 100,
    });
  });
});
