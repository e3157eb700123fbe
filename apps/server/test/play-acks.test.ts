import { PLAY_ERRORS } from '@raspa/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_INTEGRATION, startTestServer, type TestServer } from './harness.ts';
import { connectPlayer, type GameSetup, type Player, setUpOperatorGame } from './play-fixtures.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

let server: TestServer;
let operator: TestOperator;
let game: GameSetup;
let players = 0;
const sockets: Player[] = [];

beforeAll(async () => {
  operator = await startTestOperator();
  server = await startTestServer({ env: LOCAL_INTEGRATION, play: { tickMs: 60_000 } });
  game = await setUpOperatorGame(server, operator);
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => {
  await server.close();
  await operator.close();
});

/** A player whose session is in Spanish, so the answers must come in Spanish. */
async function spanishPlayer() {
  const credential = `acks-${++players}`;
  const user = await server.call('POST', '/v1/user/auth', {
    token: game.tokens,
    body: { profileId: game.profileId, credential, credentialType: 'username' },
  });
  const session = await server.call('POST', '/v1/game/session', {
    token: game.tokens,
    body: { userToken: user.body.data.userToken, gameId: game.gameId, lang: 'es' },
  });
  const token = new URL(session.body.data.gameUrl).searchParams.get('token') ?? '';
  const player = await connectPlayer(server.url, token);
  sockets.push(player);
  return { ...player, credential, userId: user.body.data.userId as string };
}

/** Emits `args` as they are, with an acknowledgement last, and resolves with what it was called with. */
function emitCounting(player: Player, event: string, ...args: unknown[]) {
  const calls: unknown[] = [];
  return new Promise<unknown[]>((resolve) => {
    player.socket.emit(event, ...args, (answer: unknown) => {
      calls.push(answer);
      resolve(calls);
    });
  });
}

const invalidInSpanish = {
  ok: false,
  error: { code: 'INVALID_REQUEST', message: PLAY_ERRORS.INVALID_REQUEST.es },
};

/** Nothing was bought for the player: no round, no transaction, no wallet call. */
async function expectNothingChanged(player: Awaited<ReturnType<typeof spanishPlayer>>) {
  const state = await player.ask('state');
  expect(state).toMatchObject({ ok: true, data: { openRound: null, lang: 'es' } });
  const rounds = await server.call('GET', `/v1/round?userId=${player.userId}`, { token: game.tokens });
  expect(rounds.body.pagination.totalCount).toBe(0);
  const transactions = await server.call('GET', `/v1/transaction?userId=${player.userId}`, {
    token: game.tokens,
  });
  expect(transactions.body.pagination.totalCount).toBe(0);
  expect(
    operator.calls.filter((call) => call.body.credential === player.credential && call.kind !== 'balance'),
  ).toEqual([]);
}

describe('every play request with an acknowledgement gets exactly one answer', () => {
  it('reveal without a payload: INVALID_REQUEST in the player’s language', async () => {
    const player = await spanishPlayer();
    expect(await emitCounting(player, 'reveal')).toEqual([invalidInSpanish]);
    await expectNothingChanged(player);
  });

  it('state with a payload: INVALID_REQUEST', async () => {
    const player = await spanishPlayer();
    expect(await emitCounting(player, 'state', { roundId: 'r1' })).toEqual([invalidInSpanish]);
    expect(await emitCounting(player, 'state', 'garbage')).toEqual([invalidInSpanish]);
    await expectNothingChanged(player);
  });

  it('buy with garbage: INVALID_REQUEST, and nothing is bought', async () => {
    const player = await spanishPlayer();
    for (const garbage of ['garbage', 42, true, [1, 2], { bet: 100 }]) {
      expect(await emitCounting(player, 'buy', garbage)).toEqual([invalidInSpanish]);
    }
    await expectNothingChanged(player);
  });

  it('extra arguments before the acknowledgement: INVALID_REQUEST, and nothing is bought', async () => {
    const player = await spanishPlayer();
    expect(await emitCounting(player, 'buy', {}, 'extra')).toEqual([invalidInSpanish]);
    expect(await emitCounting(player, 'reveal', { roundId: 'r1' }, { roundId: 'r2' })).toEqual([
      invalidInSpanish,
    ]);
    expect(await emitCounting(player, 'state', undefined, 1)).toEqual([invalidInSpanish]);
    await expectNothingChanged(player);
  });

  it('an unknown event: INVALID_REQUEST', async () => {
    const player = await spanishPlayer();
    expect(await emitCounting(player, 'withdraw', { amount: 1000 })).toEqual([invalidInSpanish]);
    expect(await emitCounting(player, 'dance')).toEqual([invalidInSpanish]);
    await expectNothingChanged(player);
  });

  it('a roundId holding a NUL or another control character: INVALID_REQUEST, not a database error', async () => {
    const player = await spanishPlayer();
    for (const roundId of ['\u0000', 'a\u0000b', 'round\u0001']) {
      expect(await emitCounting(player, 'reveal', { roundId })).toEqual([invalidInSpanish]);
    }
    await expectNothingChanged(player);
  });

  it('a large payload within the transport limit: INVALID_REQUEST', async () => {
    const player = await spanishPlayer();
    expect(await emitCounting(player, 'reveal', { roundId: 'x'.repeat(10_000) })).toEqual([invalidInSpanish]);
    await expectNothingChanged(player);
  });

  it('a non-function last argument is no acknowledgement: a malformed buy is dropped, the socket stays usable', async () => {
    const player = await spanishPlayer();
    player.socket.emit('buy', {}, 'not-a-callback');
    player.socket.emit('buy', 'garbage');
    // Socket.IO keeps a socket's packets in order: once this answer arrives, those two were handled.
    expect(await emitCounting(player, 'reveal')).toEqual([invalidInSpanish]);
    await expectNothingChanged(player);
  });

  it('a well-formed request still gets its proper answer in the player’s language', async () => {
    const player = await spanishPlayer();
    expect(await emitCounting(player, 'reveal', { roundId: 'no-such-round' })).toEqual([
      { ok: false, error: { code: 'ROUND_NOT_FOUND', message: PLAY_ERRORS.ROUND_NOT_FOUND.es } },
    ]);
    const bought = await player.ask('buy', {});
    expect(bought).toMatchObject({ ok: true, data: { round: { status: 'open' } } });
  });

  it('a payload over the transport limit closes the connection, so the page is told at once', async () => {
    const player = await spanishPlayer();
    const closed = new Promise<string>((resolve) => player.socket.once('disconnect', resolve));
    player.socket.emit('reveal', { roundId: 'x'.repeat(32 * 1024) }, () => {});
    expect(await closed).toMatch(/transport/);
  });
});
