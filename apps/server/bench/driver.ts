import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startOwnCluster } from '../test/postgres-cluster.ts';
import { exitedChildrenCpuSeconds, treeCpuSeconds } from './kit/cpu.ts';
import { loadAverage } from './kit/machine.ts';
import { report } from './kit/report.ts';
import { percentile } from './kit/stats.ts';

/**
 * Issue 34 item 3: the driver's own cost on the round's shape, `pg` as the store uses it against
 * postgres.js (`postgres` 3.x), in one process, alternated so a shared machine loads them alike.
 * A round here is what the play loop sends PostgreSQL (docs/store.md, "A round's writes"): two lone
 * reads, then three units (the buy: the round and its pending bet; the bet's answer: the bet, the
 * player's figures, the open-round event; the close: the round, the prize, the figures, the
 * close-round event), 12 data statements, the statements of a unit sent together. `pg`: pipeline
 * mode and named prepared statements, BEGIN and COMMIT riding with the unit's statements (as
 * store/postgres/units.ts sends them); postgres.js, its prepared statements, in two shapes (see
 * postgresJsDriver): its own `sql.begin`, and the unit written at once as pg writes it. All over
 * loopback TCP to a throwaway cluster, `--players` connections playing at once, the drivers rotated
 * in each set. Prints, per driver, the medians over the sets of the client's CPU (this process) and
 * the server's CPU per round, and rounds/s.
 * postgres.js is not a dependency: give its folder in POSTGRES_JS (e.g. `npm install --prefix
 * /tmp/pj postgres@3` and POSTGRES_JS=/tmp/pj/node_modules/postgres).
 */
const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3000' },
    players: { type: 'string', default: '16' },
    sets: { type: 'string', default: '3' },
  },
});
const ROUNDS = Number(args.rounds);
const PLAYERS = Number(args.players);
const SETS = Number(args.sets);
const postgresJsDir = process.env.POSTGRES_JS;
if (!postgresJsDir) {
  console.error('POSTGRES_JS must name postgres.js folder (npm install --prefix /tmp/pj postgres@3)');
  process.exit(2);
}

const SCHEMA = `
CREATE TABLE b_players (id text PRIMARY KEY, balance bigint NOT NULL, rounds int NOT NULL, updated_at text NOT NULL);
CREATE TABLE b_rounds (id text PRIMARY KEY, player_id text NOT NULL, status text NOT NULL, price bigint NOT NULL,
  prize bigint NOT NULL, card text NOT NULL, created_at text NOT NULL, closed_at text);
CREATE INDEX ON b_rounds (player_id, created_at);
CREATE UNIQUE INDEX ON b_rounds (player_id) WHERE status = 'open';
CREATE TABLE b_transactions (id text PRIMARY KEY, round_id text NOT NULL, player_id text NOT NULL, type text NOT NULL,
  amount bigint NOT NULL, status text NOT NULL, created_at text NOT NULL);
CREATE INDEX ON b_transactions (round_id);
CREATE INDEX ON b_transactions (player_id, created_at);
CREATE TABLE b_events (seq bigserial PRIMARY KEY, id text NOT NULL UNIQUE, round_id text, event_type text NOT NULL,
  payload text NOT NULL, status text NOT NULL, created_at text NOT NULL);
CREATE INDEX ON b_events (status, seq);`;

const S = {
  player: 'SELECT id, balance, rounds FROM b_players WHERE id = $1',
  round: 'SELECT id, status, prize FROM b_rounds WHERE id = $1',
  openRound: `INSERT INTO b_rounds (id, player_id, status, price, prize, card, created_at) VALUES ($1, $2, 'open', 200, $3, $4, $5)`,
  bet: `INSERT INTO b_transactions (id, round_id, player_id, type, amount, status, created_at) VALUES ($1, $2, $3, 'bet', -200, 'pending', $4)`,
  betDone: `UPDATE b_transactions SET status = 'completed' WHERE id = $1`,
  figures: 'UPDATE b_players SET balance = balance + $2, rounds = rounds + $3, updated_at = $4 WHERE id = $1',
  event: `INSERT INTO b_events (id, round_id, event_type, payload, status, created_at) VALUES ($1, $2, $3, $4, 'pending', $5)`,
  close: `UPDATE b_rounds SET status = 'closed', closed_at = $2 WHERE id = $1 AND status = 'open'`,
  prize: `INSERT INTO b_transactions (id, round_id, player_id, type, amount, status, created_at) VALUES ($1, $2, $3, 'prize', $4, 'completed', $5)`,
} as const;
type Name = keyof typeof S;
type Run = (name: Name, values: unknown[]) => unknown;

/** One round's statements, as `unit(...)` calls of statements sent together and lone reads. */
async function playRound(
  player: string,
  n: number,
  read: (name: Name, values: unknown[]) => Promise<unknown>,
  unit: (statements: (run: Run) => unknown[]) => Promise<unknown>,
): Promise<void> {
  const now = new Date().toISOString();
  const round = `${player}-r${n}`;
  const prize = n % 2 === 0 ? 400 : 0;
  const card = JSON.stringify({ symbols: Array.from({ length: 9 }, (_, i) => (i * n) % 7), prize });
  const payload = JSON.stringify({ _id: round, player, prize, at: now });
  await read('player', [player]);
  await unit((run) => [
    run('openRound', [round, player, prize, card, now]),
    run('bet', [`${round}-b`, round, player, now]),
  ]);
  await unit((run) => [
    run('betDone', [`${round}-b`]),
    run('figures', [player, -200, 1, now]),
    run('event', [`${round}-o`, round, 'open-round', payload, now]),
  ]);
  await read('round', [round]);
  await unit((run) => [
    run('close', [round, now]),
    run('prize', [`${round}-p`, round, player, prize, now]),
    run('figures', [player, prize, 0, now]),
    run('event', [`${round}-c`, round, 'close-round', payload, now]),
  ]);
}

interface Driver {
  name: string;
  read(name: Name, values: unknown[]): Promise<unknown>;
  unit(statements: (run: Run) => unknown[]): Promise<unknown>;
  end(): Promise<void>;
}

/**
 * A unit as store/postgres/units.ts writes it: BEGIN, its statements and COMMIT, in that order and
 * none waiting for another's answer.
 */
function writtenAtOnce(
  send: (text: string) => Promise<unknown>,
  sendStatements: () => unknown[],
): Promise<unknown[]> {
  const begun = send('BEGIN');
  const sent = sendStatements() as Promise<unknown>[];
  return Promise.all([begun, ...sent, send('COMMIT')]);
}

function pgDriver(url: string): Driver {
  const pool = new pg.Pool({ connectionString: url, max: PLAYERS, pipeline: true } as pg.PoolConfig);
  pool.on('error', () => {});
  const query = (client: pg.ClientBase, name: Name, values: unknown[]) =>
    client.query({ name, text: S[name], values });
  return {
    name: 'pg',
    read: (name, values) => pool.query({ name, text: S[name], values }),
    async unit(statements) {
      const client = await pool.connect();
      try {
        await writtenAtOnce(
          (text) => client.query(text),
          () => statements((name, values) => query(client, name, values)),
        );
      } finally {
        client.release();
      }
    },
    end: () => pool.end(),
  };
}

/** The part of postgres.js's interface the bench uses (it is not a dependency, so has no types here). */
interface PostgresJsSql {
  unsafe(text: string, values?: unknown[], options?: { prepare: boolean }): Promise<unknown>;
  begin(work: (tx: PostgresJsSql) => unknown[]): Promise<unknown>;
  reserve(): Promise<PostgresJsSql & { release(): void }>;
  end(options: { timeout: number }): Promise<void>;
}

/**
 * `begin`: its own transactions (`sql.begin`, which waits for BEGIN's answer before the unit's
 * statements, and sends COMMIT after theirs: three round trips a unit). `one trip`: the unit sent
 * as pg sends it, BEGIN, the statements and COMMIT written at once on a reserved connection.
 */
async function postgresJsDriver(url: string, shape: 'begin' | 'one trip'): Promise<Driver> {
  const postgres = (await import(join(postgresJsDir as string, 'src/index.js'))).default;
  const sql: PostgresJsSql = postgres(url, { max: PLAYERS, prepare: true, onnotice: () => {} });
  const query = (on: PostgresJsSql, name: Name, values: unknown[]) =>
    on.unsafe(S[name], values, { prepare: true });
  const oneTrip = async (statements: (run: Run) => unknown[]) => {
    const connection = await sql.reserve();
    try {
      await writtenAtOnce(
        (text) => connection.unsafe(text),
        () => statements((name, values) => query(connection, name, values)),
      );
    } finally {
      connection.release();
    }
  };
  return {
    name: `postgres.js ${shape}`,
    read: (name, values) => query(sql, name, values),
    unit:
      shape === 'begin'
        ? (statements) => sql.begin((tx) => statements((name, values) => query(tx, name, values)))
        : oneTrip,
    end: () => sql.end({ timeout: 5 }),
  };
}

interface SetResult {
  driver: string;
  roundsPerSecond: number;
  clientCpuMsPerRound: number;
  serverCpuMsPerRound: number;
}

async function measure(driver: Driver, run: number, serverCpu: () => number): Promise<SetResult> {
  const perPlayer = Math.ceil(ROUNDS / PLAYERS);
  const players = Array.from({ length: PLAYERS }, (_, i) => `p${run}-${i}`);
  // Every connection opened and every statement prepared before the clock starts.
  await Promise.all(players.map((player) => playRound(player, -1, driver.read, driver.unit)));
  const cpu0 = process.cpuUsage();
  const server0 = serverCpu();
  const t0 = performance.now();
  await Promise.all(
    players.map(async (player) => {
      for (let n = 0; n < perPlayer; n++) await playRound(player, n, driver.read, driver.unit);
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const rounds = perPlayer * PLAYERS;
  return {
    driver: driver.name,
    roundsPerSecond: Math.round(rounds / seconds),
    clientCpuMsPerRound: (cpu.user + cpu.system) / 1000 / rounds,
    serverCpuMsPerRound: ((serverCpu() - server0) * 1000) / rounds,
  };
}

const DRIVERS = ['pg', 'postgres.js begin', 'postgres.js one trip'] as const;
type DriverName = (typeof DRIVERS)[number];
const openDriver = (name: DriverName, url: string): Promise<Driver> | Driver =>
  name === 'pg' ? pgDriver(url) : postgresJsDriver(url, name === 'postgres.js begin' ? 'begin' : 'one trip');

const cluster = await startOwnCluster();
try {
  const setUp = new pg.Client({ connectionString: cluster.tcpUrl });
  await setUp.connect();
  await setUp.query(SCHEMA);
  // Each measured run plays its own players (fresh rows, a fresh unique index on open rounds).
  const runs = Array.from({ length: SETS * DRIVERS.length }, (_, i) => i);
  await setUp.query(
    `INSERT INTO b_players (id, balance, rounds, updated_at) SELECT unnest($1::text[]), 1000000, 0, ''`,
    [runs.flatMap((run) => Array.from({ length: PLAYERS }, (_, i) => `p${run}-${i}`))],
  );
  await setUp.end();
  const postmaster = Number(
    readFileSync(join(cluster.dataDir ?? '', 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  const serverCpu = () => (treeCpuSeconds(postmaster) ?? 0) + (exitedChildrenCpuSeconds(postmaster) ?? 0);
  const results: SetResult[] = [];
  const load = loadAverage();
  let run = 0;
  for (let set = 0; set < SETS; set++) {
    // Rotated, each driver on its own connections, opened and closed around its run.
    const order = DRIVERS.map((_, i) => DRIVERS[(i + set) % DRIVERS.length] as DriverName);
    for (const name of order) {
      const driver = await openDriver(name, cluster.tcpUrl);
      const result = await measure(driver, run++, serverCpu);
      await driver.end();
      results.push(result);
      console.log(
        `set ${set + 1}: ${result.driver}: ${result.roundsPerSecond} rounds/s, client ${result.clientCpuMsPerRound.toFixed(3)} ms and server ${result.serverCpuMsPerRound.toFixed(3)} ms CPU per round`,
      );
    }
  }
  const of = (name: string, field: keyof Omit<SetResult, 'driver'>) =>
    percentile(
      results
        .filter((result) => result.driver === name)
        .map((result) => result[field])
        .sort((a, b) => a - b),
      50,
    );
  const summary = Object.fromEntries(
    DRIVERS.map((name) => [
      name,
      {
        'rounds/s': of(name, 'roundsPerSecond'),
        'client CPU ms/round': of(name, 'clientCpuMsPerRound'),
        'server CPU ms/round': of(name, 'serverCpuMsPerRound'),
        'client CPU ÷ pg': Number(
          (of(name, 'clientCpuMsPerRound') / of('pg', 'clientCpuMsPerRound')).toFixed(2),
        ),
      },
    ]),
  );
  report(
    'driver',
    `pnpm bench:driver --rounds ${ROUNDS} --players ${PLAYERS} --sets ${SETS}`,
    { sets: results, summary, loadBefore: load, loadAfter: loadAverage() },
    summary,
  );
} finally {
  await cluster.stop();
}
