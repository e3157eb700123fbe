import { buildLadder, parSheet, toMajor } from '@raspa/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACK_MEMBERS } from '../src/http/certification-pack.ts';
import type { GameRecord } from '../src/store/records.ts';
import { expectAnsweredAsUnknown } from './as-unknown.ts';
import { readPack, verifyPackPools } from './certification-pack-reader.ts';
import { readCsvRecords } from './csv-reader.ts';
import { startTestServer, type TestServer, type TokenSet } from './harness.ts';
import { seatPlayer } from './play-fixtures.ts';
import { drawPoolTo } from './pool-fixtures.ts';
import { runCli } from './run-cli.ts';

let server: TestServer;
let tokens: TokenSet;
let other: TokenSet;
const games: Record<'v1' | 'v2', string> = { v1: '', v2: '' };

const config = {
  gameModel: 'trem-de-ouro-v3',
  lang: 'pt',
  currency: 'BRL',
  rtp: 0.9,
  sampling: 200_000,
  prizedPercent: 0.3,
  betPrice: 2.5,
  simulation: false,
  replacePreviousVersion: true,
} as const;

/** What the route must answer for a version made of `input`: the core's sheet, money in major units. */
function expectedSheet(
  input: Omit<typeof config, 'rtp'> & { rtp: number },
  game: { id: string; version: number },
) {
  const built = buildLadder(input);
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  const sheet = parSheet(built.ladder);
  return {
    gameId: game.id,
    version: game.version,
    gameModel: input.gameModel,
    betPrice: input.betPrice,
    sampling: input.sampling,
    rtp: sheet.rtp,
    hitFrequency: sheet.hitFrequency,
    stdDev: sheet.stdDev,
    maxWinMultiple: sheet.maxWinMultiple,
    levels: sheet.levels.map((level) => ({ ...level, prize: toMajor(level.prize, 'BRL') })),
    ranges: sheet.ranges,
  };
}

beforeAll(async () => {
  server = await startTestServer();
  tokens = (await server.newClient()).tokens;
  other = (await server.newClient('Other operator')).tokens;
  const profile = await server.call('POST', '/v1/profile', {
    token: tokens,
    body: { name: 'PAR', type: 'demo', currency: 'BRL' },
  });
  const profileId = profile.body.data.profileId;
  for (const [key, rtp] of [
    ['v1', 0.9],
    ['v2', 0.8],
  ] as const) {
    const created = await server.call('POST', '/v1/game', {
      token: tokens,
      body: { ...config, rtp, profileId },
    });
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
    games[key] = created.body.data.id;
  }
});
afterAll(() => server.close());

describe('GET /v1/game/{id}/par-sheet', () => {
  it('answers the sheet of §17 from the version’s ladder, and another version of it with ?version=', async () => {
    const answer = await server.call('GET', `/v1/game/${games.v2}/par-sheet`, { token: tokens });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'success',
      data: expectedSheet({ ...config, rtp: 0.8 }, { id: games.v2, version: 2 }),
    });
    expect(answer.body.data.ranges.map((range: { cards: number }) => range.cards)).toEqual([
      100, 1_000, 10_000, 100_000,
    ]);

    const first = await server.call('GET', `/v1/game/${games.v2}/par-sheet?version=1`, { token: tokens });
    expect(first.body.data).toEqual(expectedSheet(config, { id: games.v1, version: 1 }));
  });

  it('answers the same sheet as CSV on Accept: text/csv: the figures, the levels, the ranges', async () => {
    const json = (await server.call('GET', `/v1/game/${games.v1}/par-sheet`, { token: tokens })).body.data;
    const csv = await server.call('GET', `/v1/game/${games.v1}/par-sheet`, {
      token: tokens,
      headers: { accept: 'text/csv' },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const records = readCsvRecords(csv.body as string);
    // Three tables, a blank line between them.
    const tables: string[][][] = [[]];
    for (const record of records) {
      if (record.length === 1 && record[0] === '') tables.push([]);
      else tables.at(-1)?.push(record);
    }
    const [figures = [], levels = [], ranges = []] = tables;
    const { levels: jsonLevels, ranges: jsonRanges, ...jsonFigures } = json;
    expect(figures).toEqual([
      ['figure', 'value'],
      ...Object.entries(jsonFigures).map(([name, value]) => [name, String(value)]),
    ]);
    expect(levels[0]).toEqual(['level', 'prize', 'multiple', 'winners', 'probability', 'oneIn', 'rtpShare']);
    expect(levels.slice(1).map((row) => row.map(Number))).toEqual(
      jsonLevels.map((level: Record<string, number>) => Object.values(level)),
    );
    expect(ranges).toEqual([
      ['cards', 'p90Low', 'p90High', 'p99Low', 'p99High', 'method'],
      ...jsonRanges.map((range: { cards: number; p90: number[]; p99: number[]; method: string }) =>
        [range.cards, ...range.p90, ...range.p99, range.method].map(String),
      ),
    ]);
  });

  it('answers another client’s game as an unknown one, and bad input with the error envelope', async () => {
    const unknown = await server.call('GET', '/v1/game/no-such-game/par-sheet', { token: other });
    expect(unknown).toMatchObject({ status: 404, body: { status: 'error', code: 'NOT_FOUND' } });
    expectAnsweredAsUnknown(
      await server.call('GET', `/v1/game/${games.v1}/par-sheet`, { token: other }),
      unknown,
      { theirs: games.v1, unknown: 'no-such-game' },
    );
    const cases: Array<[string, number, string]> = [
      [`/v1/game/${'x'.repeat(101)}/par-sheet`, 400, 'VALIDATION_ERROR'],
      [`/v1/game/${games.v1}/par-sheet?version=one`, 400, 'VALIDATION_ERROR'],
      [`/v1/game/${games.v1}/par-sheet?version=3`, 404, 'NOT_FOUND'],
    ];
    for (const [path, status, code] of cases) {
      const answer = await server.call('GET', path, { token: tokens, headers: { accept: 'text/csv' } });
      expect([path, answer.status, answer.body.code]).toEqual([path, status, code]);
      expect(answer.body.messages.length).toBeGreaterThan(0);
    }
    const anonymous = await server.call('GET', `/v1/game/${games.v1}/par-sheet`);
    expect(anonymous).toMatchObject({ status: 401, body: { status: 'error', code: 'UNAUTHORIZED' } });
  });

  it('is in the OpenAPI document with its schema and its CSV form', async () => {
    const document = (await server.call('GET', '/v1/openapi.json')).body;
    const content = document.paths['/v1/game/{id}/par-sheet'].get.responses['200'].content;
    expect(Object.keys(content)).toEqual(['application/json', 'text/csv']);
    expect(Object.keys(document.components.schemas.ParSheet.properties)).toEqual([
      'gameId',
      'version',
      'gameModel',
      'betPrice',
      'sampling',
      'rtp',
      'hitFrequency',
      'stdDev',
      'maxWinMultiple',
      'levels',
      'ranges',
    ]);
  });
});

/** The certification pack of a game, unzipped: each member's text by name. */
async function downloadPack(gameId: string): Promise<Map<string, string>> {
  const response = await fetch(`${server.url}/v1/game/${gameId}/certification`, {
    headers: { authorization: `Bearer ${tokens.accessToken}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/zip');
  const pack = readPack(new Uint8Array(await response.arrayBuffer()));
  expect([...pack.keys()]).toEqual([...PACK_MEMBERS]);
  return pack;
}

describe('GET /v1/game/{id}/certification', () => {
  it('answers a zip of the PAR sheet, the configuration, the pools, VERIFY.md and the build', async () => {
    const pack = await downloadPack(games.v1);
    const text = (name: string) => pack.get(name) ?? '';
    const sheet = await server.call('GET', `/v1/game/${games.v1}/par-sheet`, { token: tokens });
    expect(JSON.parse(text('par-sheet.json'))).toEqual(sheet.body.data);
    const csv = await server.call('GET', `/v1/game/${games.v1}/par-sheet`, {
      token: tokens,
      headers: { accept: 'text/csv' },
    });
    expect(text('par-sheet.csv')).toBe(csv.body);
    const pools = await server.call('GET', `/v1/game/${games.v1}/pools`, { token: tokens });
    expect(JSON.parse(text('pools.json'))).toEqual(pools.body.data);
    expect(JSON.parse(text('game.json'))).toMatchObject({
      id: games.v1,
      version: 1,
      rtp: 0.9,
      sampling: 200_000,
    });
    expect(text('VERIFY.md')).toContain(`pnpm verify-pool --game ${games.v1}`);
    const build = JSON.parse(text('build.json'));
    expect(build).toMatchObject({ version: expect.any(String), node: process.version });
    expect(build.sourceHash).toMatch(/^[0-9a-f]{64}$/);

    const theirs = await server.call('GET', `/v1/game/${games.v1}/certification`, { token: other });
    const unknown = await server.call('GET', '/v1/game/no-such-game/certification', { token: other });
    expect(unknown.status).toBe(404);
    expectAnsweredAsUnknown(theirs, unknown, { theirs: games.v1, unknown: 'no-such-game' });
  });
});

describe('the certification pack of a version whose pool ended', () => {
  it('publishes the pool’s seed, with which the pool verifies from the pack alone and with pnpm verify-pool', async () => {
    const profile = await server.call('POST', '/v1/profile', {
      token: tokens,
      body: { name: 'Ended pool', type: 'demo', currency: 'BRL' },
    });
    const profileId = profile.body.data.profileId;
    const created = await server.call('POST', '/v1/game', {
      token: tokens,
      body: { ...config, sampling: 100_001, profileId },
    });
    expect(created.status).toBe(201);
    const gameId: string = created.body.data.id;
    const player = await seatPlayer(server, { tokens, profileId, gameId }, 'pool-ender');
    // A card played starts the pool; then every ticket is drawn as the play service records it, and
    // the pool ends (its seed published).
    const play = server.running.app.services.play;
    const bought = await play.buy(player.sessionId);
    if (!bought.ok) throw new Error(`buy refused: ${bought.code}`);
    await play.reveal(player.sessionId, bought.data.round.roundId);
    const game = (await server.deps.store.games.findById(gameId)) as GameRecord;
    await drawPoolTo(server.deps, game, player, 0);

    const pack = await downloadPack(gameId);
    const text = (name: string) => pack.get(name) ?? '';
    const [pool, ...others] = JSON.parse(text('pools.json'));
    expect(others).toEqual([]);
    expect(pool).toMatchObject({ number: 1, draws: 100_001, endedAt: expect.any(String) });
    expect(pool.seed).toMatch(/^[0-9a-f]{64}$/);
    // What a lab does with the pack alone (VERIFY.md): the seed against the commitment, and the pool
    // re-derived from it holding the sheet's winners of each level.
    const [checked] = verifyPackPools(pack);
    expect(checked?.verification).toMatchObject({ ok: true, commitmentMatches: true, countsMatch: true });
    const winners = JSON.parse(text('par-sheet.json')).levels.map(
      (level: { winners: number }) => level.winners,
    );
    expect(checked?.verification.levelCounts.slice(1)).toEqual(winners);
    expect(text('VERIFY.md')).toContain(`pnpm verify-pool --game ${gameId}`);

    // What the operator runs (VERIFY.md's command), on the service's own database: every round too.
    const { DATA_DIR: _unused, DATABASE_URL: _theirs, ...inherited } = process.env;
    const run = await runCli('verify-pool', ['--game', gameId], {
      ...inherited,
      DATA_DIR: server.config.DATA_DIR,
      ...(server.config.DATABASE_URL && { DATABASE_URL: server.config.DATABASE_URL }),
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(`seed       ${pool.seed}`);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      'OK: 1 ended pool verified from the published seed.',
    );
    expect(run.code).toBe(0);
  });
});
