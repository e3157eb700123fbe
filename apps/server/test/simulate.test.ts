import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';
import { runCli } from './run-cli.ts';

/**
 * `pnpm simulate` run as a real child process against the service's database (SQLite, and
 * PostgreSQL in the server-postgres project): it reads the version's configuration only and draws
 * in memory, so the game has no pool before or after. The checks themselves (a broken draw fails
 * them) are the core's tests (packages/core/src/simulation/draw-check.test.ts).
 */

let server: TestServer;
let gameId: string;
const SEED = 'a5'.repeat(32);

function simulate(args: string[]) {
  const { DATA_DIR: _unused, DATABASE_URL: _theirs, ...inherited } = process.env;
  return runCli('simulate', args, {
    ...inherited,
    DATA_DIR: server.config.DATA_DIR,
    ...(server.config.DATABASE_URL && { DATABASE_URL: server.config.DATABASE_URL }),
  });
}

beforeAll(async () => {
  server = await startTestServer();
  const { tokens } = await server.newClient();
  const profile = await server.call('POST', '/v1/profile', {
    token: tokens,
    body: { name: 'Simulated', type: 'demo', currency: 'BRL' },
  });
  const created = await server.call('POST', '/v1/game', {
    token: tokens,
    body: {
      profileId: profile.body.data.profileId,
      gameModel: 'bumba-meu-green',
      lang: 'en',
      currency: 'BRL',
      rtp: 0.9,
      sampling: 100_001,
      prizedPercent: 0.4,
      betPrice: 1,
      simulation: false,
      replacePreviousVersion: false,
    },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  gameId = created.body.data.id;
});
afterAll(() => server?.close());

describe('pnpm simulate', () => {
  it('draws whole pools and a part of one through the pool code, checks them, and leaves the database alone', async () => {
    const run = await simulate(['--game', gameId, '--cards', '250_000', '--seed', SEED]);
    expect(run.code).toBe(0);
    // Progress on stderr, ten steps; the summary on stdout.
    const progress = run.stderr.trimEnd().split('\n');
    expect(progress).toHaveLength(10);
    expect(progress.at(-1)).toBe('drawn 250,000 of 250,000 cards (100%)');
    const out = run.stdout;
    expect(out).toContain(`Simulation of game ${gameId} (bumba-meu-green version 1): 250,000 cards`);
    expect(out).toContain(`the run's seed ${SEED}`);
    expect(out).toMatch(/level\s+prize\s+per pool\s+expected\s+drawn\s+whole pools exact/);
    expect(out).toMatch(/^ +8 .+ BRL .+ 2 of 2$/m);
    expect(out).toContain("ok   every whole pool (2) holds exactly the ladder's tickets of each level");
    expect(out).toContain("ok   pool 3, 49,998 of 100,001 drawn, holds no level beyond the ladder's count");
    expect(out).toMatch(/ok {3}chi-square of the level frequencies along the draw order .*df = \d+, p = /);
    expect(out).toMatch(/ok {3}chi-square of pool 3's level frequencies against the ladder/);
    expect(out.trimEnd().split('\n').at(-1)).toMatch(/^OK: /);
    // It never started or drew a pool of the game.
    expect(await server.deps.store.pools.listByGame(gameId)).toEqual([]);
  });

  it('says what is wrong with its arguments or the game, and exits 2', async () => {
    const runs = await Promise.all([
      simulate(['--game', gameId, '--cards', '0']),
      simulate(['--game', 'no-such-game', '--cards', '10']),
    ]);
    expect(runs.map((run) => [run.code, run.stdout, run.stderr.split('\n')[0]])).toEqual([
      [2, '', '--cards must be a whole number from 1 to 1,000,000,000'],
      [2, '', expect.stringMatching(/^no game no-such-game in /)],
    ]);
  });
});
