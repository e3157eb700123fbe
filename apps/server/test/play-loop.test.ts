import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_INTEGRATION, startTestServer, type TestServer } from './harness.ts';
import { connectPlayer, eventually, type GameSetup, newSession, setUpOperatorGame } from './play-fixtures.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

let server: TestServer;
let operator: TestOperator;
let game: GameSetup;
let players = 0;
const sockets: Array<{ close(): void }> = [];

beforeAll(async () => {
  operator = await startTestOperator();
  server = await startTestServer({
    env: LOCAL_INTEGRATION,
    // A wallet time-out short enough for the 'hang' cases, long enough for a loaded machine's answers.
    play: {
      walletTimeoutMs: 1000,
      walletInFlightMs: 2000,
      walletRetryDelaysMs: [1000, 5000],
      tickMs: 60_000,
    },
  });
  game = await setUpOperatorGame(server, operator, { prizedPercent: 0.5 });
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => {
  await server.close();
  await operator.close();
});

async function newPlayer(setup = game) {
  const credential = `player-${++players}`;
  const player = await connectPlayer(server.url, await newSession(server, setup, credential));
  sockets.push(player);
  return { ...player, credential };
}

const play = () => server.running.app.services.play;
const roundsOf = async (roundId: string) =>
  (await server.call('GET', `/v1/round?roundId=${roundId}`, { token: game.tokens })).body.data[0];

describe('full rounds over Socket.IO', () => {
  it('state, buy and reveal: the wallet, the transactions list and both webhooks agree to the cent', async () => {
    const player = await newPlayer();
    const state = await player.ask('state');
    expect(state).toMatchObject({
      ok: true,
      data: {
        player: { balance: 100_000 },
        game: { gameModel: 'oxe-ganhei', currency: 'BRL', price: 200 },
        openRound: null,
      },
    });
    let won = 0;
    let lost = 0;
    let expected = 100_000;
    for (let i = 0; i < 40 && (won === 0 || lost === 0); i++) {
      const bought = await player.ask('buy');
      if (!bought.ok) throw new Error(JSON.stringify(bought));
      const { round } = bought.data;
      expect(round.status).toBe('open');
      expected -= 200;
      expect(bought.data.balance).toBe(expected);
      const revealed = await player.ask('reveal', { roundId: round.roundId });
      if (!revealed.ok) throw new Error(JSON.stringify(revealed));
      expect(revealed.data.round).toMatchObject({
        roundId: round.roundId,
        status: 'closed',
        prizePending: false,
      });
      expected += round.prize;
      expect(revealed.data.balance).toBe(expected);
      if (round.level > 0) won++;
      else lost++;
      const listed = await roundsOf(round.roundId);
      expect(listed).toMatchObject({ status: 'closed', paidPrice: 2, prize: round.prize / 100 });
      expect(listed.transactions.map((t: any) => [t.type, t.amount, t.status])).toEqual(
        round.level > 0
          ? [
              ['bet', -2, 'completed'],
              ['prize', round.prize / 100, 'completed'],
            ]
          : [['bet', -2, 'completed']],
      );
    }
    expect(won).toBeGreaterThan(0);
    expect(lost).toBeGreaterThan(0);
    expect(operator.balanceOf(player.credential)).toBe(expected);
    // Every round's two webhooks arrived, in order, with the bet and prize transactions.
    const rounds = won + lost;
    const mine = await eventually(() => {
      const events = operator.events.filter((e) => e.payload.user.credential === player.credential);
      return events.length === rounds * 2 && events;
    });
    for (let i = 0; i < mine.length; i += 2) {
      expect(mine[i]?.event).toBe('open-round');
      expect(mine[i]?.payload.status).toBe('open');
      expect(mine[i]?.payload.transactions.map((t: any) => t.type)).toEqual(['bet']);
      expect(mine[i + 1]?.event).toBe('close-round');
      expect(mine[i + 1]?.payload).toMatchObject({ _id: mine[i]?.payload._id, status: 'closed' });
    }
    const paid = mine
      .filter((e) => e.event === 'close-round')
      .reduce((sum, e) => sum + Math.round(e.payload.prize * 100), 0);
    expect(100_000 - rounds * 200 + paid).toBe(operator.balanceOf(player.credential));
    const transactions = await server.call('GET', '/v1/transaction?pageSize=100', { token: game.tokens });
    const cents = transactions.body.data
      .filter((t: any) => mine.some((e) => e.payload._id === t.roundId))
      .reduce((sum: number, t: any) => sum + Math.round(t.amount * 100), 0);
    expect(100_000 + cents).toBe(operator.balanceOf(player.credential));
  });

  it('resumes the open round with the same card after a reconnect, and refuses a second buy meanwhile', async () => {
    const player = await newPlayer();
    const bought = await player.ask('buy');
    if (!bought.ok) throw new Error('buy failed');
    expect(await player.ask('buy')).toMatchObject({ ok: false, error: { code: 'ROUND_IN_PROGRESS' } });
    player.close();
    const again = await connectPlayer(server.url, await newSession(server, game, player.credential));
    sockets.push(again);
    const state = await again.ask('state');
    expect(state).toMatchObject({
      ok: true,
      data: { openRound: { roundId: bought.data.round.roundId, card: bought.data.round.card } },
    });
    expect(await again.ask('reveal', { roundId: bought.data.round.roundId })).toMatchObject({ ok: true });
  });

  it('answers bad requests with INVALID_REQUEST in the session language and unknown rounds with ROUND_NOT_FOUND', async () => {
    const player = await newPlayer();
    expect(await player.ask('reveal', { roundId: 5 })).toEqual({
      ok: false,
      error: {
        code: 'INVALID_REQUEST',
        message: 'The game sent a request we could not read. Please reload.',
      },
    });
    expect(await player.ask('reveal', { roundId: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'ROUND_NOT_FOUND' },
    });
  });

  it('refuses a connection with an unknown or expired session token', async () => {
    await expect(connectPlayer(server.url, 'ses_nope')).rejects.toThrow('SESSION_EXPIRED');
  });
});

describe('wallet faults at the bet', () => {
  it.each([
    ['http500', 'WALLET_UNAVAILABLE'],
    ['hang', 'WALLET_UNAVAILABLE'],
    ['drop', 'WALLET_UNAVAILABLE'],
    ['ok-then-hang', 'WALLET_UNAVAILABLE'],
    ['decline', 'WALLET_DECLINED'],
    ['insufficient', 'INSUFFICIENT_FUNDS'],
  ] as const)('%s → %s, no round opened, no money lost', async (fault, code) => {
    const player = await newPlayer();
    operator.failNext('bet', fault);
    const answer = await player.ask('buy');
    expect(answer).toMatchObject({ ok: false, error: { code } });
    const definite = fault === 'decline' || fault === 'insufficient';
    await play().settleDue();
    await eventually(() => operator.balanceOf(player.credential) === 100_000);
    const rounds = (
      await server.call('GET', '/v1/round?pageSize=100', { token: game.tokens })
    ).body.data.filter((r: any) => r.user.credential === player.credential);
    expect(rounds).toHaveLength(1);
    expect(rounds[0].status).toBe(definite ? 'declined' : 'voided');
    if (!definite) {
      const rollback = rounds[0].transactions.find((t: any) => t.type === 'rollback');
      expect(rollback).toMatchObject({ amount: 2, status: 'completed' });
      const call = operator.calls.find(
        (c) => c.kind === 'rollback' && c.body.credential === player.credential,
      );
      expect(call?.body.originalTransactionId).toBe(rounds[0].transactions[0]._id);
    }
    // And the player can play again at once.
    expect(await player.ask('buy')).toMatchObject({ ok: true });
  });

  it('retries a rollback until the wallet answers', async () => {
    const player = await newPlayer();
    operator.failNext('bet', 'http500');
    operator.failNext('rollback', 'http500', 'hang');
    expect(await player.ask('buy')).toMatchObject({ ok: false, error: { code: 'WALLET_UNAVAILABLE' } });
    await play().settleDue();
    server.clock.advance(3_000);
    await play().settleDue();
    server.clock.advance(6_000);
    await play().settleDue();
    const rollbacks = operator.calls.filter(
      (c) => c.kind === 'rollback' && c.body.credential === player.credential,
    );
    expect(rollbacks.length).toBe(3);
    expect(new Set(rollbacks.map((c) => c.body.transactionId)).size).toBe(1);
    expect(operator.balanceOf(player.credential)).toBe(100_000);
  });

  it('counts an unanswered bet only once its rollback is confirmed; a declined rollback flags the round', async () => {
    const statuses = async (credential: string) => {
      const round = (
        await server.call('GET', '/v1/round?pageSize=100', { token: game.tokens })
      ).body.data.find((r: any) => r.user.credential === credential);
      return { round, shape: round.transactions.map((t: any) => [t.type, t.status]) };
    };
    const retried = await newPlayer();
    operator.failNext('bet', 'ok-then-hang');
    operator.failNext('rollback', 'http500');
    await retried.ask('buy');
    await play().settleDue();
    // While the rollback is retried, the bet is not counted.
    expect((await statuses(retried.credential)).shape).toEqual([
      ['bet', 'failed'],
      ['rollback', 'pending'],
    ]);
    server.clock.advance(3_000);
    await play().settleDue();
    const settled = await statuses(retried.credential);
    expect(settled.round.status).toBe('voided');
    expect(settled.shape).toEqual([
      ['bet', 'completed'],
      ['rollback', 'completed'],
    ]);
    expect(operator.balanceOf(retried.credential)).toBe(100_000);

    const refused = await newPlayer();
    operator.failNext('bet', 'ok-then-hang');
    operator.failNext('rollback', 'decline');
    await refused.ask('buy');
    await play().settleDue();
    const flagged = await statuses(refused.credential);
    expect(flagged.shape).toEqual([
      ['bet', 'failed'],
      ['rollback', 'declined'],
    ]);
    expect(await server.deps.store.rounds.findRound(flagged.round._id)).toMatchObject({
      status: 'voided',
      reconciliation: true,
    });
  });
});

describe('wallet faults at the prize', () => {
  it.each(['http500', 'hang', 'drop', 'ok-then-hang', 'decline'] as const)(
    '%s: the prize is retried with the same transactionId and paid exactly once',
    async (fault) => {
      const winners = await setUpOperatorGame(server, operator, { prizedPercent: 1 });
      const credential = `winner-${++players}`;
      const player = await connectPlayer(server.url, await newSession(server, winners, credential));
      sockets.push(player);
      const bought = await player.ask('buy');
      if (!bought.ok) throw new Error('buy failed');
      const { round } = bought.data;
      expect(round.level).toBeGreaterThan(0);
      operator.failNext('prize', fault);
      const revealed = await player.ask('reveal', { roundId: round.roundId });
      expect(revealed).toMatchObject({
        ok: true,
        data: { round: { status: 'closing', prizePending: true } },
      });
      server.clock.advance(2_500);
      await play().settleDue();
      await eventually(() => operator.balanceOf(credential) === 100_000 - 200 + round.prize);
      const listed = (
        await server.call('GET', `/v1/round?roundId=${round.roundId}`, { token: winners.tokens })
      ).body.data[0];
      expect(listed.status).toBe('closed');
      const prizes = operator.calls.filter((c) => c.kind === 'prize' && c.body.credential === credential);
      expect(prizes.length).toBe(2);
      expect(prizes[0]?.body.transactionId).toBe(prizes[1]?.body.transactionId);
      const closeEvents = await eventually(() => {
        const events = operator.events.filter(
          (e) => e.event === 'close-round' && e.payload._id === round.roundId,
        );
        return events.length > 0 && events;
      });
      expect(closeEvents[0]?.payload.transactions.map((t: any) => [t.type, t.status])).toEqual([
        ['bet', 'completed'],
        ['prize', 'completed'],
      ]);
    },
  );
});

describe('one round at a time', () => {
  it('50 concurrent buys by one player open exactly one round', async () => {
    const player = await newPlayer();
    const answers = await Promise.all(Array.from({ length: 50 }, () => player.ask('buy')));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok).every((a) => !a.ok && a.error.code === 'ROUND_IN_PROGRESS')).toBe(
      true,
    );
    expect(operator.balanceOf(player.credential)).toBe(100_000 - 200);
  });

  it('100 players buying and revealing at once: every balance adds up', async () => {
    // Its own server: 100 rounds at once keep the loop busy. The wallet's time-out is long (the
    // default 5 s ran out once on a saturated machine): what is tested is the sums, not the speed.
    const busy = await startTestServer({ env: LOCAL_INTEGRATION, play: { walletTimeoutMs: 30_000 } });
    const setup = await setUpOperatorGame(busy, operator, { prizedPercent: 0.5 });
    const crowd = await Promise.all(
      Array.from({ length: 100 }, async () => {
        const credential = `crowd-${++players}`;
        const player = await connectPlayer(busy.url, await newSession(busy, setup, credential));
        sockets.push(player);
        return { ...player, credential };
      }),
    );
    const results = await Promise.all(
      crowd.map(async (player) => {
        const bought = await player.ask('buy');
        if (!bought.ok) throw new Error(JSON.stringify(bought));
        const revealed = await player.ask('reveal', { roundId: bought.data.round.roundId });
        if (!revealed.ok) throw new Error(JSON.stringify(revealed));
        return {
          credential: player.credential,
          prize: bought.data.round.prize,
          balance: revealed.data.balance,
        };
      }),
    );
    for (const result of results) {
      expect(operator.balanceOf(result.credential)).toBe(100_000 - 200 + result.prize);
      expect(result.balance).toBe(100_000 - 200 + result.prize);
    }
    for (const player of crowd) player.close();
    await busy.close();
  });
});

describe('idle rounds', () => {
  it('close by themselves after 5 minutes, paying the prize, and the page is told', async () => {
    const winners = await setUpOperatorGame(server, operator, { prizedPercent: 1 });
    const credential = `idle-${++players}`;
    const player = await connectPlayer(server.url, await newSession(server, winners, credential));
    sockets.push(player);
    const pushed: any[] = [];
    player.socket.on('round', (round) => pushed.push(round));
    const bought = await player.ask('buy');
    if (!bought.ok) throw new Error('buy failed');
    server.clock.advance(4 * 60_000);
    await play().closeIdleRounds();
    expect((await server.deps.store.rounds.findRound(bought.data.round.roundId))?.status).toBe('open');
    server.clock.advance(61_000);
    expect(await play().closeIdleRounds()).toBeGreaterThanOrEqual(1);
    expect((await server.deps.store.rounds.findRound(bought.data.round.roundId))?.status).toBe('closed');
    expect(operator.balanceOf(credential)).toBe(100_000 - 200 + bought.data.round.prize);
    await eventually(() =>
      pushed.some((round) => round.roundId === bought.data.round.roundId && round.status === 'closed'),
    );
  });
});

// Last: it moves the clock a day forward, past every token's lifetime.
describe('prizes that cannot be paid', () => {
  it('flags the round for reconciliation after 24 h of failed prize attempts', async () => {
    const winners = await setUpOperatorGame(server, operator, { prizedPercent: 1 });
    const credential = `unlucky-${++players}`;
    const player = await connectPlayer(server.url, await newSession(server, winners, credential));
    sockets.push(player);
    const bought = await player.ask('buy');
    if (!bought.ok) throw new Error('buy failed');
    operator.failNext('prize', ...Array(50).fill('http500'));
    await player.ask('reveal', { roundId: bought.data.round.roundId });
    for (let hour = 0; hour < 25; hour++) {
      server.clock.advance(3600_000);
      await play().settleDue();
    }
    const round = await server.deps.store.rounds.findRound(bought.data.round.roundId);
    expect(round).toMatchObject({ status: 'closed', reconciliation: true });
    operator.failNext('prize'); // the rest of the queued faults no longer matter
  });
});
