// sqlite-only: copies a SQLite file into a PostgreSQL database the test makes itself (both databases in one run)
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameRecord } from '../src/store/records.ts';
import { normalised } from '../src/store/transfer/table-digest.ts';
import { LOCAL_INTEGRATION, startTestServer, type TestServer, type TokenSet } from './harness.ts';
import { setUpOperatorGame } from './play-fixtures.ts';
import { drawPoolTo } from './pool-fixtures.ts';
import { createTestDatabase, type TestDatabase } from './postgres-database.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * `pnpm admin migrate-to-postgres` end to end: an embedded database filled by the real service
 * (an operator game with rounds of every status, wallet calls still pending, webhooks with
 * deliveries and queued events, a demo game, idempotency keys), the pool of the operator game
 * drawn to 3 tickets from its end; the command run as a child process; then the service on the
 * PostgreSQL copy, with the same DATA_DIR (so the same secret.key), finishes the pending calls,
 * ends that pool (opening the seed sealed on SQLite) and starts the next; `pnpm verify-pool` on
 * PostgreSQL checks it all.
 */
const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));
const TSX = join(SERVER_DIR, 'node_modules/.bin/tsx');
const SAMPLING = 100_001;
/** Tickets left in the operator game's first pool when the copy is made. */
const LEFT = 3;
const PLAY = {
  walletTimeoutMs: 1000,
  walletInFlightMs: 2000,
  walletRetryDelaysMs: [1000, 5000],
  tickMs: 3_600_000,
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(script: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      [join(SERVER_DIR, 'src', 'cli', script), ...args],
      { cwd: SERVER_DIR, env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

let operator: TestOperator;
let source: TestServer;
let dataDir: string;
let target: TestDatabase;
let tokens: TokenSet;
let game: GameRecord;
const sessions: Record<string, { sessionId: string; playerId: string }> = {};
let openRoundId: string;
let closingRoundId: string;
let unansweredBetRoundId: string;
/** The API's list totals before the copy (SQLite counts them with its own tables, PostgreSQL without). */
let roundTotal: number;
let transactionTotal: number;

const admin = (...args: string[]) => run('admin.ts', args, { DATA_DIR: dataDir });

async function session(profileId: string, gameId: string, credential: string, owner = tokens) {
  const user = await source.call('POST', '/v1/user/auth', {
    token: owner,
    body: { profileId, credential, credentialType: 'username' },
  });
  const started = await source.call('POST', '/v1/game/session', {
    token: owner,
    body: { userToken: user.body.data.userToken, gameId },
  });
  if (started.status !== 201) throw new Error(JSON.stringify(started.body));
  sessions[credential] = { sessionId: started.body.data.sessionId, playerId: user.body.data.userId };
  return sessions[credential];
}

async function playRounds(server: TestServer, sessionId: string, count: number): Promise<void> {
  const play = server.running.app.services.play;
  for (let i = 0; i < count; i++) {
    const bought = await play.buy(sessionId);
    if (!bought.ok) throw new Error(`buy refused: ${bought.code}`);
    const revealed = await play.reveal(sessionId, bought.data.round.roundId);
    if (!revealed.ok) throw new Error(`reveal refused: ${revealed.code}`);
  }
}

/** The id of a player's only round, read from the SQLite file. */
async function roundOf(playerId: string): Promise<string> {
  const db = new Database(join(dataDir, 'raspa.sqlite'), { readonly: true });
  try {
    const rows = db.prepare('SELECT id, status FROM rounds WHERE player_id = ?').all(playerId) as {
      id: string;
    }[];
    if (rows.length !== 1) throw new Error(`expected one round, found ${JSON.stringify(rows)}`);
    return rows[0]?.id ?? '';
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  operator = await startTestOperator();
  source = await startTestServer({ env: LOCAL_INTEGRATION, play: PLAY });
  dataDir = source.config.DATA_DIR;
  const setup = await setUpOperatorGame(source, operator, { prizedPercent: 0.5 });
  tokens = setup.tokens;
  game = (await source.deps.store.games.findById(setup.gameId)) as GameRecord;
  const play = source.running.app.services.play;

  // Closed rounds, then the pool drawn to 3 tickets from its end.
  const regular = await session(setup.profileId, game.id, 'regular');
  await playRounds(source, regular.sessionId, 4);
  await drawPoolTo(source.deps, game, regular, LEFT);
  // A round left open (bought, not revealed).
  const opener = await session(setup.profileId, game.id, 'opener');
  const bought = await play.buy(opener.sessionId);
  if (!bought.ok) throw new Error(bought.code);
  openRoundId = bought.data.round.roundId;
  // A declined bet, and a bet without an answer rolled back (voided).
  const declined = await session(setup.profileId, game.id, 'declined');
  operator.failNext('bet', 'decline');
  expect((await play.buy(declined.sessionId)).ok).toBe(false);
  const voided = await session(setup.profileId, game.id, 'voided');
  operator.failNext('bet', 'http500');
  expect((await play.buy(voided.sessionId)).ok).toBe(false);
  await play.settleDue();
  // A bet without an answer (rolled back at once: voided; settled again on PostgreSQL, unchanged)…
  const unanswered = await session(setup.profileId, game.id, 'unanswered');
  operator.failNext('bet', 'http500');
  expect((await play.buy(unanswered.sessionId)).ok).toBe(false);
  unansweredBetRoundId = await roundOf(unanswered.playerId);
  // …and a prize the wallet failed (the pool's last 3 tickets stay for PostgreSQL: this game has
  // its own profile and pool).
  const winners = await setUpOperatorGame(source, operator, { prizedPercent: 1 });
  const winner = await session(winners.profileId, winners.gameId, 'winner', winners.tokens);
  const won = await play.buy(winner.sessionId);
  if (!won.ok) throw new Error(won.code);
  operator.failNext('prize', 'http500');
  await play.reveal(winner.sessionId, won.data.round.roundId);
  closingRoundId = won.data.round.roundId;
  // Webhook deliveries that failed, with their events still queued.
  operator.webhookAnswers(500, 500, 500);

  // A demo game (the built-in wallet's tables), and a write with an Idempotency-Key.
  const demo = await source.call('POST', '/v1/profile', {
    token: tokens,
    body: { name: 'Demo room', type: 'demo', currency: 'BRL' },
    headers: { 'Idempotency-Key': 'demo-profile-1' },
  });
  const demoGame = await source.call('POST', '/v1/game', {
    token: tokens,
    body: {
      profileId: demo.body.data.profileId,
      gameModel: 'fera-sortuda',
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
  const demoPlayer = await session(demo.body.data.profileId, demoGame.body.data.id, 'demo-player');
  await playRounds(source, demoPlayer.sessionId, 2);

  roundTotal = (await source.call('GET', '/v1/round?pageSize=1', { token: tokens })).body.totalCount;
  transactionTotal = (await source.call('GET', '/v1/transaction?pageSize=1', { token: tokens })).body
    .totalCount;
  // The service stops; its DATA_DIR (the SQLite file and secret.key) stays.
  await source.running.close();
  await source.deps.store.close();
  target = await createTestDatabase();
}, 240_000); // a bound for a loaded 2-core machine

afterAll(async () => {
  await operator?.close();
  await target?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Every table's rows, each as a sorted list of normalised rows, from both sides. */
async function tablesOnBothSides() {
  const sqlite = new Database(join(dataDir, 'raspa.sqlite'), { readonly: true });
  sqlite.defaultSafeIntegers(true);
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    const tables = (
      await client.query<{ name: string }>(
        "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations' ORDER BY 1",
      )
    ).rows.map((row) => row.name);
    const inSqlite = new Set(
      (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (row) => row.name,
      ),
    );
    const sides = { sqlite: {} as Record<string, string[]>, postgres: {} as Record<string, string[]> };
    for (const table of tables) {
      const { rows, fields } = await client.query(`SELECT * FROM ${table}`);
      // PostgreSQL's queue of pending wallet calls (its migration 017): filled by its trigger as the
      // transactions are copied, one row per pending one, at its next_attempt_at.
      if (table === 'wallet_calls_due') {
        const pending = await client.query(
          "SELECT id AS transaction_id, next_attempt_at FROM transactions WHERE status = 'pending'",
        );
        const byId = (list: Record<string, unknown>[]) =>
          list.map((row) => JSON.stringify([row.transaction_id, row.next_attempt_at])).sort();
        expect(byId(rows), table).toEqual(byId(pending.rows));
        continue;
      }
      // PostgreSQL's own (the Socket.IO adapter's attachments, its folded list counts): nothing
      // copied, and empty.
      if (!inSqlite.has(table) || table.startsWith('ledger_')) {
        expect(rows, table).toEqual([]);
        continue;
      }
      // PostgreSQL's own columns (written_xid, the folds' watermark) have no SQLite twin.
      const inSqliteTable = new Set(
        (sqlite.pragma(`table_info(${table})`) as { name: string }[]).map((column) => column.name),
      );
      const columns = fields.map((field) => field.name).filter((name) => inSqliteTable.has(name));
      const lines = (list: Record<string, unknown>[]) =>
        list.map((row) => JSON.stringify(columns.map((column) => normalised(row[column])))).sort();
      sides.postgres[table] = lines(rows);
      sides.sqlite[table] = lines(
        sqlite.prepare(`SELECT ${columns.join(', ')} FROM ${table}`).all() as never,
      );
    }
    return sides;
  } finally {
    sqlite.close();
    await client.end();
  }
}

// Each command is a child process compiling TypeScript (tsx): seconds each on a quiet 2-core machine, and
// the copy took over 180 s in a clean-clone run beside five other sessions' work (load average 30). The
// bound only guards against a hang, so it is far above any working run.
describe('pnpm admin migrate-to-postgres', { timeout: 600_000 }, () => {
  it('refuses what it cannot reach or read with a clear error, exit 1, and no stack trace', async () => {
    const unreachable = await admin('migrate-to-postgres', '--to', 'postgres://raspa@127.0.0.1:1/raspa');
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('error: cannot reach the PostgreSQL server');
    // The database's name with _missing: the path of the URL (its query may name the socket's folder).
    const missing = new URL(target.url);
    missing.pathname = `${missing.pathname}_missing`;
    const noDatabase = await admin('migrate-to-postgres', '--to', missing.href);
    expect(noDatabase.code).toBe(1);
    expect(noDatabase.stderr).toMatch(/error: database "\w+_missing" does not exist/);
    const noFile = await admin(
      'migrate-to-postgres',
      '--to',
      target.url,
      '--data-dir',
      join(dataDir, 'nothing'),
    );
    expect(noFile.code).toBe(1);
    expect(noFile.stderr).toContain('error: there is no embedded database at');
    for (const answer of [unreachable, noDatabase, noFile]) expect(answer.stderr).not.toMatch(/\n\s+at /);
    // Not a PostgreSQL URL at all: a usage error (2), as every bad argument of `pnpm admin`.
    const notPostgres = await admin('migrate-to-postgres', '--to', 'mysql://db/raspa');
    expect(notPostgres.code).toBe(2);
    expect(notPostgres.stderr).toContain('--to: must be a postgres:// or postgresql:// URL');
    expect((await admin('migrate-to-postgres')).stderr).toContain('error: --to is required');
  });

  it('copies every table, checked row for row, and says what it did', async () => {
    const copied = await admin('migrate-to-postgres', '--to', target.url);
    expect(copied.stderr).toBe('');
    expect(copied.code).toBe(0);
    const out = copied.stdout;
    expect(out).toContain('locked for writing until the copy ends (SQLite BEGIN IMMEDIATE)');
    const rounds = (await tablesOnBothSides()).sqlite.rounds?.length;
    expect(out).toContain(`  rounds: ${rounds} rows copied`);
    expect(out).toMatch(
      new RegExp(`\\n  rounds +${rounds} rows   sums: paid_minor \\d+, prize_minor \\d+\\n`),
    );
    expect(out).toMatch(/ledger_day_counts: SQLite's per-day counts/);
    expect(out).toContain(`This installation's key is in ${join(dataDir, 'secret.key')}`);
    expect(out).not.toContain(readFileSync(join(dataDir, 'secret.key'), 'utf8').trim());

    const sides = await tablesOnBothSides();
    expect(sides.postgres).toEqual(sides.sqlite);
    for (const table of [
      'rounds',
      'transactions',
      'pools',
      'webhook_events',
      'webhook_deliveries',
      'idempotency_keys',
    ])
      expect(sides.postgres[table]?.length, table).toBeGreaterThan(0);
    expect(sides.postgres.demo_wallet_calls?.length).toBeGreaterThan(0);
    const statuses = new Set(sides.postgres.rounds?.map((line) => JSON.parse(line)[6]));
    expect(statuses).toEqual(new Set(['closed', 'open', 'closing', 'declined', 'voided']));
    // The prize the wallet failed is copied as a pending wallet call, with its attempt and next retry.
    expect(
      sides.postgres.transactions?.filter((line) => line.includes('"prize"') && line.includes('"pending"')),
    ).toHaveLength(1);
  });

  it('refuses a second run (the target is not empty) and changes nothing', async () => {
    const before = await tablesOnBothSides();
    const again = await admin('migrate-to-postgres', '--to', target.url);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('error: the target database is not empty');
    expect(await tablesOnBothSides()).toEqual(before);
  });

  it('the service on PostgreSQL carries on: pending calls settled, the pool ended with its sealed seed, verify-pool passes', async () => {
    const server = await startTestServer({
      env: { ...LOCAL_INTEGRATION, DATABASE_URL: target.url, DATA_DIR: dataDir },
      play: PLAY,
    });
    try {
      const play = server.running.app.services.play;
      // The API's totals, counted by PostgreSQL itself, are the ones SQLite's tables gave.
      expect((await server.call('GET', '/v1/round?pageSize=1', { token: tokens })).body.totalCount).toBe(
        roundTotal,
      );
      expect(
        (await server.call('GET', '/v1/transaction?pageSize=1', { token: tokens })).body.totalCount,
      ).toBe(transactionTotal);
      // The open round is revealed; the unanswered bet is rolled back and the failed prize paid, once due.
      expect(await play.reveal(sessions.opener?.sessionId ?? '', openRoundId)).toMatchObject({ ok: true });
      server.clock.advance(60_000);
      await play.settleDue();
      expect(await server.deps.store.rounds.findRound(closingRoundId)).toMatchObject({ status: 'closed' });
      expect(await server.deps.store.rounds.findRound(unansweredBetRoundId)).toMatchObject({
        status: 'voided',
      });
      // The last tickets of pool 1 and the first of pool 2.
      await playRounds(server, sessions.regular?.sessionId ?? '', LEFT + 2);
      const [pool1, pool2] = await server.deps.store.pools.listByGame(game.id);
      expect(pool1).toMatchObject({
        number: 1,
        draws: SAMPLING,
        endedAt: expect.any(String),
        seedHex: expect.any(String),
      });
      expect(pool2).toMatchObject({ number: 2, endedAt: null });
      expect(pool2?.draws).toBeGreaterThan(0);
      // Every ticket of both pools drawn once: the indexes SQLite drew, then PostgreSQL's, no gap, no repeat.
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      try {
        for (const pool of [pool1, pool2]) {
          const { rows } = await client.query<{ n: number; distinct: number; low: number; high: number }>(
            `SELECT count(*)::int AS n, count(DISTINCT draw_index)::int AS distinct, min(draw_index)::int AS low,
               max(draw_index)::int AS high FROM rounds WHERE pool_id = $1`,
            [pool?.id],
          );
          const draws = pool?.draws ?? 0;
          expect(rows[0]).toEqual({ n: draws, distinct: draws, low: 0, high: draws - 1 });
        }
      } finally {
        await client.end();
      }
      const verified = await run('verify-pool.ts', ['--game', game.id], {
        DATABASE_URL: target.url,
        DATA_DIR: dataDir,
      });
      expect(verified.stderr).toBe('');
      expect(verified.code).toBe(0);
      expect(verified.stdout).toContain(`Pool 1 (${pool1?.id}): 100001 tickets, 100001 drawn`);
      expect(verified.stdout).toContain('  ok   SHA-256(seed) is the commitment');
      expect(verified.stdout).not.toContain('FAIL');
    } finally {
      await server.close();
    }
  });
});
