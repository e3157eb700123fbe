import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { AUDIT_KEY_FILE } from '../src/audit/signing-key.ts';
import { setUpDemo } from '../src/demo/setup.ts';
import type { Logger } from '../src/logger.ts';
import { startTestServer, type TestServer, type TokenSet } from './harness.ts';
import { connectPlayer, eventually, type Player } from './play-fixtures.ts';
import { BIN, type Cluster, startCluster } from './postgres-cluster.ts';
import { runCli } from './run-cli.ts';

/**
 * Issue 36 item 2, on the database of the project it runs in (server: SQLite, server-postgres:
 * PostgreSQL): play, back up (`pnpm backup`; `pg_dump`), play more, restore into a new file (a
 * fresh cluster made by initdb, `pg_restore`), start the service on it: every list total, the
 * report, the pool and the balance are those of the backup, and a round played then is counted.
 * On PostgreSQL the source's transaction ids are first pushed past the fresh cluster's, as a
 * database in use for a while has them, so the folds' watermarks are ahead of the restored
 * cluster's ids: the case that undercounted before the start-up repair.
 */

const onPostgres = process.env.RASPA_TEST_STORE === 'postgres';
const DAY = '2026-03-01'; // the test clock's day: every round's
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface Seat {
  tokens: TokenSet;
  profileId: string;
  gameId: string;
  playerToken: string;
}

async function playRounds(player: Player, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const bought = await player.ask('buy');
    if (!bought.ok) throw new Error(JSON.stringify(bought));
    const revealed = await player.ask('reveal', { roundId: bought.data.round.roundId });
    if (!revealed.ok) throw new Error(JSON.stringify(revealed));
  }
}

/** What an operator reads of the installation: list totals (folded and not), report, pools, balance. */
async function figures(server: TestServer, seat: Seat) {
  const total = async (path: string) => {
    const answer = await server.call('GET', path, { token: seat.tokens });
    if (answer.status !== 200) throw new Error(`${path}: ${JSON.stringify(answer.body)}`);
    return answer.body.pagination.totalCount as number;
  };
  const data = async (path: string) => (await server.call('GET', path, { token: seat.tokens })).body.data;
  const player = await connectPlayer(server.url, seat.playerToken);
  const state = await player.ask('state');
  player.close();
  return {
    rounds: await total('/v1/round?pageSize=1'),
    roundsOfTheDay: await total(`/v1/round?pageSize=1&dateStart=${DAY}&dateEnd=${DAY}`),
    roundsOfTheProfile: await total(`/v1/round?pageSize=1&profileId=${seat.profileId}`),
    roundsWithABet: await total('/v1/round?pageSize=1&type=bet'),
    transactions: await total('/v1/transaction?pageSize=1'),
    bets: await total(`/v1/transaction?pageSize=1&type=bet&dateStart=${DAY}&dateEnd=${DAY}`),
    report: await data('/v1/report?groupBy=day'),
    pools: await data(`/v1/game/${seat.gameId}/pools`),
    balance: state.ok ? state.data.player.balance : state,
  };
}

/** The folds' watermarks at or above `floor` (PostgreSQL: a transaction id; SQLite: a rowid). */
async function marksFrom(server: TestServer, floor: bigint): Promise<number> {
  const url = server.config.DATABASE_URL;
  if (url)
    return withClient(url, async (client) => {
      const { rows } = await client.query('SELECT folded_xid::text AS mark FROM ledger_count_folds');
      return rows.filter((row) => BigInt(row.mark) >= floor).length;
    });
  const db = new Database(join(server.dataDir, 'raspa.sqlite'), { readonly: true });
  try {
    const rows = db
      .prepare<[], { mark: number }>('SELECT folded_rowid AS mark FROM ledger_count_folds')
      .all();
    return rows.filter((row) => BigInt(row.mark) >= floor).length;
  } finally {
    db.close();
  }
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** This cluster's next transaction id. */
const nextXid = (url: string) =>
  withClient(url, async (client) => {
    const { rows } = await client.query('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next');
    return BigInt(rows[0].next);
  });

/**
 * Uses transaction ids until the cluster's next one is at least `target`: one subtransaction that
 * writes per id (a temporary table), in one statement.
 */
async function useTransactionIdsUpTo(url: string, target: bigint): Promise<void> {
  const missing = Number(target - (await nextXid(url)));
  if (missing <= 0) return;
  await withClient(url, async (client) => {
    await client.query('CREATE TEMP TABLE used_ids (n int)');
    await client.query(
      `DO $$ BEGIN FOR i IN 1..${missing} LOOP
         BEGIN INSERT INTO used_ids VALUES (i); EXCEPTION WHEN others THEN NULL; END;
       END LOOP; END $$`,
    );
  });
}

function runTool(binary: string, args: string[]): void {
  const result = spawnSync(join(BIN, binary), args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${binary} failed: ${result.stderr || result.error}`);
}

/** The backup, as the operator takes it: `pnpm backup` on SQLite, `pg_dump` on PostgreSQL. */
async function takeBackup(server: TestServer, folder: string): Promise<string> {
  const url = server.config.DATABASE_URL;
  if (url) {
    const file = join(folder, 'raspa.dump');
    runTool('pg_dump', ['--format=custom', `--file=${file}`, url]);
    return file;
  }
  const file = join(folder, 'raspa-backup.sqlite');
  const run = await runCli('backup', ['--out', file], { ...process.env, DATA_DIR: server.dataDir });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain(`to ${file}`);
  return file;
}

/**
 * A new DATA_DIR with the source's keys (an operator keeps them with the backups) and, on SQLite,
 * the backup as its database; on PostgreSQL the dump restored into a new database of a fresh
 * cluster. Answers the settings the restored service starts with.
 */
async function restore(
  source: TestServer,
  backup: string,
): Promise<{ env: Record<string, string>; cluster?: Cluster }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'raspa-restored-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  for (const key of ['secret.key', AUDIT_KEY_FILE])
    copyFileSync(join(source.dataDir, key), join(dataDir, key));
  if (!source.config.DATABASE_URL) {
    copyFileSync(backup, join(dataDir, 'raspa.sqlite'));
    return { env: { DATA_DIR: dataDir } };
  }
  const cluster = await startCluster([], { unsynced: true });
  cleanups.push(() => cluster.stop());
  await withClient(cluster.url, (client) => client.query('CREATE DATABASE raspa_restored'));
  const url = new URL(cluster.url);
  url.pathname = '/raspa_restored';
  runTool('pg_restore', [
    '--exit-on-error',
    '--single-transaction',
    '--no-owner',
    `--dbname=${url.href}`,
    backup,
  ]);
  return { env: { DATA_DIR: dataDir, DATABASE_URL: url.href }, cluster };
}

function recordingLogger(): Logger & { lines: Array<{ message: string; fields?: Record<string, unknown> }> } {
  const lines: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  const keep = (message: string, fields?: Record<string, unknown>) =>
    void lines.push({ message, ...(fields && { fields }) });
  return { lines, debug: () => {}, info: keep, warn: keep, error: keep };
}

describe('a backup restored into a new database', () => {
  it('has every total, report, pool and balance of the backup, and counts what is played after', async () => {
    const source = await startTestServer();
    cleanups.push(() => source.close());
    const demo = await setUpDemo(source.running.app.services, source.deps, undefined);
    if (!demo) throw new Error('expected a demo set-up on an empty database');
    const login = await source.call('POST', '/v1/auth/login', { body: { apiKey: demo.apiKey } });
    const seat: Seat = {
      tokens: login.body.data,
      profileId: demo.game.profileId,
      gameId: demo.game.gameId,
      playerToken: new URL(demo.game.gameUrl).searchParams.get('token') ?? '',
    };
    const player = await connectPlayer(source.url, seat.playerToken);
    await playRounds(player, 3);

    // Folded before the backup, so the copy carries counts and watermarks. On PostgreSQL the
    // watermarks are then past every id a fresh cluster hands out for a while.
    let floor = 1n;
    if (source.config.DATABASE_URL) {
      floor = 30_000n;
      await useTransactionIdsUpTo(source.config.DATABASE_URL, floor);
    }
    await eventually(async () => {
      // A list's read starts its fold (at most every 5 s per list).
      for (const list of ['round', 'transaction'])
        await source.call('GET', `/v1/${list}?pageSize=1`, { token: seat.tokens });
      return (await marksFrom(source, floor)) === (onPostgres ? 3 : 2);
    });
    await playRounds(player, 2); // past the watermarks at the backup

    const atBackup = await figures(source, seat);
    expect(atBackup.rounds).toBe(5);
    const folder = mkdtempSync(join(tmpdir(), 'raspa-backup-'));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const backup = await takeBackup(source, folder);
    await playRounds(player, 2);
    player.close();
    expect((await figures(source, seat)).rounds).toBe(7);

    const { env, cluster } = await restore(source, backup);
    const freshCluster = cluster?.dataDir !== undefined;
    if (freshCluster && env.DATABASE_URL)
      // The case under test: the restored cluster's ids are behind the copied watermarks.
      expect(await nextXid(env.DATABASE_URL)).toBeLessThan(floor);
    const logger = recordingLogger();
    const restored = await startTestServer({ env, deps: { logger } });
    cleanups.push(() => restored.close());
    const repairs = logger.lines.filter((line) => line.message.startsWith('restored database'));
    expect(repairs).toHaveLength(freshCluster ? 1 : 0);
    // At least the rounds played after the used ids: the others may lie below the new cluster's ids.
    const restamped = repairs[0]?.fields?.restamped as { rounds?: number } | undefined;
    if (freshCluster) expect(restamped?.rounds ?? 0).toBeGreaterThanOrEqual(2);

    expect(await figures(restored, seat)).toEqual(atBackup);
    const again = await connectPlayer(restored.url, seat.playerToken);
    await playRounds(again, 1);
    again.close();
    const after = await figures(restored, seat);
    expect(after).toMatchObject({
      rounds: 6,
      roundsOfTheDay: 6,
      roundsOfTheProfile: 6,
      roundsWithABet: 6,
      bets: atBackup.bets + 1,
    });
    expect(after.transactions).toBeGreaterThan(atBackup.transactions);
  });
});
