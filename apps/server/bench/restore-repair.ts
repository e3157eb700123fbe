/**
 * What the start-up repair of a restored PostgreSQL database costs (issue 36 item 2; docs/store.md,
 * "A restored database"):
 *
 *   node --import tsx apps/server/bench/restore-repair.ts [--rounds 200000]
 *
 * A fresh cluster (fsync on), the schema by the adapter's migrations, then a synthetic ledger written
 * straight into the three folded tables (rounds over 90 days and 5 profiles, a bet for each, a prize for
 * one in three; round_types filled by its trigger) with transaction ids far ahead of the cluster's, and
 * watermarks as far: what a dump restored into a new cluster looks like. Prints the repair's time and
 * what it re-stamped, then the check a later start runs. The rows are not valid rounds (no client,
 * game or player behind them): only the repair reads them.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createPool } from '../src/store/postgres/database.ts';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { repairRestoredDatabase } from '../src/store/postgres/restored-database.ts';
import { startCluster } from '../test/postgres-cluster.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '200000' } } });
const rounds = Number(values.rounds);
if (!Number.isSafeInteger(rounds) || rounds < 1) throw new Error('--rounds wants a whole number above 0');

/** Far past any id the fresh cluster hands out during the run. */
const AHEAD = 90_000_000;
const DAY = `to_char(timestamp '2026-01-01' + (g % 90) * interval '1 day', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"')`;
const XID = `(${AHEAD} + g)::text::xid8`;

const cluster = await startCluster();
try {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('CREATE DATABASE restored');
  await admin.end();
  const url = new URL(cluster.url);
  url.pathname = '/restored';
  const store = openPostgresStore(url.href);
  await store.ready;
  await store.close();

  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  await client.query(
    `INSERT INTO rounds (id, client_id, profile_id, game_id, player_id, session_id, status, currency,
       paid_minor, created_at, written_xid)
     SELECT 'r' || g, 'c', 'p' || (g % 5), 'g', 'pl' || (g % 10000), 's', 'closed', 'BRL', 200, ${DAY}, ${XID}
     FROM generate_series(1, $1::int) g`,
    [rounds],
  );
  await client.query(
    `INSERT INTO transactions (id, round_id, client_id, profile_id, player_id, type, amount_minor, currency,
       status, created_at, written_xid)
     SELECT 't' || g || '.' || k, 'r' || g, 'c', 'p' || (g % 5), 'pl' || (g % 10000),
       CASE k WHEN 0 THEN 'bet' ELSE 'prize' END, 200, 'BRL', 'completed', ${DAY}, ${XID}
     FROM generate_series(1, $1::int) g, generate_series(0, 1) k WHERE k = 0 OR g % 3 = 0`,
    [rounds],
  );
  await client.query(
    `UPDATE round_types SET written_xid = (${AHEAD} + substr(round_id, 2)::bigint)::text::xid8`,
  );
  await client.query(
    `INSERT INTO ledger_count_folds (source, folded_xid)
     VALUES ('rounds', '${AHEAD}'), ('round_types', '${AHEAD}'), ('transactions', '${AHEAD}')`,
  );
  await client.query('VACUUM ANALYZE');
  const { rows } = await client.query(
    `SELECT (SELECT count(*) FROM rounds) AS rounds, (SELECT count(*) FROM transactions) AS transactions,
       (SELECT count(*) FROM round_types) AS round_types, pg_size_pretty(pg_database_size('restored')) AS size`,
  );
  await client.end();
  console.log('restored ledger:', rows[0]);

  const pool = createPool(url.href, { max: 1 });
  let started = performance.now();
  const repair = await repairRestoredDatabase(pool);
  console.log(`repair: ${Math.round(performance.now() - started)} ms, re-stamped`, repair?.restamped);
  started = performance.now();
  const again = await repairRestoredDatabase(pool);
  console.log(
    `the next start's check: ${Math.round(performance.now() - started)} ms, ${again ? 'repaired again (wrong)' : 'nothing to do'}`,
  );
  await pool.end();
} finally {
  await cluster.stop();
}
