// sqlite-only: tampers with rounds and pools through its own connection to the SQLite file, which `pnpm verify-pool` then reads from DATA_DIR. verify-pool on PostgreSQL: pool-end-instances.postgres.test.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameRecord, PoolRecord } from '../src/store/records.ts';
import { startTestServer, type TestServer, type TokenSet } from './harness.ts';
import { drawPoolTo } from './pool-fixtures.ts';
import { type CliRun, runCli } from './run-cli.ts';

/**
 * `pnpm verify-pool` run as a real child process against the service's SQLite file: pool 1 used
 * up (a few rounds played through the service, the rest drawn by the real pool drawer and
 * recorded as the service records them, which takes a second rather than a minute of play), pool 2
 * still running with rounds played through the service.
 */
const SAMPLING = 100_001;

let server: TestServer;
let tokens: TokenSet;
let game: GameRecord;
let otherGameId: string;
let dataDir: string;
let pool1: PoolRecord;
let pool2: PoolRecord;
/** A read-write connection beside the service's, for tampering. */
let db: Database.Database;

function verify(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const { DATA_DIR: _ignored, ...inherited } = process.env;
  return runCli('verify-pool', args, { ...inherited, ...env });
}

async function session(profileId: string, gameId: string, credential: string) {
  const user = await server.call('POST', '/v1/user/auth', {
    token: tokens,
    body: { profileId, credential, credentialType: 'username' },
  });
  const started = await server.call('POST', '/v1/game/session', {
    token: tokens,
    body: { userToken: user.body.data.userToken, gameId },
  });
  return { sessionId: started.body.data.sessionId as string, playerId: user.body.data.userId as string };
}

async function playRounds(sessionId: string, count: number): Promise<void> {
  const play = server.running.app.services.play;
  for (let i = 0; i < count; i++) {
    const bought = await play.buy(sessionId);
    if (!bought.ok) throw new Error(`buy refused: ${bought.code}`);
    const revealed = await play.reveal(sessionId, bought.data.round.roundId);
    if (!revealed.ok) throw new Error(`reveal refused: ${revealed.code}`);
  }
}

beforeAll(async () => {
  server = await startTestServer({ play: { tickMs: 3_600_000 } });
  dataDir = server.config.DATA_DIR;
  tokens = (await server.newClient()).tokens;
  const profile = await server.call('POST', '/v1/profile', {
    token: tokens,
    body: { name: 'Demo room', type: 'demo', currency: 'BRL' },
  });
  const profileId = profile.body.data.profileId;
  const createGame = async (gameModel: string) => {
    const created = await server.call('POST', '/v1/game', {
      token: tokens,
      body: {
        profileId,
        gameModel,
        lang: 'en',
        currency: 'BRL',
        rtp: 0.9,
        sampling: SAMPLING,
        prizedPercent: 0.5,
        betPrice: 1,
        simulation: false,
        replacePreviousVersion: false,
      },
    });
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
    return created.body.data.id as string;
  };
  const gameId = await createGame('oxe-ganhei');
  otherGameId = await createGame('fera-sortuda');
  game = (await server.deps.store.games.findById(gameId)) as GameRecord;
  const player = await session(profileId, gameId, 'verifier-player');
  await playRounds(player.sessionId, 5);
  await drawPoolTo(server.deps, game, player, 0);
  await playRounds(player.sessionId, 3);
  [pool1, pool2] = (await server.deps.store.pools.listByGame(gameId)) as [PoolRecord, PoolRecord];
  db = new Database(join(dataDir, 'raspa.sqlite'));
}, 180_000); // a bound for a loaded 2-core machine

afterAll(async () => {
  db?.close();
  await server?.close();
});

/** Runs `work` with one SQL change in place, undoing it afterwards: [sql, ...values] each. */
async function tampered<T>(change: unknown[], undo: unknown[], work: () => Promise<T>): Promise<T> {
  const run = ([sql, ...values]: unknown[]) => db.prepare(String(sql)).run(...values);
  run(change);
  try {
    return await work();
  } finally {
    run(undo);
  }
}

describe('pnpm verify-pool (SQLite-specific: tampers with the file in SQL)', () => {
  const lastLine = (run: CliRun) => run.stdout.trimEnd().split('\n').at(-1);

  it('verifies the ended pool from its published seed, reading the database without changing it', async () => {
    expect(pool1).toMatchObject({ number: 1, draws: SAMPLING, endedAt: expect.any(String) });
    expect(pool2).toMatchObject({ number: 2, draws: 3, endedAt: null, seedHex: null });
    const snapshot = () => [
      db.prepare('SELECT count(*) AS n, max(id) AS last, sum(level) AS levels FROM rounds').get(),
      db.prepare('SELECT * FROM pools ORDER BY number').all(),
    ];
    const before = snapshot();
    const run = await verify(['--game', game.id, '--data-dir', dataDir]);
    expect(snapshot()).toEqual(before);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const out = run.stdout;
    expect(out).toContain(`Fairness check of game ${game.id} (oxe-ganhei version 1,`);
    expect(out).toContain(`Pool 1 (${pool1.id}): 100001 tickets, 100001 drawn`);
    expect(out).toContain(`  commitment ${pool1.commitment}`);
    expect(out).toContain(`  seed       ${pool1.seedHex}`);
    expect(out).toContain('  ok   SHA-256(seed) is the commitment');
    expect(out).toContain('  ok   the pool re-derived from the seed holds:');
    const top = game.ladder.levels[7];
    expect(out).toContain(`         level 8: ${top?.winners} tickets (ladder: ${top?.winners} × `);
    expect(out).toContain(`         level 0 (losing): ${SAMPLING - game.ladder.totalPrized}`);
    expect(out).toMatch(/ok {3}100001 rounds checked .*: 0 mismatches/);
    expect(out).toContain(`Pool 2 (${pool2.id}): 100001 tickets, 3 drawn, started `);
    expect(out).toContain('still running');
    expect(out).toContain('  ok   the commitment is a SHA-256 in hex');
    expect(out).toContain('the seed is not published yet');
    expect(out).not.toContain('MISMATCH');
    expect(lastLine(run)).toBe('OK: 1 ended pool verified from the published seed; 1 still running.');
  });

  it('checks one pool with --pool, and finds the database through DATA_DIR like the server', async () => {
    const [flag, env] = await Promise.all([
      verify(['--game', game.id, '--pool', pool2.id, '--data-dir', dataDir]),
      verify(['--game', game.id, '--pool', pool2.id], { DATA_DIR: dataDir }),
    ]);
    for (const run of [flag, env]) {
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toContain('1 pool selected');
      expect(run.stdout).toContain('the seed is not published yet (it is when the pool ends)');
      expect(run.stdout).not.toContain('Pool 1 ');
      expect(lastLine(run)).toBe('OK: no pool has ended yet, so no seed is published to verify against.');
    }
  });

  it('exits 1 naming the round whose level was changed in the database', async () => {
    const victim = db
      .prepare<[string], { id: string; drawIndex: number }>(
        'SELECT id, draw_index AS drawIndex FROM rounds WHERE pool_id = ? AND level = 0 ORDER BY draw_index LIMIT 1 OFFSET 1000',
      )
      .get(pool1.id);
    if (!victim) throw new Error('no losing round');
    const run = await tampered(
      ['UPDATE rounds SET level = 3 WHERE id = ?', victim.id],
      ['UPDATE rounds SET level = 0 WHERE id = ?', victim.id],
      () => verify(['--game', game.id, '--data-dir', dataDir]),
    );
    expect(run.code).toBe(1);
    const prize3 = game.ladder.levels[2]?.prize;
    const at = `round ${victim.id} (draw ${victim.drawIndex})`;
    expect(run.stdout.split('\n').filter((line) => line.includes('MISMATCH'))).toEqual([
      `  MISMATCH ${at}: prize 0 (minor units) is not the ladder's ${prize3} for level 3`,
      `  MISMATCH ${at}: the card shows level 0, the round recorded level 3`,
      `  MISMATCH ${at}: recorded level 3, but the seed puts a level 0 ticket at draw ${victim.drawIndex}`,
    ]);
    expect(run.stdout).toMatch(/FAIL 100001 rounds checked .*: 3 mismatches/);
    expect(lastLine(run)).toBe('FAILED: 1 of 2 pools do not check.');
  });

  it('exits 2 on bad arguments, naming the problem and the usage', async () => {
    const cases: Array<[string[], string]> = [
      [[], '--game is required (the id of the game version)'],
      [['--game'], "Option '--game <value>' argument missing"],
      [['--game', 'x', '--nope'], "Unknown option '--nope'"],
      [['--game', 'x', '--pool', ''], '--pool must not be empty'],
    ];
    const runs = await Promise.all(cases.map(([args]) => verify(args)));
    runs.forEach((run, i) => {
      expect(run).toMatchObject({ code: 2, stdout: '' });
      expect(run.stderr).toContain(cases[i]?.[1]);
      expect(run.stderr).toContain(
        'usage: pnpm verify-pool --game <gameId> [--pool <poolId>] [--data-dir <dir>]',
      );
    });
  });

  it('exits 2 for an unknown game, a pool of another game, a missing database or a bad configuration', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'raspa-verify-empty-'));
    try {
      const [unknownGame, otherPool, noDatabase, badConfig] = await Promise.all([
        verify(['--game', 'no-such-game', '--data-dir', dataDir]),
        verify(['--game', otherGameId, '--pool', pool1.id, '--data-dir', dataDir]),
        verify(['--game', game.id, '--data-dir', empty]),
        verify(['--game', game.id], { DATA_DIR: dataDir, PORT: 'eighty' }),
      ]);
      expect(unknownGame).toMatchObject({ code: 2, stdout: '' });
      expect(unknownGame.stderr).toContain('game no-such-game was not found in ');
      expect(otherPool).toMatchObject({ code: 2, stdout: '' });
      expect(otherPool.stderr).toContain(`pool ${pool1.id} is not a pool of game ${otherGameId}`);
      expect(noDatabase).toMatchObject({ code: 2, stdout: '' });
      expect(noDatabase.stderr).toContain(
        `no database at ${join(empty, 'raspa.sqlite')} (set DATA_DIR or pass --data-dir)`,
      );
      expect(badConfig).toMatchObject({ code: 2, stdout: '' });
      expect(badConfig.stderr).toContain('the configuration has problems:\n  PORT: ');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('the checks behind it (fairness service)', () => {
  const check = async () => {
    const result = await server.running.app.services.fairness.checkGame(game.id, pool1.id);
    if (!result.ok) throw new Error(result.message);
    return result.pools[0];
  };
  const roundWhere = (where: string) =>
    db
      .prepare<[string], { id: string; drawIndex: number; card: string }>(
        `SELECT id, draw_index AS drawIndex, card_json AS card FROM rounds WHERE pool_id = ? AND ${where} LIMIT 1`,
      )
      .get(pool1.id) as { id: string; drawIndex: number; card: string };

  it('flags a card showing another level, a prize that is not the ladder’s, and unreadable cards', async () => {
    // Four different rounds (the pool's seed is random: the first winner or loser may be draw 10 or 11).
    const winner = roundWhere('level = 2 AND draw_index > 11');
    const loser = roundWhere('level = 0 AND draw_index > 11');
    const otherModel = roundWhere('draw_index = 10');
    const unreadable = roundWhere('draw_index = 11');
    const setCard = 'UPDATE rounds SET card_json = ? WHERE id = ?';
    const result = await tampered([setCard, loser.card, winner.id], [setCard, winner.card, winner.id], () =>
      tampered(
        ['UPDATE rounds SET prize_minor = prize_minor + 1 WHERE id = ?', loser.id],
        ['UPDATE rounds SET prize_minor = prize_minor - 1 WHERE id = ?', loser.id],
        () =>
          tampered(
            [setCard, '{"model":"fera-sortuda"}', otherModel.id],
            [setCard, otherModel.card, otherModel.id],
            () =>
              tampered(
                [setCard, '{"model":"oxe-ganhei"}', unreadable.id],
                [setCard, unreadable.card, unreadable.id],
                async () => check(),
              ),
          ),
      ),
    );
    expect(result).toMatchObject({ ok: false, poolProblems: [], roundProblemCount: 4 });
    const listed = result?.roundProblems.map(({ roundId, drawIndex, message }) => ({
      roundId,
      drawIndex,
      message: message.replace(/^(the card cannot be read):.*/, '$1'),
    }));
    expect(listed).toEqual(
      [
        { ...winner, message: 'the card shows level 0, the round recorded level 2' },
        { ...loser, message: "prize 1 (minor units) is not the ladder's 0 for level 0" },
        { ...otherModel, message: 'the card is of model fera-sortuda, not oxe-ganhei' },
        { ...unreadable, message: 'the card cannot be read' },
      ]
        .map(({ id, drawIndex, message }) => ({ roundId: id, drawIndex, message }))
        .sort((a, b) => a.drawIndex - b.drawIndex),
    );
  });

  it('flags a published seed that is not the committed one', async () => {
    const seed = pool1.seedHex ?? '';
    const forged = `${seed.slice(0, 63)}${seed.endsWith('0') ? '1' : '0'}`;
    const setSeed = 'UPDATE pools SET seed_hex = ? WHERE id = ?';
    const result = await tampered([setSeed, forged, pool1.id], [setSeed, seed, pool1.id], async () =>
      check(),
    );
    expect(result).toMatchObject({
      ok: false,
      verification: { commitmentMatches: false, countsMatch: true },
      poolProblems: ['the SHA-256 of the published seed is not the commitment'],
    });
    // Another seed orders the tickets differently: most rounds disagree with it.
    expect(result?.roundProblemCount).toBeGreaterThan(SAMPLING / 4);
    expect(result?.roundProblems).toHaveLength(100);
  });

  it('flags a deleted round: the pool counts more draws than rounds drew from it', async () => {
    const gone = db
      .prepare('SELECT * FROM rounds WHERE pool_id = ? AND draw_index = 99999')
      .get(pool1.id) as Record<string, unknown>;
    const columns = Object.keys(gone);
    db.prepare('DELETE FROM rounds WHERE id = ?').run(gone.id);
    let result: Awaited<ReturnType<typeof check>>;
    try {
      result = await check();
    } finally {
      db.prepare(
        `INSERT INTO rounds (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
      ).run(gone);
    }
    expect(result).toMatchObject({
      ok: false,
      roundsChecked: SAMPLING - 1,
      poolProblems: [`the pool counts ${SAMPLING} draws but ${SAMPLING - 1} rounds drew from it`],
      roundProblemCount: 0,
    });
  });
});
