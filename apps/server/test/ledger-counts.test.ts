// sqlite-only: the per-day counts' SQLite tables and indexes, checked against plain SQL on the file
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRng } from '@raspa/core';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { type LedgerFilter, TRANSACTION_TYPES, type TransactionType } from '../src/store/records.ts';
import { createLedgerRepo } from '../src/store/repos/ledger-repo.ts';
import { type Db, migrate, openDatabase } from '../src/store/sqlite/database.ts';
import { createSqliteExec } from '../src/store/sqlite/exec.ts';
import { createLedgerCounts } from '../src/store/sqlite/ledger-counts.ts';
import { queryPlan, type RecordedStatement, recordingDb } from './sql-recorder.ts';

/**
 * The lists read totals from per-day counts folded off the round's path (migration 012,
 * ledger-counts.ts) plus the rows the fold has not reached, and page through indexes chosen per
 * filter. Checked here against the plainest SQL that answers the same question, on a random
 * ledger of two clients, three profiles and rounds at every hour including midnight, folded at
 * random points, with rows written after a fold at older times.
 */

const CLIENTS = ['client-a', 'client-b'];
const PROFILES = [
  { id: 'profile-1', clientId: 'client-a' },
  { id: 'profile-2', clientId: 'client-a' },
  { id: 'profile-3', clientId: 'client-b' },
];
const DAY_MS = 86_400_000;
/** The ledger repository on SQLite, with its counts (no background folds: the tests fold). */
const ledgerOn = (db: Db) => createLedgerRepo(createSqliteExec(db), createLedgerCounts(db));
const MIGRATIONS = fileURLToPath(new URL('../src/store/sqlite/migrations/', import.meta.url));
const START = Date.parse('2026-02-26T00:00:00.000Z');

type Player = { id: string; profileId: string; clientId: string; sessionId: string; gameId: string };

/** The clients, profiles, games, players and sessions the rounds belong to. */
function seedPlayers(db: Db): Player[] {
  const now = '2026-01-01T00:00:00.000Z';
  for (const id of CLIENTS)
    db.prepare(
      `INSERT INTO api_clients (id, name, email, api_key_hash, created_at) VALUES (?, ?, ?, ?, ?)`,
    ).run(id, id, `${id}@example.test`, `hash-${id}`, now);
  const players: Player[] = [];
  for (const profile of PROFILES) {
    db.prepare(`INSERT INTO profiles (id, client_id, name, type, currency, created_at, updated_at)
      VALUES (?, ?, ?, 'demo', 'BRL', ?, ?)`).run(profile.id, profile.clientId, profile.id, now, now);
    const gameId = `game-${profile.id}`;
    db.prepare(`INSERT INTO games (id, client_id, profile_id, game_model, version, active, lang, currency, rtp_ppm,
      sampling, prized_ppm, bet_minor, ladder_json, created_at)
      VALUES (?, ?, ?, 'oxe-ganhei', 1, 1, 'pt', 'BRL', 900000, 1000, 300000, 100, '{}', ?)`).run(
      gameId,
      profile.clientId,
      profile.id,
      now,
    );
    for (let p = 0; p < 3; p++) {
      const id = `player-${profile.id}-${p}`;
      const sessionId = `session-${id}`;
      db.prepare(`INSERT INTO players (id, client_id, profile_id, credential, credential_type, created_at)
        VALUES (?, ?, ?, ?, 'username', ?)`).run(id, profile.clientId, profile.id, id, now);
      db.prepare(`INSERT INTO game_sessions (id, client_id, profile_id, player_id, game_id, token_hash, lang,
        expire_at, created_at) VALUES (?, ?, ?, ?, ?, ?, 'pt', ?, ?)`).run(
        sessionId,
        profile.clientId,
        profile.id,
        id,
        gameId,
        `token-${id}`,
        now,
        now,
      );
      players.push({ id, profileId: profile.id, clientId: profile.clientId, sessionId, gameId });
    }
  }
  return players;
}

/** Writes a round at `at` with a bet and `more` transactions (each `laterMs[k]` after it). */
function writeRound(
  db: Db,
  id: string,
  player: Player,
  at: number,
  more: TransactionType[],
  laterMs: number[],
) {
  const insertRound =
    db.prepare(`INSERT INTO rounds (id, client_id, profile_id, game_id, player_id, session_id,
    status, currency, paid_minor, created_at) VALUES (?, ?, ?, ?, ?, ?, 'closed', 'BRL', 100, ?)`);
  const insertTransaction =
    db.prepare(`INSERT INTO transactions (id, round_id, client_id, profile_id, player_id,
    type, amount_minor, currency, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'BRL', 'completed', ?)`);
  const time = new Date(at).toISOString();
  insertRound.run(id, player.clientId, player.profileId, player.gameId, player.id, player.sessionId, time);
  (['bet', ...more] as TransactionType[]).forEach((type, k) => {
    const when = new Date(at + (k === 0 ? 0 : (laterMs[k - 1] ?? 1000))).toISOString();
    insertTransaction.run(`${id}-t${k}`, id, player.clientId, player.profileId, player.id, type, 100, when);
  });
}

function seed(db: Db, rounds: number) {
  const rng = seededRng(7);
  const players = seedPlayers(db);
  for (let n = 0; n < rounds; n++) {
    const player = players[Math.floor(rng() * players.length)] ?? players[0];
    if (!player) throw new Error('no players');
    // Whole hours over 4 days, so many rounds sit exactly on a midnight.
    const at = START + Math.floor(rng() * 4 * 24) * 3_600_000;
    const id = `round-${String(n).padStart(4, '0')}`;
    const more: TransactionType[] = [];
    const fate = rng();
    if (fate < 0.4) more.push('prize');
    else if (fate < 0.5) more.push('rollback');
    else if (fate < 0.52) more.push('prize', 'prize'); // a round may hold two of a type
    // The settling transaction may fall on the next day (one draw per transaction, the bet's unused).
    const laterMs = ['bet', ...more].map((_, k) => k * (rng() < 0.2 ? DAY_MS / 2 : 1000)).slice(1);
    writeRound(db, id, player, at, more, laterMs);
  }
  return players;
}

/** The plainest SQL for a filter: the reference the repository must agree with. */
function reference(db: Db, list: 'rounds' | 'transactions', filter: LedgerFilter): string[] {
  const alias = list === 'rounds' ? 'r' : 't';
  const clauses = [`${alias}.client_id = @clientId`];
  if (filter.profileId) clauses.push(`${alias}.profile_id = @profileId`);
  if (filter.playerId) clauses.push(`${alias}.player_id = @playerId`);
  if (filter.roundId) clauses.push(list === 'rounds' ? 'r.id = @roundId' : 't.round_id = @roundId');
  if (filter.type)
    clauses.push(
      list === 'rounds'
        ? 'EXISTS (SELECT 1 FROM transactions x WHERE x.round_id = r.id AND x.type = @type)'
        : 't.type = @type',
    );
  if (filter.from) clauses.push(`${alias}.created_at >= @from`);
  if (filter.before) clauses.push(`${alias}.created_at < @before`);
  const params = Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== null));
  return db
    .prepare<[Record<string, unknown>], { id: string }>(
      `SELECT ${alias}.id FROM ${list} ${alias} NOT INDEXED WHERE ${clauses.join(' AND ')}
       ORDER BY ${alias}.created_at DESC, ${alias}.id DESC`,
    )
    .all(params)
    .map((row) => row.id);
}

const day = (offset: number) => new Date(START + offset * DAY_MS).toISOString();

/** Every combination of the filters the lists take, with day bounds and bounds off midnight. */
function filters(players: { id: string; profileId: string }[]): LedgerFilter[] {
  const ranges: [string | null, string | null][] = [
    [null, null],
    [day(1), null],
    [null, day(2)],
    [day(1), day(2)],
    [day(0), day(4)],
    [day(3), day(3)],
    ['2026-02-27T05:00:00.000Z', '2026-02-28T13:30:00.000Z'],
    // Just past a midnight: the rows on it are outside the folded days, counted once.
    ['2026-02-26T23:59:59.999Z', '2026-02-28T00:00:00.001Z'],
    ['2026-02-27T04:59:59.999Z', '2026-02-28T13:00:00.001Z'],
  ];
  const result: LedgerFilter[] = [];
  for (const clientId of CLIENTS)
    for (const profileId of [null, ...PROFILES.map((profile) => profile.id)])
      for (const playerId of [null, players[0]?.id ?? null, players[4]?.id ?? null])
        for (const type of [null, ...TRANSACTION_TYPES])
          for (const [from, before] of ranges)
            result.push({ clientId, profileId, playerId, roundId: null, type, status: null, from, before });
  for (const roundId of ['round-0003', 'round-0100'])
    for (const type of [null, 'prize' as const])
      result.push({
        clientId: 'client-a',
        profileId: null,
        playerId: null,
        roundId,
        type,
        status: null,
        from: null,
        before: null,
      });
  return result;
}

describe('ledger lists on the folded per-day counts (SQLite-specific: its tables and indexes)', () => {
  let db: Db;
  let players: ReturnType<typeof seed>;
  beforeEach(() => {
    db = openDatabase(':memory:');
    players = seed(db, 400);
  });

  async function expectAgreement(): Promise<void> {
    const ledger = ledgerOn(db);
    for (const filter of filters(players)) {
      for (const list of ['rounds', 'transactions'] as const) {
        const expected = reference(db, list, filter);
        const page = { pageIndex: 2, pageSize: 7 };
        const answer =
          list === 'rounds'
            ? await ledger.listRounds(filter, page)
            : await ledger.listTransactions(filter, page);
        const context = `${list} ${JSON.stringify(filter)}`;
        expect(answer.totalCount, context).toBe(expected.length);
        expect(
          answer.items.map((item) => item.id),
          context,
        ).toEqual(expected.slice(7, 14));
      }
    }
  }

  it('counts and pages exactly like a plain query, for every filter', async () => {
    await expectAgreement();
  });

  it('stays exact once folded, partly folded, and with older rows written after a fold', async () => {
    const counts = createLedgerCounts(db);
    counts.fold('round', 150);
    counts.fold('transaction', 333);
    await expectAgreement();
    // Rows written after the fold, at times the fold has passed (a fixture's past days, a late
    // unit): the watermark is the rowid, so they are counted from the rows until folded too.
    const player = players[1];
    if (!player) throw new Error('no players');
    for (let n = 0; n < 30; n++)
      writeRound(db, `late-${n}`, player, START + (n % 5) * 7 * 3_600_000 + n * 60_000, ['prize'], [90_000]);
    await expectAgreement();
    while (counts.fold('round', 97) || counts.fold('transaction', 97));
    expect(counts.fold('round')).toBe(false);
    await expectAgreement();
  });

  it('stays exact on a ledger that had rows before migration 003 counted them', async () => {
    db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    db.exec('CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL) STRICT');
    for (const name of ['001_api.sql', '002_play.sql']) {
      db.exec(readFileSync(join(MIGRATIONS, name), 'utf8'));
      db.prepare("INSERT INTO schema_migrations VALUES (?, '')").run(name);
    }
    players = seed(db, 400);
    const applied = migrate(db);
    expect(applied).toContain('003_ledger_lists.sql');
    expect(applied).toContain('012_ledger_day_counts.sql');
    await expectAgreement();
  });

  it('uncounts deleted transactions and rounds', async () => {
    createLedgerCounts(db).fold('transaction', 700);
    // The second prize of a two-prize round: the round still has a prize.
    const twice = db
      .prepare<[], { roundId: string }>(
        `SELECT round_id AS roundId FROM transactions WHERE type = 'prize' GROUP BY round_id HAVING count(*) = 2 LIMIT 1`,
      )
      .get();
    expect(twice).toBeDefined();
    db.prepare(
      `DELETE FROM transactions WHERE id = (SELECT max(id) FROM transactions WHERE round_id = ?)`,
    ).run(twice?.roundId);
    // A round's only rollback: the round no longer counts as having one.
    db.prepare(
      `DELETE FROM transactions WHERE id = (SELECT min(id) FROM transactions WHERE type = 'rollback')`,
    ).run();
    // A whole round (its transactions first, as the foreign keys want).
    db.prepare(`DELETE FROM transactions WHERE round_id = 'round-0042'`).run();
    db.prepare(`DELETE FROM rounds WHERE id = 'round-0042'`).run();
    await expectAgreement();
    // The newest rows, folded, then deleted: SQLite hands their rowids out again, to rows the
    // fold has not seen.
    const counts = createLedgerCounts(db);
    while (counts.fold('round') || counts.fold('transaction'));
    db.prepare(`DELETE FROM transactions WHERE round_id = 'round-0399'`).run();
    db.prepare(`DELETE FROM rounds WHERE id = 'round-0399'`).run();
    const player = players[2];
    if (!player) throw new Error('no players');
    writeRound(db, 'round-again', player, START + 5 * 3_600_000, ['rollback'], [1000]);
    await expectAgreement();
  });

  it('refuses to move a round or transaction to another client, profile, type or time', async () => {
    expect(() => db.prepare(`UPDATE rounds SET created_at = ? WHERE id = 'round-0001'`).run(day(9))).toThrow(
      /a round keeps its client, profile and created_at/,
    );
    expect(() =>
      db.prepare(`UPDATE transactions SET type = 'deposit' WHERE id = 'round-0001-t0'`).run(),
    ).toThrow(/a transaction keeps its client, profile, round, type and created_at/);
    // Other columns change as the play loop needs, and so does setting a key to its own value.
    db.prepare(`UPDATE rounds SET status = 'voided', created_at = created_at WHERE id = 'round-0001'`).run();
    db.prepare(`UPDATE transactions SET status = 'failed' WHERE id = 'round-0001-t0'`).run();
    await expectAgreement();
  });

  it('walks no ledger table, and pages a player or a round through its own index', async () => {
    const recorded: RecordedStatement[] = [];
    const ledger = ledgerOn(recordingDb(db, recorded));
    const page = { pageIndex: 1, pageSize: 20 };
    for (const filter of filters(players)) {
      for (const list of ['rounds', 'transactions'] as const) {
        recorded.length = 0;
        if (list === 'rounds') await ledger.listRounds(filter, page);
        else await ledger.listTransactions(filter, page);
        const narrow = filter.playerId !== null || filter.roundId !== null;
        for (const statement of recorded) {
          const plan = queryPlan(db, statement);
          const context = `${list} ${JSON.stringify(filter)}: ${statement.sql}\n${plan.join('\n')}`;
          // No full scan of a ledger table: the only SCANs are of a page's ids (json_each, or the
          // page subquery: at most 100 rows).
          expect(
            plan.filter((line) => /^SCAN (?!json_each|page|CONSTANT ROW)/.test(line)),
            context,
          ).toEqual([]);
          // The page comes out of an index in list order, not sorted afterwards (the rounds of a
          // page are sorted again once joined: at most 100 rows).
          // (Bound by position: the page's ids take the statement's first parameters.)
          const pageSql = /FROM \((SELECT .* OFFSET \?)\) page/s.exec(statement.sql)?.[1];
          const bound = statement.params[0] as unknown[];
          const pagePlan = pageSql
            ? queryPlan(db, { sql: pageSql, params: [bound.slice(0, pageSql.split('?').length - 1)] })
            : plan;
          if (/LIMIT \?/.test(statement.sql))
            expect(
              pagePlan.filter((line) => line.includes('TEMP B-TREE')),
              context,
            ).toEqual([]);
          // A player's or round's few rows are found through their own index, never a client-wide one.
          if (narrow) {
            const searches = plan.filter((line) => /^SEARCH (r|t|x) USING/.test(line));
            for (const line of searches)
              expect(line, context).toMatch(/_by_player|_by_round|autoindex_rounds/);
          }
        }
      }
    }
  });
});

describe('the folded totals, for random ledgers, folds and filters (SQLite-specific)', () => {
  // Few moments, around midnights, so rows and bounds often fall on the same one.
  const moment = fc
    .tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom(0, 12, 23), fc.constantFrom(0, 0, 1, 3_599_999))
    .map(([day, hour, offset]) => START + day * DAY_MS + hour * 3_600_000 + offset);
  const time = moment.map((ms) => new Date(ms).toISOString());
  const write = fc.record({
    kind: fc.constant('round' as const),
    player: fc.nat(8),
    at: moment,
    more: fc.subarray(['prize', 'rollback'] as TransactionType[]),
    laterMs: fc.constantFrom(1000, 3_600_000, DAY_MS / 2),
  });
  const fold = fc.record({
    kind: fc.constant('fold' as const),
    list: fc.constantFrom('round' as const, 'transaction' as const),
    batch: fc.integer({ min: 1, max: 25 }),
  });
  const filter = fc.record({
    clientId: fc.constantFrom(...CLIENTS),
    profileId: fc.constantFrom(null, ...PROFILES.map((profile) => profile.id)),
    playerId: fc.constantFrom(null, null, null, 'player-profile-1-0'),
    roundId: fc.constant(null),
    type: fc.constantFrom(null, null, ...TRANSACTION_TYPES),
    status: fc.constant(null),
    from: fc.option(time),
    before: fc.option(time),
  });

  it('totalCount equals the rows a plain query finds, whatever was folded when', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(write, write, fold), { maxLength: 50 }),
        fc.array(filter, { minLength: 1, maxLength: 12 }),
        async (steps, filters) => {
          const db = openDatabase(':memory:');
          try {
            const players = seedPlayers(db);
            const counts = createLedgerCounts(db);
            const ledger = ledgerOn(db);
            for (const [n, step] of steps.entries()) {
              if (step.kind === 'fold') {
                counts.fold(step.list, step.batch);
                continue;
              }
              const player = players[step.player] ?? players[0];
              if (!player) throw new Error('no players');
              const at = step.at;
              writeRound(
                db,
                `round-${n}`,
                player,
                at,
                step.more,
                step.more.map(() => step.laterMs),
              );
            }
            for (const each of filters) {
              const page = { pageIndex: 1, pageSize: 5 };
              const context = JSON.stringify(each);
              expect((await ledger.listRounds(each, page)).totalCount, context).toBe(
                reference(db, 'rounds', each).length,
              );
              expect((await ledger.listTransactions(each, page)).totalCount, context).toBe(
                reference(db, 'transactions', each).length,
              );
            }
          } finally {
            db.close();
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
