import { connectPlayer, type Player } from '../../test/play-fixtures.ts';
import { serveParent } from '../kit/child.ts';
import { sleep } from '../kit/processes.ts';
import { latency } from '../kit/stats.ts';
import type { RunResult } from './messages.ts';

/**
 * The load generator of the play-loop bench, in its own process: one Socket.IO client per game
 * session, each buying and revealing in a loop, as fast as its answers come.
 */
const players: Player[] = [];

/** Player i plays on urls[i mod n]: several instances get an even share, no load balancer between. */
async function connectAll(urls: string[], tokens: string[]): Promise<void> {
  for (let i = 0; i < tokens.length; i += 50) {
    const batch = tokens.slice(i, i + 50);
    players.push(
      ...(await Promise.all(
        batch.map((token, k) => connectPlayer(urls[(i + k) % urls.length] ?? '', token)),
      )),
    );
  }
}

async function run(seconds: number, thinkMs: number): Promise<RunResult> {
  const buyMs: number[] = [];
  const revealMs: number[] = [];
  const errors: { request: string; answer: unknown }[] = [];
  let rounds = 0;
  let buys = 0;
  const deadline = Date.now() + seconds * 1000;

  // Players think for a random 0.5-1.5 × thinkMs and start at random within one think: in step,
  // 200 players would arrive as one burst each cycle and measure the burst, not the service.
  const think = () => thinkMs * (0.5 + Math.random());

  async function play(player: Player): Promise<void> {
    if (thinkMs > 0) await sleep(Math.random() * thinkMs);
    while (Date.now() < deadline) {
      let start = performance.now();
      const bought = await player.ask('buy');
      buyMs.push(performance.now() - start);
      if (!bought.ok) {
        errors.push({ request: 'buy', answer: bought });
        await sleep(50); // don't spin on a failing service
        continue;
      }
      buys++;
      start = performance.now();
      const revealed = await player.ask('reveal', { roundId: bought.data.round.roundId });
      revealMs.push(performance.now() - start);
      if (revealed.ok) rounds++;
      else errors.push({ request: 'reveal', answer: revealed });
      if (thinkMs > 0) await sleep(think());
    }
  }

  const started = performance.now();
  await Promise.all(players.map(play));
  const elapsed = (performance.now() - started) / 1000;
  return {
    elapsed,
    rounds,
    buys,
    buyMs: latency(buyMs),
    revealMs: latency(revealMs),
    errors: errors.length,
    errorSamples: errors.slice(0, 20),
  };
}

serveParent(async (type, body) => {
  if (type === 'connect') {
    await connectAll(
      Array.isArray(body.urls) ? (body.urls as string[]) : [String(body.url)],
      body.tokens as string[],
    );
    return { connected: players.length };
  }
  if (type === 'run') return { ...(await run(Number(body.seconds), Number(body.thinkMs ?? 0))) };
  if (type === 'close') {
    for (const player of players) player.close();
    return {};
  }
  throw new Error(`unknown request ${type}`);
});
