import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { openConfiguredStore } from '../src/store/open-store.ts';
import type { Store } from '../src/store/store.ts';
import { CODE_GENERATION } from '../src/store/write-generation.ts';
import { WriteRefusedError } from '../src/store/write-guard.ts';
import { LOCAL_INTEGRATION, startTestServer, type TestServer } from './harness.ts';
import { eventually, type GameSetup, seatPlayer, setUpOperatorGame } from './play-fixtures.ts';
import { createTestDatabase, type TestDatabase } from './postgres-database.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * Upgrades that cannot mix incompatible instances (issue 36, store/write-generation.ts): instances
 * of two code generations on one database. The older one is run by opening its store with a
 * generation below this build's, which only a test can do (buildDeps in server.ts always opens it
 * with CODE_GENERATION).
 */
const onPostgres = process.env.RASPA_TEST_STORE === 'postgres';
const REFUSED = 'this instance writes nothing: its code is older than the database allows';

let database: TestDatabase | undefined;
const dir = mkdtempSync(join(tmpdir(), 'raspa-generations-'));
const file = join(dir, 'raspa.sqlite');
let operator: TestOperator;
let current: TestServer;
/** Stopped by the PostgreSQL-only test, to let a newer build go on. */
let currentStopped = false;
let older: TestServer;
let game: GameSetup;
const currentLines: string[] = [];
const olderLines: string[] = [];

const capture = (into: string[]) => createLogger('info', (line) => into.push(line));
const said = (lines: string[], msg: string) => lines.filter((line) => JSON.parse(line).msg === msg).length;

/**
 * A store on the test's one database, opened as buildDeps (server.ts) opens a serving instance's,
 * with the generation given.
 */
function openAs(id: string, generation: number, logger = capture([])): Store {
  return openConfiguredStore(
    { DATA_DIR: dir, ...(database && { DATABASE_URL: database.url }) },
    { instance: { id, generation }, logger },
  );
}

/** What a migration of a newer build does to the database (README.md beside the migrations). */
async function setMinimum(minimum: number): Promise<void> {
  if (database) {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query('UPDATE write_generation SET minimum = $1', [minimum]);
    await client.end();
    return;
  }
  const db = new Database(file);
  db.prepare('UPDATE write_generation SET minimum = ?').run(minimum);
  db.close();
}

async function serve(store: Store, lines: string[]): Promise<TestServer> {
  return startTestServer({
    // One installation: the same server key (the API's tokens are sealed with it), as docs/operating.md asks.
    env: {
      ...LOCAL_INTEGRATION,
      SECRET_KEY: 'ab'.repeat(32),
      ...(database && { DATABASE_URL: database.url }),
    },
    deps: { store, logger: capture(lines) },
    play: { walletTimeoutMs: 2000 },
  });
}

beforeAll(async () => {
  if (onPostgres) database = await createTestDatabase();
  operator = await startTestOperator();
  current = await serve(openAs('current', CODE_GENERATION, capture(currentLines)), currentLines);
  game = await setUpOperatorGame(current, operator, { prizedPercent: 0.5 });
  older = await serve(openAs('older', CODE_GENERATION - 1, capture(olderLines)), olderLines);
});

afterAll(async () => {
  await older?.close();
  if (currentStopped) rmSync(current.dataDir, { recursive: true, force: true });
  else await current?.close();
  await operator?.close();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** A won round open on the current instance (lost ones revealed on the way). */
async function openWonRound(sessionId: string): Promise<string> {
  const play = current.running.app.services.play;
  for (let i = 0; i < 40; i++) {
    const bought = await play.buy(sessionId);
    if (!bought.ok) throw new Error(`buy: ${bought.code}`);
    if (bought.data.round.prize > 0) return bought.data.round.roundId;
    await play.reveal(sessionId, bought.data.round.roundId);
  }
  throw new Error('no won card in 40');
}

describe('an instance older than the database allows', () => {
  it('writes nothing: its reveal of a won round is refused while the current one pays the one prize; /ready 503; the reason logged once', async () => {
    // The shipped migrations leave the minimum at this build's generation (README.md beside them).
    expect(current.deps.store.writer.blocked()).toBeUndefined();
    expect(older.deps.store.writer.refused()).toContain(`generation ${CODE_GENERATION - 1}`);

    const { sessionId } = await seatPlayer(current, game, 'generations-player');
    const roundId = await openWonRound(sessionId);
    const [byCurrent, byOlder, idleByOlder] = await Promise.allSettled([
      current.running.app.services.play.reveal(sessionId, roundId),
      older.running.app.services.play.reveal(sessionId, roundId),
      // What the older one's ticker would do (it never started): its store refuses the first call.
      older.running.app.services.play.closeIdleRounds(),
    ]);
    expect(byCurrent).toMatchObject({ status: 'fulfilled', value: { ok: true } });
    expect(byOlder).toEqual({ status: 'fulfilled', value: { ok: false, code: 'SERVICE_STOPPING' } });
    expect(idleByOlder.status).toBe('rejected');
    expect((idleByOlder as PromiseRejectedResult).reason).toBeInstanceOf(WriteRefusedError);

    const prizes = (await current.deps.store.rounds.transactionsOfRound(roundId)).filter(
      (t) => t.type === 'prize',
    );
    expect(prizes.map((t) => t.status)).toEqual(['completed']);
    expect(operator.moves.filter((m) => m.roundId === roundId && m.kind === 'prize')).toHaveLength(1);
    expect(await older.running.app.services.play.buy(sessionId)).toEqual({
      ok: false,
      code: 'SERVICE_STOPPING',
    });

    for (let i = 0; i < 3; i++) {
      const ready = await older.call('GET', '/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.messages[0]).toContain(`this build is generation ${CODE_GENERATION - 1}`);
    }
    // Its API answers 503 too, without a line per request.
    expect((await older.call('POST', '/v1/auth/login', { body: { apiKey: 'x'.repeat(40) } })).status).toBe(
      503,
    );
    expect(said(olderLines, REFUSED)).toBe(1);
    expect((await current.call('GET', '/ready')).status).toBe(200);
  });

  it.runIf(onPostgres)(
    'a build that raises the generation waits until no older instance is alive (PostgreSQL)',
    async () => {
      const nextLines: string[] = [];
      const next = openAs('next', CODE_GENERATION + 1, capture(nextLines)) as Store & {
        ready: Promise<void>;
      };
      // The current instance's heartbeat holds it back; the older one, refused, does not count.
      await eventually(() =>
        next.writer.blocked()?.includes(`no instance of generation ${CODE_GENERATION} is alive`),
      );
      expect(await next.ops.health()).toMatchObject({ ok: false });
      expect(said(nextLines, 'not serving yet: older instances are alive')).toBe(1);
      // The current instance stops: its heartbeat goes with it, and the next build goes on.
      currentStopped = true;
      await current.running.close();
      await current.deps.store.close();
      await next.ready;
      expect(await next.ops.health()).toEqual({ ok: true });
      expect(next.writer.isWritable()).toBe(true);
      await next.close();
    },
  );

  it('an instance refused while it runs (a newer build raised the minimum) stops writing at its next heartbeat', async () => {
    const lines: string[] = [];
    const late = await serve(openAs('late', CODE_GENERATION, capture(lines)), lines);
    try {
      const { sessionId } = await seatPlayer(late, game, 'late-player');
      await setMinimum(CODE_GENERATION + 1);
      await late.deps.store.writer.beat();
      expect(await late.running.app.services.play.buy(sessionId)).toEqual({
        ok: false,
        code: 'SERVICE_STOPPING',
      });
      await expect(late.deps.store.rounds.idleOpenRounds('2999-01-01T00:00:00.000Z', 1)).rejects.toThrow(
        WriteRefusedError,
      );
      const ready = await late.call('GET', '/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.messages[0]).toContain(`raised the database's generation to ${CODE_GENERATION + 1}`);
      expect(said(lines, REFUSED)).toBe(1);
    } finally {
      await setMinimum(CODE_GENERATION);
      await late.close();
    }
  });
});
