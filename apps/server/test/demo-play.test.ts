import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../src/demo/setup.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { connectPlayer } from './play-fixtures.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('the default start', () => {
  it('plays full rounds on the printed gameUrl against the built-in demo wallet', async () => {
    const demo = await setUpDemo(server.running.app.services, server.deps, undefined);
    if (!demo) throw new Error('expected a demo set-up on an empty database');
    const token = new URL(demo.game.gameUrl).searchParams.get('token') ?? '';
    const player = await connectPlayer(server.url, token);
    const state = await player.ask('state');
    expect(state).toMatchObject({
      ok: true,
      data: { player: { balance: 100_000 }, game: { gameModel: 'oxe-ganhei', price: 200 } },
    });
    let balance = 100_000;
    for (let i = 0; i < 5; i++) {
      const bought = await player.ask('buy');
      if (!bought.ok) throw new Error(JSON.stringify(bought));
      balance -= 200;
      expect(bought.data.balance).toBe(balance);
      const revealed = await player.ask('reveal', { roundId: bought.data.round.roundId });
      if (!revealed.ok) throw new Error(JSON.stringify(revealed));
      balance += bought.data.round.prize;
      expect(revealed.data).toMatchObject({ round: { status: 'closed' }, balance });
    }
    player.close();
  });
});
