import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import type { LedgerTransaction, RoundRecord } from '../src/store/records.ts';
import { createRoundsRepo } from '../src/store/repos/rounds-repo.ts';
import type { Db } from '../src/store/sqlite/database.ts';
import { createSqliteExec } from '../src/store/sqlite/exec.ts';
import { loadAverage } from './kit/machine.ts';
import { report } from './kit/report.ts';

/**
 * What the list indexes and counts cost the play loop's writes: the ledger writes of a round (the
 * round, its bet, the state changes, a prize for 45% of them), through the play loop's own
 * repository, on three schemas: without the lists' migrations (003, 012), with 003 (its indexes and
 * the triggers that upserted a ledger_counts row per insert), and with 012 too (the triggers'
 * counter rows gone, issue 23; the indexes and round_types kept), in group commits of --batch rounds
 * with synchronous=FULL on disk, after --preload rounds so the indexes have their depth.
 * Reports CPU and wall time per round. Measurement only; stops by itself.
 */

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '20000' },
    preload: { type: 'string', default: '200000' },
    batch: { type: 'string', default: '50' },
    runs: { type: 'string', default: '3' },
  },
});
const rounds = Number(values.rounds);
const preload = Number(values.preload);
const batch = Number(values.batch);
const runs = Number(values.runs);
const MIGRATIONS_DIR = fileURLToPath(new URL('../src/store/sqlite/migrations/', import.meta.url));
const LISTS_MIGRATION = '003_ledger_lists.sql';
const FOLDED_MIGRATION = '012_ledger_day_counts.sql';

/** Which of the lists' migrations a schema has. */
const SCHEMAS = {
  'without 003': [],
  'with 003 (counter triggers)': [LISTS_MIGRATION],
  'with 003 and 012 (no counter row)': [LISTS_MIGRATION, FOLDED_MIGRATION],
} as const;
type Schema = keyof typeof SCHEMAS;
const LISTS = new Set<string>([LISTS_MIGRATION, FOLDED_MIGRATION]);

function openLedger(file: string, schema: Schema): Db {
  const db = new Database(file);
  // openDatabase's settings (database.ts), with the migrations picked here.
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('temp_store = MEMORY');
  for (const name of readdirSync(MIGRATIONS_DIR).sort()) {
    const kept: readonly string[] = SCHEMAS[schema];
    if (!name.endsWith('.sql') || (LISTS.has(name) && !kept.includes(name))) continue;
    db.exec(readFileSync(join(MIGRATIONS_DIR, name), 'utf8'));
  }
  const now = '2026-01-01T00:00:00.000Z';
  db.exec(`INSERT INTO api_clients (id, name, email, api_key_hash, created_at)
      VALUES ('client', 'c', 'c@bench.test', 'hash', '${now}');
    INSERT INTO profiles (id, client_id, name, type, currency, created_at, updated_at)
      VALUES ('profile', 'client', 'p', 'demo', 'BRL', '${now}', '${now}');
    INSERT INTO games (id, client_id, profile_id, game_model, version, active, lang, currency, rtp_ppm, sampling,
      prized_ppm, bet_minor, ladder_json, created_at)
      VALUES ('game', 'client', 'profile', 'oxe-ganhei', 1, 1, 'pt', 'BRL', 900000, 1000000, 450000, 200, '{}', '${now}')`);
  const player =
    db.prepare(`INSERT INTO players (id, client_id, profile_id, credential, credential_type, created_at)
    VALUES (?, 'client', 'profile', ?, 'username', '${now}')`);
  const session =
    db.prepare(`INSERT INTO game_sessions (id, client_id, profile_id, player_id, game_id, token_hash,
    lang, expire_at, created_at) VALUES (?, 'client', 'profile', ?, 'game', ?, 'pt', '${now}', '${now}')`);
  db.transaction(() => {
    for (let p = 0; p < PLAYERS; p++) {
      player.run(`player-${p}`, `player-${p}`);
      session.run(`session-${p}`, `player-${p}`, `token-${p}`);
    }
  })();
  return db;
}

const PLAYERS = 2000;
const CARD = JSON.stringify({ model: 'oxe-ganhei', cells: Array.from({ length: 9 }, (_, i) => 100 * i) });

/** The ledger writes of rounds from..to, as the play loop makes them, `batch` rounds per commit. */
function writeRounds(db: Db, from: number, to: number, perCommit: number): void {
  // On SQLite each method's first statement runs when it is called: inside this synchronous
  // transaction, so the promises are not awaited (each of these methods runs one statement).
  const repo = createRoundsRepo(createSqliteExec(db));
  const commit = db.transaction((start: number, end: number) => {
    for (let n = start; n < end; n++) {
      const at = new Date(Date.UTC(2026, 0, 1) + n * 7_000).toISOString();
      const later = new Date(Date.UTC(2026, 0, 1) + n * 7_000 + 3_000).toISOString();
      const id = `r-${String(n).padStart(10, '0')}`;
      const p = (n * 7919) % PLAYERS;
      const round: RoundRecord = {
        id,
        clientId: 'client',
        profileId: 'profile',
        gameId: 'game',
        playerId: `player-${p}`,
        sessionId: `session-${p}`,
        status: 'pending',
        currency: 'BRL',
        paidMinor: 200,
        prizeMinor: 0,
        createdAt: at,
        endAt: null,
        poolId: null,
        drawIndex: null,
        level: null,
        cardJson: null,
        lastActionAt: at,
        reconciliation: false,
        prizeTransactionId: null,
        promotionId: null,
        test: false,
      };
      const bet: LedgerTransaction = {
        id: `${id}-bet`,
        roundId: id,
        clientId: 'client',
        profileId: 'profile',
        playerId: round.playerId,
        type: 'bet',
        amountMinor: -200,
        currency: 'BRL',
        balanceBeforeMinor: null,
        balanceAfterMinor: null,
        status: 'pending',
        createdAt: at,
        originalTransactionId: null,
        attempts: 1,
        nextAttemptAt: at,
        lastError: null,
        completedAt: null,
      };
      void repo.insertRound(round);
      void repo.insertTransaction(bet);
      void repo.updateTransaction(bet.id, {
        status: 'completed',
        balanceBeforeMinor: 10_000,
        balanceAfterMinor: 9_800,
      });
      const won = n % 20 < 9;
      void repo.updateRound(id, {
        status: 'open',
        level: won ? 1 : 0,
        cardJson: CARD,
        prizeMinor: won ? 400 : 0,
      });
      if (won) {
        const prize = {
          ...bet,
          id: `${id}-prize`,
          type: 'prize' as const,
          amountMinor: 400,
          createdAt: later,
        };
        void repo.insertTransaction(prize);
        void repo.updateTransaction(prize.id, { status: 'completed', completedAt: later });
      }
      void repo.updateRound(id, { status: 'closed', endAt: later, lastActionAt: later });
    }
  });
  for (let start = from; start < to; start += perCommit) commit(start, Math.min(to, start + perCommit));
}

interface Measured {
  schema: Schema;
  cpuMicrosPerRound: number;
  wallMicrosPerRound: number;
}

function measure(schema: Schema): Measured {
  const dir = mkdtempSync(join(tmpdir(), 'raspa-bench-writes-'));
  try {
    const db = openLedger(join(dir, 'raspa.sqlite'), schema);
    db.pragma('synchronous = OFF'); // the preload is set-up, not measured
    writeRounds(db, 0, preload, 5000);
    db.pragma('synchronous = FULL'); // as the service runs
    const cpu = process.cpuUsage();
    const started = performance.now();
    writeRounds(db, preload, preload + rounds, batch);
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    db.close();
    return {
      schema,
      cpuMicrosPerRound: Math.round(((used.user + used.system) / rounds) * 10) / 10,
      wallMicrosPerRound: Math.round(((wall * 1000) / rounds) * 10) / 10,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const schemas = Object.keys(SCHEMAS) as Schema[];
const samples: Measured[] = [];
for (let run = 0; run < runs; run++) for (const schema of schemas) samples.push(measure(schema));
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;
const summaries = Object.fromEntries(
  schemas.map((schema) => {
    const mine = samples.filter((sample) => sample.schema === schema);
    return [
      schema,
      {
        'CPU µs/round': median(mine.map((sample) => sample.cpuMicrosPerRound)),
        'wall µs/round': median(mine.map((sample) => sample.wallMicrosPerRound)),
      },
    ];
  }),
);
const load = loadAverage();
report(
  'ledger-writes',
  `node --import tsx apps/server/bench/ledger-writes.ts --rounds ${rounds} --preload ${preload} --batch ${batch} --runs ${runs}`,
  { rounds, preload, batch, runs, summaries, samples, loadAverage1m: load },
  summaries,
);
console.log(`load average (1 min) ${load} (CPU time is the steadier figure on a shared machine)`);
