import { parseArgs } from 'node:util';
import pg from 'pg';
import { dayBounds } from '../../src/services/day-bounds.ts';
import { createPool } from '../../src/store/postgres/database.ts';
import { createPostgresExec } from '../../src/store/postgres/exec.ts';
import { createLedgerCounts } from '../../src/store/postgres/ledger-counts.ts';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.ts';
import { PLANNED_EACH_RUN, type Sql } from '../../src/store/postgres/sql.ts';
import { createUnits } from '../../src/store/postgres/units.ts';
import type { LedgerFilter } from '../../src/store/records.ts';
import { createLedgerRepo } from '../../src/store/repos/ledger-repo.ts';
import { type BenchDatabase, startBenchDatabase } from '../play/bench-database.ts';
import { seedLedger } from '../seed-ledger.ts';
import { type ListCase, listCases } from './list-cases.ts';
import { startLedgerDatabase } from './postgres-ledger.ts';

/**
 * Each statement of each list case of `bench:api --database postgres`, run alone under
 * `EXPLAIN (ANALYZE, BUFFERS)` on the loaded ledger: what a list costs PostgreSQL, apart from the
 * machine's load and the service's own work. A statement is prepared, as the service's are, and
 * run 7 times: `warm` is the second run (a custom plan), `7th` the last (PostgreSQL's plan cache
 * may have switched to a generic plan by then, as it does for the service: `generic` says so). A
 * statement the service sends unnamed (PLANNED_EACH_RUN) is explained with its values inline.
 *
 *   node --import tsx apps/server/bench/api/postgres-explain.ts [--data DIR] [--only case,case] [--plans]
 *
 * `--data`: start a copy of this kept cluster folder (as `startLedgerDatabase` keeps them) instead
 * of the one for the current code; the adapter's migrations are applied to the copy first, and the
 * counts folded, so a new migration is measured without a ten-minute reload.
 */

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    only: { type: 'string' },
    plans: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '1000000' },
  },
});

const log = (line: string) => console.log(line);

/** The LedgerFilter and page the list service builds from a case's query. */
function requestOf(clientId: string, item: ListCase) {
  const q = item.query;
  const filter: LedgerFilter = {
    clientId,
    profileId: q.profileId ?? null,
    playerId: q.userId ?? null,
    roundId: null,
    type: (q.type as LedgerFilter['type']) ?? null,
    status: null,
    ...dayBounds({ dateStart: q.dateStart, dateEnd: q.dateEnd }),
  };
  const page = { pageIndex: Number(q.pageIndex ?? 1), pageSize: Number(q.pageSize ?? 20) };
  return { filter, page };
}

/** A statement's values as SQL literals, for EXECUTE. */
function literal(client: pg.Client, value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value))
    return client.escapeLiteral(
      `{${value.map((item) => `"${String(item).replaceAll('"', '\\"')}"`).join(',')}}`,
    );
  return client.escapeLiteral(String(value));
}

interface Explained {
  warmMs: number;
  seventhMs: number;
  generic: boolean;
  plan: string;
}

async function explain(client: pg.Client, text: string, params: readonly unknown[]): Promise<Explained> {
  if (text.startsWith(PLANNED_EACH_RUN)) {
    // Sent unnamed by the service: planned for its values at each run.
    const inline = text.replace(/\$(\d+)/g, (_, n: string) => literal(client, params[Number(n) - 1]));
    const times: number[] = [];
    let plan = '';
    for (let run = 0; run < 7; run++) {
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${inline}`);
      plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      times.push(Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? Number.NaN));
    }
    return { warmMs: times[1] ?? 0, seventhMs: times[6] ?? 0, generic: false, plan };
  }
  await client.query('DEALLOCATE ALL');
  await client.query(`PREPARE probe AS ${text}`);
  const call = `EXPLAIN (ANALYZE, BUFFERS) EXECUTE probe(${params.map((value) => literal(client, value)).join(', ')})`;
  const times: number[] = [];
  let plan = '';
  for (let run = 0; run < 7; run++) {
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      params.length === 0 ? call.replace('probe()', 'probe') : call,
    );
    plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    times.push(Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? Number.NaN));
  }
  return { warmMs: times[1] ?? 0, seventhMs: times[6] ?? 0, generic: /\$\d/.test(plan), plan };
}

/** The statements a ledger call runs, recorded (the repository's reads, on a plain pool). */
function recording(pool: pg.Pool) {
  const statements: { text: string; values: readonly unknown[] }[] = [];
  const sql: Sql = {
    query: async (text, values = []) => {
      statements.push({ text, values });
      const result = await pool.query(text, values as unknown[]);
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    },
    atomic: (work) => work(sql),
    // As in a unit: the repository starts no background fold (the counts are folded first, here).
    inUnit: true,
  };
  return { sql, statements };
}

const seeded = await seedLedger({ rounds: Number(values.rounds), log });
let database: BenchDatabase | undefined;
try {
  database = values.data
    ? await startBenchDatabase({ dataFrom: values.data })
    : await startLedgerDatabase(seeded, log);
  const store = openPostgresStore(database.url, { maxConnections: 1 });
  await store.ready; // the current migrations, on a copy kept by older code
  await store.close();
  const pool = createPool(database.url, { max: 2 });
  const folding = performance.now();
  const counts = createLedgerCounts(createUnits(pool, async () => {}).outside);
  await counts.fold('round', { wait: true });
  await counts.fold('transaction', { wait: true });
  log(`counts folded in ${((performance.now() - folding) / 1000).toFixed(1)} s`);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const selected = values.only?.split(',').map((name) => name.trim().toLowerCase());
  const rows: Record<string, string | number>[] = [];
  // One repository for every case, as in the service (it keeps what it learnt of the watermarks).
  const { sql, statements } = recording(pool);
  const repo = createLedgerRepo(createPostgresExec(sql), createLedgerCounts(sql, { foldCounts: true }));
  try {
    for (const item of listCases(seeded)) {
      if (selected && !selected.some((name) => item.name.toLowerCase().includes(name))) continue;
      const { filter, page } = requestOf(seeded.clientId, item);
      statements.length = 0;
      const answer =
        item.list === 'round'
          ? await repo.listRounds(filter, page)
          : await repo.listTransactions(filter, page);
      for (const [i, statement] of statements.entries()) {
        const result = await explain(client, statement.text, statement.values);
        rows.push({
          case: item.name,
          statement: i,
          'warm ms': result.warmMs,
          '7th ms': result.seventhMs,
          generic: result.generic ? 'yes' : '',
          totalCount: i === 0 ? answer.totalCount : '',
        });
        if (values.plans) log(`\n== ${item.name}, statement ${i}\n${statement.text}\n${result.plan}`);
      }
    }
  } finally {
    await client.end();
    await pool.end();
  }
  console.table(rows);
} finally {
  await database?.close();
}
