import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import type { Exec } from '../src/store/dialect/exec.ts';
import { SQLITE_FOLD as FOLD } from '../src/store/dialect/fragments.ts';
import { statement } from '../src/store/dialect/statement.ts';
import { createPool, migrate as migratePg } from '../src/store/postgres/database.ts';
import { createPostgresExec } from '../src/store/postgres/exec.ts';
import { createUnits } from '../src/store/postgres/units.ts';
import { createPlayersRepo } from '../src/store/repos/players-repo.ts';
import { migrate as migrateSqlite } from '../src/store/sqlite/database.ts';
import { createSqliteExec } from '../src/store/sqlite/exec.ts';
import { startCluster } from '../test/postgres-cluster.ts';
import { loadAverage } from './kit/machine.ts';
import { report } from './kit/report.ts';

/**
 * Issue 24's choice, measured: the client-side CPU per call of three ways to write the players
 * repository's reads once for both databases, interleaved in one process so a shared machine
 * loads them alike. `hand`: the statement text written per dialect and run directly (what the
 * per-dialect repositories did: the floor); `exec` (SQLite): the layer's executor called
 * synchronously, without the repository's async method; `layer`: store/repos/ over dialect/ (named
 * parameters rendered once per dialect, an async method over the executor); `kysely`: the same
 * queries built and compiled by Kysely at each call (its per-dialect compilers, no Kysely
 * driver), run on the same connection. Kysely is not a dependency: give its folder in KYSELY
 * (e.g. `npm install --prefix /tmp/k kysely@0.28` and KYSELY=/tmp/k/node_modules/kysely), else
 * that column is left out. PostgreSQL: a throwaway cluster (test/postgres-cluster.ts).
 */
const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '8' },
    only: { type: 'string' },
  },
});
const CALLS = Number(args.calls);
const ROUNDS = Number(args.rounds);

type Op = 'findById' | 'listByProfile' | 'balancesOf' | 'insert';
const OPS: Op[] = ['findById', 'listByProfile', 'balancesOf', 'insert'];
type Variant = Record<Op, (i: number) => unknown>;

const PROFILE = 'prof-1';
const PLAYERS = 200;
const idOf = (i: number) => `player-${i % PLAYERS}`;
const COLUMNS_SQLITE = `p.id, p.client_id AS clientId, p.profile_id AS profileId, p.credential,
  p.credential_type AS credentialType, p.balance_minor AS balanceMinor, p.bet_wins AS betWins,
  p.total_bets AS totalBets, p.created_at AS createdAt`;
const COLUMNS_PG = COLUMNS_SQLITE.replace(/AS (\w+)/g, 'AS "$1"');
let made = 0;
const newPlayer = (prefix: string, i: number) => ({
  id: `${prefix}-${i}-${++made}`,
  clientId: 'client-1',
  // Not the listed profile: the lists read the same 200 players however many inserts ran.
  profileId: prefix === 'seed' ? PROFILE : 'prof-inserts',
  credential: `Jo\u00e3o ${prefix} ${made}`,
  credentialType: 'username' as const,
  balanceMinor: 0,
  betWins: 0,
  totalBets: 0,
  createdAt: new Date(1_700_000_000_000 + i).toISOString(),
});
const page = { pageIndex: 2, pageSize: 20 };
const fiveIds = (i: number) => [0, 1, 2, 3, 4].map((k) => idOf(i + k * 7));

// biome-ignore lint/suspicious/noExplicitAny: Kysely is loaded from a folder at run time, untyped.
type Any = any;
async function loadKysely(): Promise<Any | undefined> {
  if (!process.env.KYSELY) return undefined;
  return import(`${process.env.KYSELY}/dist/esm/index.js`);
}

function kyselyOf(k: Any, dialect: 'sqlite' | 'postgres'): Any {
  const [Adapter, Introspector, Compiler] =
    dialect === 'sqlite'
      ? [k.SqliteAdapter, k.SqliteIntrospector, k.SqliteQueryCompiler]
      : [k.PostgresAdapter, k.PostgresIntrospector, k.PostgresQueryCompiler];
  return new k.Kysely({
    dialect: {
      createAdapter: () => new Adapter(),
      createDriver: () => new k.DummyDriver(),
      createIntrospector: (db: Any) => new Introspector(db),
      createQueryCompiler: () => new Compiler(),
    },
  });
}

const SELECTION = [
  'p.id',
  'p.client_id as clientId',
  'p.profile_id as profileId',
  'p.credential',
  'p.credential_type as credentialType',
  'p.balance_minor as balanceMinor',
  'p.bet_wins as betWins',
  'p.total_bets as totalBets',
  'p.created_at as createdAt',
];

/** The players queries as a Kysely user writes them: built and compiled at each call. */
function kyselyQueries(k: Any, dialect: 'sqlite' | 'postgres') {
  const db = kyselyOf(k, dialect);
  const { sql } = k;
  const fold = (column: string) =>
    dialect === 'sqlite'
      ? sql`${sql.raw(FOLD)}(${sql.ref(column)})`
      : sql`lower(${sql.ref(column)} COLLATE "und-x-icu")`;
  const matching = (q: Any, pattern: string | null) => {
    const byProfile = q.where('p.profile_id', '=', PROFILE);
    return pattern === null
      ? byProfile
      : byProfile.where(sql`${fold('p.credential')} LIKE ${pattern} ESCAPE '\\'`);
  };
  return {
    findById: (id: string) =>
      db.selectFrom('players as p').select(SELECTION).where('p.id', '=', id).compile(),
    list: (pattern: string | null) =>
      matching(db.selectFrom('players as p').select(SELECTION), pattern)
        .orderBy('p.created_at')
        .orderBy('p.id')
        .limit(page.pageSize)
        .offset((page.pageIndex - 1) * page.pageSize)
        .compile(),
    count: (pattern: string | null) =>
      matching(
        db.selectFrom('players as p').select((eb: Any) => eb.fn.countAll().as('n')),
        pattern,
      ).compile(),
    balancesOf: (ids: string[]) =>
      db
        .selectFrom('player_balances')
        .select(['player_id as playerId', 'currency', 'balance_minor as balanceMinor'])
        .where('player_id', 'in', ids)
        .orderBy('player_id')
        .orderBy('currency')
        .compile(),
    insert: (player: ReturnType<typeof newPlayer>) =>
      db
        .insertInto('players')
        .values({
          id: player.id,
          client_id: player.clientId,
          profile_id: player.profileId,
          credential: player.credential,
          credential_type: player.credentialType,
          balance_minor: player.balanceMinor,
          bet_wins: player.betWins,
          total_bets: player.totalBets,
          created_at: player.createdAt,
        })
        .compile(),
  };
}

/** Runs each variant's op CALLS times per round, the variants taking turns; CPU µs per call. */
async function measure(variants: Record<string, Variant>, ops: Op[]) {
  const cpu: Record<string, Record<string, number>> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const op of ops) {
      for (const [name, variant] of Object.entries(variants)) {
        const call = variant[op];
        for (let i = 0; i < 50; i++) await call(i); // warm
        const before = process.cpuUsage();
        for (let i = 0; i < CALLS; i++) await call(i);
        const used = process.cpuUsage(before);
        const row = cpu[op] ?? {};
        cpu[op] = row;
        // The first round warms the JIT and the statement caches: not counted.
        if (round > 0) row[name] = (row[name] ?? 0) + (used.user + used.system) / CALLS / (ROUNDS - 1);
      }
    }
  }
  return cpu;
}

async function sqliteCase(k: Any | undefined) {
  const db = new Database(':memory:');
  migrateSqlite(db);
  db.pragma('foreign_keys = OFF');
  const x = createSqliteExec(db);
  const repo = createPlayersRepo(x);
  for (let i = 0; i < PLAYERS; i++) await repo.insert({ ...newPlayer('seed', i), id: idOf(i) });
  const insertBalance = db.prepare(
    'INSERT INTO player_balances (player_id, currency, balance_minor) VALUES (?, ?, ?)',
  );
  for (let i = 0; i < PLAYERS; i++) insertBalance.run(idOf(i), 'EUR', i);
  const matching = `p.profile_id = @profileId AND (@pattern IS NULL OR ${FOLD}(p.credential) LIKE @pattern ESCAPE '\\')`;
  const hand = {
    byId: db.prepare(`SELECT ${COLUMNS_SQLITE} FROM players p WHERE p.id = ?`),
    list: db.prepare(
      `SELECT ${COLUMNS_SQLITE} FROM players p WHERE ${matching} ORDER BY p.created_at, p.id LIMIT @limit OFFSET @offset`,
    ),
    count: db.prepare(`SELECT count(*) AS n FROM players p WHERE ${matching}`),
    balances: db.prepare(
      `SELECT player_id AS playerId, currency, balance_minor AS balanceMinor FROM player_balances
       WHERE player_id IN (SELECT value FROM json_each(?)) ORDER BY player_id, currency`,
    ),
    insert: db.prepare(`INSERT INTO players (id, client_id, profile_id, credential, credential_type,
      balance_minor, bet_wins, total_bets, created_at) VALUES (@id, @clientId, @profileId, @credential,
      @credentialType, @balanceMinor, @betWins, @totalBets, @createdAt)`),
  };
  const named = (text: string) => text.replace(/@(\w+)/g, ':$1');
  const own = {
    byId: statement<{ id: string }, object>(`SELECT ${COLUMNS_SQLITE} FROM players p WHERE p.id = :id`),
    list: statement<{ profileId: string; pattern: string; limit: number; offset: number }, object>(
      named(
        `SELECT ${COLUMNS_SQLITE} FROM players p WHERE ${matching} ORDER BY p.created_at, p.id LIMIT @limit OFFSET @offset`,
      ),
    ),
    count: statement<{ profileId: string; pattern: string }, object>(
      named(`SELECT count(*) AS n FROM players p WHERE ${matching}`),
    ),
    balances: statement<{ ids: string }, object>(
      `SELECT player_id AS playerId, currency, balance_minor AS balanceMinor FROM player_balances
       WHERE player_id IN (SELECT value FROM json_each(:ids)) ORDER BY player_id, currency`,
    ),
    insert: statement<
      ReturnType<typeof newPlayer>
    >(`INSERT INTO players (id, client_id, profile_id, credential,
      credential_type, balance_minor, bet_wins, total_bets, created_at) VALUES (:id, :clientId, :profileId,
      :credential, :credentialType, :balanceMinor, :betWins, :totalBets, :createdAt)`),
  };
  // Today's SQLite adapter: a synchronous method lifted to a promise (sync.ts, group commit's `inside`).
  const lifted = <T>(call: () => T) => Promise.resolve(call());
  const variants: Record<string, Variant> = {
    hand: {
      findById: (i) => lifted(() => hand.byId.get(idOf(i))),
      listByProfile: () =>
        lifted(() => {
          const filter = { profileId: PROFILE, pattern: '%jo%' };
          return {
            items: hand.list.all({ ...filter, limit: 20, offset: 20 }),
            total: hand.count.get(filter),
          };
        }),
      balancesOf: (i) => lifted(() => hand.balances.all(JSON.stringify(fiveIds(i)))),
      insert: (i) => lifted(() => hand.insert.run(newPlayer('hand', i))),
    },
    // The layer's statements called synchronously, one promise per call as `hand`: what the
    // repository's async method and awaits add is `layer` minus this; the binding, this minus `hand`.
    exec: {
      findById: (i) => lifted(() => x.first(own.byId, { id: idOf(i) })),
      listByProfile: () =>
        lifted(() => {
          const filter = { profileId: PROFILE, pattern: '%jo%' };
          return {
            items: x.all(own.list, { ...filter, limit: 20, offset: 20 }),
            total: x.first(own.count, filter),
          };
        }),
      balancesOf: (i) => lifted(() => x.all(own.balances, { ids: JSON.stringify(fiveIds(i)) })),
      insert: (i) => lifted(() => x.run(own.insert, newPlayer('exec', i))),
    },
    layer: {
      findById: (i) => repo.findById(idOf(i)),
      listByProfile: () => repo.listByProfile(PROFILE, page, 'jo'),
      balancesOf: (i) => repo.balancesOf(fiveIds(i)),
      insert: (i) => repo.insert(newPlayer('layer', i)),
    },
  };
  if (k) {
    const q = kyselyQueries(k, 'sqlite');
    const cache = new Map<string, Database.Statement>();
    const prepared = (text: string) => {
      let found = cache.get(text);
      if (!found) {
        found = db.prepare(text);
        cache.set(text, found);
      }
      return found;
    };
    const run = (c: { sql: string; parameters: unknown[] }, method: 'get' | 'all' | 'run') =>
      prepared(c.sql)[method](...c.parameters);
    variants.kysely = {
      findById: (i) => lifted(() => run(q.findById(idOf(i)), 'get')),
      listByProfile: () =>
        lifted(() => ({ items: run(q.list('%jo%'), 'all'), total: run(q.count('%jo%'), 'get') })),
      balancesOf: (i) => lifted(() => run(q.balancesOf(fiveIds(i)), 'all')),
      insert: (i) => lifted(() => run(q.insert(newPlayer('kysely', i)), 'run')),
    };
  }
  const result = await measure(variants, OPS);
  db.close();
  return result;
}

async function postgresCase(k: Any | undefined) {
  const cluster = await startCluster();
  const pool = createPool(cluster.url, { max: 1, pipeline: true });
  try {
    await migratePg(pool);
    const units = createUnits(pool, async () => {}, { pipelined: true });
    const sql = units.outside;
    const x: Exec = createPostgresExec(sql);
    const repo = createPlayersRepo(x);
    await pool.query(
      'ALTER TABLE players DISABLE TRIGGER ALL; ALTER TABLE player_balances DISABLE TRIGGER ALL',
    );
    for (let i = 0; i < PLAYERS; i++) await repo.insert({ ...newPlayer('seed', i), id: idOf(i) });
    for (let i = 0; i < PLAYERS; i++)
      await pool.query(
        'INSERT INTO player_balances (player_id, currency, balance_minor) VALUES ($1, $2, $3)',
        [idOf(i), 'EUR', i],
      );
    const matching = `p.profile_id = $1 AND ($2::text IS NULL OR lower(p.credential COLLATE "und-x-icu") LIKE $2 ESCAPE '\\')`;
    const variants: Record<string, Variant> = {
      hand: {
        findById: (i) => sql.query(`SELECT ${COLUMNS_PG} FROM players p WHERE p.id = $1`, [idOf(i)]),
        listByProfile: async () => ({
          items: await sql.query(
            `SELECT ${COLUMNS_PG} FROM players p WHERE ${matching} ORDER BY p.created_at, p.id LIMIT $3 OFFSET $4`,
            [PROFILE, '%jo%', 20, 20],
          ),
          total: await sql.query(`SELECT count(*) AS n FROM players p WHERE ${matching}`, [PROFILE, '%jo%']),
        }),
        balancesOf: (i) =>
          sql.query(
            `SELECT player_id AS "playerId", currency, balance_minor AS "balanceMinor" FROM player_balances
             WHERE player_id = ANY($1::text[]) ORDER BY player_id, currency`,
            [fiveIds(i)],
          ),
        insert: (i) => {
          const p = newPlayer('hand', i);
          return sql.query(
            `INSERT INTO players (id, client_id, profile_id, credential, credential_type, balance_minor, bet_wins,
              total_bets, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
            [
              p.id,
              p.clientId,
              p.profileId,
              p.credential,
              p.credentialType,
              p.balanceMinor,
              p.betWins,
              p.totalBets,
              p.createdAt,
            ],
          );
        },
      },
      layer: {
        findById: (i) => repo.findById(idOf(i)),
        listByProfile: () => repo.listByProfile(PROFILE, page, 'jo'),
        balancesOf: (i) => repo.balancesOf(fiveIds(i)),
        insert: (i) => repo.insert(newPlayer('layer', i)),
      },
    };
    if (k) {
      const q = kyselyQueries(k, 'postgres');
      const run = (c: { sql: string; parameters: unknown[] }) => sql.query(c.sql, c.parameters);
      variants.kysely = {
        findById: (i) => run(q.findById(idOf(i))),
        listByProfile: async () => ({ items: await run(q.list('%jo%')), total: await run(q.count('%jo%')) }),
        balancesOf: (i) => run(q.balancesOf(fiveIds(i))),
        insert: (i) => run(q.insert(newPlayer('kysely', i))),
      };
    }
    return await measure(variants, OPS);
  } finally {
    await pool.end();
    await cluster.stop();
  }
}

const k = await loadKysely();
const load = loadAverage();
const result: Record<string, Record<string, Record<string, number>>> = {};
if (args.only !== 'postgres') result.sqlite = await sqliteCase(k);
if (args.only !== 'sqlite') result.postgres = await postgresCase(k);
const table: Record<string, Record<string, string>> = {};
for (const [database, ops] of Object.entries(result))
  for (const [op, variants] of Object.entries(ops))
    table[`${database} ${op}`] = Object.fromEntries(
      Object.entries(variants).map(([name, us]) => [`${name} µs`, us.toFixed(1)]),
    );
report(
  'store-dialect',
  `pnpm bench:store-dialect --calls ${CALLS} --rounds ${ROUNDS}${k ? ' (KYSELY set)' : ''} (load average ${load ?? '?'})`,
  result,
  table,
);
