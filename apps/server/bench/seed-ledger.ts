import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { type GameModel, layoutCard, seededRng } from '@raspa/core';
import Database from 'better-sqlite3';
import { readConfig } from '../src/config.ts';
import { setUpDemo } from '../src/demo/setup.ts';
import { createIdGenerator } from '../src/ids.ts';
import { buildDeps } from '../src/server.ts';
import { createServices } from '../src/services/services.ts';
import type { GameRecord } from '../src/store/records.ts';
import { type Db, migrate } from '../src/store/sqlite/database.ts';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.ts';

/**
 * A ledger database for the API benchmark: one API client (the demo client the service's start
 * creates, with a known key), 5 profiles each with an active game, 10,000 players and N rounds
 * with their transactions over 90 days, written through the real migrations (003, the list
 * indexes and counts, runs on the loaded ledger, as on an operator's database). Built once per
 * (migrations, this file,
 * round count) and cached under the OS temp folder; a bench copies it.
 *
 * Every round is finished (closed, voided or declined): an open one would be closed by the
 * service's idle-round ticker at start, calling wallets while the bench measures. Rounds carry a
 * real card of their level but no pool (pool_id NULL): the lists never read pools, and a pool
 * would need a sealed seed that no bench checks.
 */

export const BENCH_API_KEY = 'rsp_bench-api-key-0123456789abcdef';
const DAYS = 90;
const PLAYERS = 10_000;
const CHUNK = 25_000; // rounds per write transaction
const MIGRATIONS_DIR = fileURLToPath(new URL('../src/store/sqlite/migrations/', import.meta.url));
const DAY_MS = 86_400_000;
/**
 * The migration of the list indexes and counts: it runs after the ledger is loaded, as on an
 * operator's database. Every other one runs before, so the store's statements find their columns.
 */
/** The lists' migrations, applied by migrate() once the ledger is in (012 needs 003's triggers). */
const LOADED_AFTER = ['003_', '012_'];

/** Running sums scaled to end at 1: draw index i when a uniform number falls below the i-th. */
function cumulative(weights: number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  const sums: number[] = [];
  let sum = 0;
  for (const weight of weights) {
    sum += weight;
    sums.push(sum / total);
  }
  return sums;
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

/**
 * A new database at the schema of every migration but LOADED_AFTER, with openDatabase's
 * settings; migrate() (database.ts) applies those once the ledger is in.
 */
function openLedgerBeforeLists(file: string): Db {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('temp_store = MEMORY');
  // The bookkeeping table as migrate() makes it, so that it skips what ran here.
  db.exec('CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL) STRICT');
  for (const name of readdirSync(MIGRATIONS_DIR).sort()) {
    if (!/^\d{3}_[\w-]+\.sql$/.test(name) || LOADED_AFTER.some((prefix) => name.startsWith(prefix))) continue;
    db.exec(readFileSync(join(MIGRATIONS_DIR, name), 'utf8'));
    db.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)').run(
      name,
      new Date().toISOString(),
    );
  }
  return db;
}

/** What the bench needs to know about a seeded database. */
export interface SeededLedger {
  /** A data folder (raspa.sqlite + secret.key): copy it before starting a service on it. */
  dir: string;
  apiKey: string;
  clientId: string;
  profiles: { id: string; gameId: string; gameModel: GameModel; currency: string; rounds: number }[];
  /** The player with the most rounds, and one with a typical number. */
  busyPlayer: { id: string; rounds: number };
  typicalPlayer: { id: string; rounds: number };
  rounds: number;
  transactions: number;
  /** First and last day with rounds (YYYY-MM-DD, UTC). */
  firstDay: string;
  lastDay: string;
  migrations: string[];
  buildSeconds: number;
  /** Where the build time went; `migrated`: the migrations run on the loaded ledger. */
  steps: { loadSeconds: number; indexSeconds: number; migrateSeconds: number; migrated: string[] };
  sizeMb: number;
}

const PROFILES: { name: string; currency: string; gameModel: GameModel; betPrice: number; share: number }[] =
  [
    // The demo profile (made by setUpDemo: BRL, oxe-ganhei) is the first.
    { name: 'Demo', currency: 'BRL', gameModel: 'oxe-ganhei', betPrice: 2, share: 0.3 },
    { name: 'Casa Norte', currency: 'BRL', gameModel: 'trem-de-ouro-v1', betPrice: 5, share: 0.25 },
    { name: 'Casa Sul', currency: 'BRL', gameModel: 'frevo-da-sorte', betPrice: 1, share: 0.2 },
    { name: 'Tokyo', currency: 'JPY', gameModel: 'bumba-meu-green', betPrice: 300, share: 0.15 },
    { name: 'Kuwait', currency: 'KWD', gameModel: 'fera-sortuda', betPrice: 0.5, share: 0.1 },
  ];

function sourcesKey(): { names: string[]; hash: string } {
  const names = readdirSync(MIGRATIONS_DIR)
    .filter((name) => name.endsWith('.sql'))
    .sort();
  const hash = createHash('sha256');
  // This file too: a change to what it writes must not reuse an older database.
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  for (const name of names) hash.update(name).update(readFileSync(join(MIGRATIONS_DIR, name)));
  return { names, hash: hash.digest('hex').slice(0, 12) };
}

/** Where the database for `rounds` rounds is cached (a new folder whenever a migration or this file changes). */
export function cacheDir(rounds: number): string {
  return join(tmpdir(), `raspa-bench-ledger-${rounds}-${sourcesKey().hash}`);
}

/**
 * The cached ledger for `rounds` rounds, built first when missing (or when `rebuild`).
 * `log` gets progress lines.
 */
export async function seedLedger(
  options: { rounds?: number; rebuild?: boolean; log?: (line: string) => void } = {},
): Promise<SeededLedger> {
  const rounds = options.rounds ?? 1_000_000;
  const log = options.log ?? (() => {});
  const dir = cacheDir(rounds);
  const metaFile = join(dir, 'seed.json');
  if (!options.rebuild && existsSync(metaFile)) {
    log(`reusing the seeded ledger in ${dir}`);
    return JSON.parse(readFileSync(metaFile, 'utf8')) as SeededLedger;
  }
  // Databases of older sources are never reused: make room (a million rounds take ~3 GB).
  const stale = `raspa-bench-ledger-${rounds}-`;
  for (const name of readdirSync(tmpdir()))
    if (name.startsWith(stale) && !name.includes('.building-'))
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  try {
    const meta = await build(building, rounds, log);
    const done = { ...meta, dir };
    writeFileSync(join(building, 'seed.json'), `${JSON.stringify(done, null, 2)}\n`);
    renameSync(building, dir); // whole or nothing: a half-built folder is never reused
    return done;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

/** Copies a seeded data folder to `target` (the service writes to its copy, never to the cache). */
export function copyLedger(seeded: SeededLedger, target: string): void {
  mkdirSync(target, { recursive: true });
  for (const name of ['raspa.sqlite', 'secret.key']) cpSync(join(seeded.dir, name), join(target, name));
}

async function build(dir: string, rounds: number, log: (line: string) => void) {
  const started = performance.now();
  const db = openLedgerBeforeLists(join(dir, 'raspa.sqlite'));
  const store = createSqliteStore(db);
  const configured = readConfig({
    DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    DEMO_API_KEY: BENCH_API_KEY,
    OUTBOUND_ALLOW_PRIVATE: 'true', // the profiles' walletUrl is on 127.0.0.1 (never called)
  });
  if (!configured.ok) throw new Error(configured.errors.join('; '));
  const deps = buildDeps(configured.config, { store });
  const services = createServices(deps);

  // The client, profiles and games exactly as the service and an integrator make them.
  const demo = await setUpDemo(services, deps, BENCH_API_KEY);
  if (!demo) throw new Error('the new database already had a client');
  const clientId = (await store.profiles.findById(demo.game.profileId))?.clientId;
  if (!clientId) throw new Error('the demo profile has no client');
  const auth = await services.auth.authenticate((await services.auth.issueTokenSet(clientId)).accessToken);
  if (!auth) throw new Error('a fresh token set did not authenticate');
  const games: GameRecord[] = [];
  for (const [index, spec] of PROFILES.entries()) {
    const profileId =
      index === 0
        ? demo.game.profileId
        : (
            await services.profiles.create(auth, {
              name: spec.name,
              type: 'operator',
              currency: spec.currency,
              walletUrl: 'http://127.0.0.1:9/wallet', // never called: every round is finished
              walletSignatureToken: randomBytes(24).toString('hex'),
              allowedOrigins: [],
            })
          ).id;
    if (index > 0) {
      await services.games.create(auth, {
        profileId,
        gameModel: spec.gameModel,
        lang: 'pt',
        currency: spec.currency,
        rtp: 0.9,
        sampling: 1_000_000,
        prizedPercent: 0.45,
        betPrice: spec.betPrice,
        simulation: false,
        replacePreviousVersion: false,
      });
    }
    const game = await store.games.findActive(profileId, spec.gameModel);
    if (!game) throw new Error(`no active game for profile ${spec.name}`);
    games.push(game);
  }

  // The ledger itself, in large transactions, into tables without their indexes (built after,
  // sorted: far faster than a million inserts all over them). The cache is rebuilt rather than
  // recovered, so the load skips fsyncs and foreign-key checks (the rows are consistent by
  // construction); the service opens the file with synchronous=FULL and foreign keys on.
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1048576');
  db.pragma('foreign_keys = OFF');
  const ledgerIndexes = db
    .prepare<[], { name: string; sql: string }>(
      `SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL
       AND tbl_name IN ('rounds', 'transactions')`,
    )
    .all();
  for (const { name } of ledgerIndexes) db.exec(`DROP INDEX ${name}`);
  const rng = seededRng(20_261_122);
  const end = Date.UTC(2026, 10, 20); // a fixed timeline: the same database on every machine
  const start = end - DAYS * DAY_MS;
  let simulatedNow = start;
  const newId = createIdGenerator(
    () => new Date(simulatedNow),
    (bytes) => {
      const buffer = Buffer.allocUnsafe(bytes);
      for (let i = 0; i < bytes; i++) buffer[i] = Math.floor(rng() * 256);
      return buffer;
    },
  );
  const iso = (ms: number) => new Date(ms).toISOString();

  const insertPlayer =
    db.prepare(`INSERT INTO players (id, client_id, profile_id, credential, credential_type,
    balance_minor, bet_wins, total_bets, created_at) VALUES (?, ?, ?, ?, 'email', ?, 0, 0, ?)`);
  const insertSession = db.prepare(`INSERT INTO game_sessions (id, client_id, profile_id, player_id, game_id,
    token_hash, lang, return_url, expire_at, created_at) VALUES (?, ?, ?, ?, ?, ?, 'pt', NULL, ?, ?)`);
  const insertRound =
    db.prepare(`INSERT INTO rounds (id, client_id, profile_id, game_id, player_id, session_id,
    status, currency, paid_minor, prize_minor, created_at, end_at, level, card_json, last_action_at, reconciliation)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertTransaction =
    db.prepare(`INSERT INTO transactions (id, round_id, client_id, profile_id, player_id,
    type, amount_minor, currency, balance_before_minor, balance_after_minor, status, created_at,
    original_transaction_id, attempts, next_attempt_at, last_error, completed_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`);
  const updatePlayer = db.prepare(
    'UPDATE players SET balance_minor = ?, total_bets = ?, bet_wins = ? WHERE id = ?',
  );

  // Players: spread over the profiles, joined during the first weeks, one session each.
  const perProfile = PLAYERS / games.length;
  const players: { id: string; sessionId: string; balance: number; bets: number; wins: number }[][] = [];
  db.transaction(() => {
    for (const [p, game] of games.entries()) {
      const seats = [];
      for (let i = 0; i < perProfile; i++) {
        simulatedNow = start + Math.floor(rng() * 21 * DAY_MS);
        const id = newId();
        const sessionId = newId();
        const balance = 5000 * game.betMinor;
        const joined = iso(simulatedNow);
        insertPlayer.run(id, clientId, game.profileId, `player-${p}-${i}@bench.test`, balance, joined);
        insertSession.run(
          sessionId,
          clientId,
          game.profileId,
          id,
          game.id,
          randomBytes(16).toString('hex'),
          iso(simulatedNow + 7_200_000),
          joined,
        );
        seats.push({ id, sessionId, balance, bets: 0, wins: 0 });
      }
      players.push(seats);
    }
  })();

  // Real cards of each level (a few per level), as the play loop stores them.
  const cards = games.map((game) =>
    Array.from({ length: 9 }, (_, level) =>
      Array.from({ length: 8 }, () => JSON.stringify(layoutCard(game.gameModel, game.ladder, level, rng))),
    ),
  );
  // Cumulative winner counts per game, to draw prized levels in their real proportions.
  const levelOdds = games.map((game) => cumulative(game.ladder.levels.map((level) => level.winners)));
  const cumulativeShare = cumulative(PROFILES.map((spec) => spec.share));

  const step = (end - start) / rounds;
  const roundsByProfile = games.map(() => 0);
  const roundsByPlayer = new Map<string, number>();
  let transactions = 0;
  let written = 0;
  const writeChunk = db.transaction((count: number) => {
    for (let n = 0; n < count; n++, written++) {
      const at = Math.floor(start + (written + rng()) * step);
      const u = rng();
      let p = cumulativeShare.findIndex((share) => u < share);
      if (p < 0) p = games.length - 1;
      const game = games[p] as GameRecord;
      roundsByProfile[p] = (roundsByProfile[p] ?? 0) + 1;
      const seats = players[p] ?? [];
      // Skewed towards a few regulars: the busiest player has ~0.6% of its profile's rounds.
      const seat = seats[Math.floor(seats.length * rng() ** 1.5)] ?? seats[0];
      if (!seat) throw new Error('no players');
      roundsByPlayer.set(seat.id, (roundsByPlayer.get(seat.id) ?? 0) + 1);
      const bet = game.betMinor;
      const fate = rng();
      const outcome = fate < 0.006 ? 'declined' : fate < 0.016 ? 'voided' : 'closed';
      let level = 0;
      if (outcome === 'closed' && rng() < 0.45) {
        const v = rng();
        level = (levelOdds[p] ?? []).findIndex((odds) => v < odds) + 1 || 1;
      }
      const prize = level > 0 ? (game.ladder.levels[level - 1]?.prize ?? 0) : 0;
      const reconciliation = prize > 0 && rng() < 0.001; // the prize never got through
      const endAt = at + (outcome === 'declined' ? 150 : 2_000 + Math.floor(rng() * 20_000));

      simulatedNow = at;
      const roundId = newId();
      const betId = newId();
      const card = outcome === 'declined' ? null : (cards[p]?.[level]?.[Math.floor(rng() * 8)] ?? null);
      insertRound.run(
        roundId,
        clientId,
        game.profileId,
        game.id,
        seat.id,
        seat.sessionId,
        outcome,
        game.currency,
        bet,
        prize,
        iso(at),
        iso(endAt),
        outcome === 'declined' ? null : level,
        card,
        iso(endAt),
        reconciliation ? 1 : 0,
      );
      const before = seat.balance;
      const declined = outcome === 'declined';
      insertTransaction.run(
        betId,
        roundId,
        clientId,
        game.profileId,
        seat.id,
        'bet',
        -bet,
        game.currency,
        declined ? null : before,
        declined ? null : before - bet,
        declined ? 'declined' : outcome === 'voided' ? 'failed' : 'completed',
        iso(at),
        null,
        1,
        declined ? 'INSUFFICIENT_FUNDS' : outcome === 'voided' ? 'wallet time-out' : null,
        declined || outcome === 'voided' ? null : iso(at + 40),
      );
      transactions++;
      if (declined) continue;
      seat.bets++;
      seat.balance -= bet;
      if (outcome === 'voided' || prize > 0) {
        simulatedNow = endAt;
        const amount = outcome === 'voided' ? bet : prize;
        const paid = !reconciliation;
        insertTransaction.run(
          newId(),
          roundId,
          clientId,
          game.profileId,
          seat.id,
          outcome === 'voided' ? 'rollback' : 'prize',
          amount,
          game.currency,
          paid ? seat.balance : null,
          paid ? seat.balance + amount : null,
          paid ? 'completed' : 'failed',
          iso(endAt),
          outcome === 'voided' ? betId : null,
          paid ? 1 : 12,
          paid ? null : 'wallet answered 503',
          paid ? iso(endAt + 40) : null,
        );
        transactions++;
        if (paid) seat.balance += amount;
        if (prize > 0) seat.wins++;
      }
    }
  });

  const loadStarted = performance.now();
  while (written < rounds) {
    writeChunk(Math.min(CHUNK, rounds - written));
    if (written % (CHUNK * 8) === 0 || written === rounds) {
      const elapsed = (performance.now() - loadStarted) / 1000;
      log(
        `  ${written.toLocaleString('en')} rounds, ${transactions.toLocaleString('en')} transactions ` +
          `(${elapsed.toFixed(1)} s, ${Math.round(written / elapsed).toLocaleString('en')} rounds/s)`,
      );
    }
  }
  db.transaction(() => {
    for (const seats of players)
      for (const seat of seats) updatePlayer.run(seat.balance, seat.bets, seat.wins, seat.id);
  })();
  const loadSeconds = seconds(loadStarted);
  let stepStarted = performance.now();
  for (const { sql } of ledgerIndexes) db.exec(sql);
  const indexSeconds = seconds(stepStarted);
  log(`  ${ledgerIndexes.length} ledger indexes built in ${indexSeconds} s`);
  // The remaining migrations run on the full ledger, as they would on an operator's database.
  stepStarted = performance.now();
  db.pragma('foreign_keys = ON');
  const migrated = migrate(db);
  const migrateSeconds = seconds(stepStarted);
  log(`  migrations ${migrated.join(', ') || '(none)'} applied to the loaded ledger in ${migrateSeconds} s`);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();

  const ranked = [...roundsByPlayer.entries()].sort((a, b) => b[1] - a[1]);
  const [busyId, busyRounds] = ranked[0] ?? ['', 0];
  const [typicalId, typicalRounds] = ranked[Math.floor(ranked.length / 2)] ?? ['', 0];
  return {
    apiKey: BENCH_API_KEY,
    clientId,
    profiles: games.map((game, p) => ({
      id: game.profileId,
      gameId: game.id,
      gameModel: game.gameModel,
      currency: game.currency,
      rounds: roundsByProfile[p] ?? 0,
    })),
    busyPlayer: { id: busyId, rounds: busyRounds },
    typicalPlayer: { id: typicalId, rounds: typicalRounds },
    rounds,
    transactions,
    firstDay: iso(start).slice(0, 10),
    lastDay: iso(end - 1).slice(0, 10),
    migrations: sourcesKey().names,
    buildSeconds: Number(seconds(started)),
    steps: {
      loadSeconds: Number(loadSeconds),
      indexSeconds: Number(indexSeconds),
      migrateSeconds: Number(migrateSeconds),
      migrated,
    },
    sizeMb: Math.round(statSync(join(dir, 'raspa.sqlite')).size / 2 ** 20),
  };
}

// As a command: `node --import tsx apps/server/bench/seed-ledger.ts [--rounds N] [--rebuild]`.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '1000000' }, rebuild: { type: 'boolean', default: false } },
  });
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) {
    console.error('usage: seed-ledger [--rounds N] [--rebuild]');
    process.exit(2);
  }
  const seeded = await seedLedger({ rounds, rebuild: values.rebuild, log: (line) => console.log(line) });
  console.log(JSON.stringify(seeded, null, 2));
}
