import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import type { PageRequest } from '../src/store/paging.ts';
import type { LedgerFilter } from '../src/store/records.ts';
import { createLedgerRepo } from '../src/store/repos/ledger-repo.ts';
import { createSqliteExec } from '../src/store/sqlite/exec.ts';
import { createLedgerCounts } from '../src/store/sqlite/ledger-counts.ts';
import { queryPlan, type RecordedStatement, recordingDb } from '../test/sql-recorder.ts';
import { report } from './kit/report.ts';
import { latency } from './kit/stats.ts';
import { type SeededLedger, seedLedger } from './seed-ledger.ts';

/**
 * The list queries without HTTP: for each case, the ledger repo's whole call timed over N runs,
 * and each SQL statement it ran (page, count, details) timed alone with its EXPLAIN QUERY PLAN.
 * On the cached seeded ledger, opened read-only. For finding what makes a list slow; the API
 * bench (api.ts) measures what an integrator sees.
 */

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '20' },
    only: { type: 'string' },
    quiet: { type: 'boolean', default: false }, // the table only, no plans
  },
});
const runs = Number(values.runs);

interface QueryCase {
  name: string;
  list: 'rounds' | 'transactions';
  filter: Partial<LedgerFilter>;
  page?: PageRequest;
}

function casesFor(seeded: SeededLedger): QueryCase[] {
  const [big, small] = [...seeded.profiles].sort((a, b) => b.rounds - a.rounds);
  if (!big || !small) throw new Error('no profiles');
  const first = Date.parse(`${seeded.firstDay}T00:00:00.000Z`);
  const weekStart = new Date(first + 45 * 86_400_000).toISOString();
  const weekEnd = new Date(first + 52 * 86_400_000).toISOString();
  const week = { from: weekStart, before: weekEnd };
  const cases: QueryCase[] = [];
  for (const list of ['transactions', 'rounds'] as const) {
    cases.push(
      { name: 'first page', list, filter: {} },
      { name: 'profile', list, filter: { profileId: big.id } },
      { name: 'busiest user', list, filter: { playerId: seeded.busyPlayer.id } },
      { name: 'one week', list, filter: week },
      { name: 'type=prize', list, filter: { type: 'prize' } },
      { name: 'type=rollback', list, filter: { type: 'rollback' } },
      { name: 'type=deposit (none)', list, filter: { type: 'deposit' } },
      { name: 'profile+prize+week', list, filter: { profileId: small.id, type: 'prize', ...week } },
      { name: 'deep: page 500 of 20', list, filter: {}, page: { pageIndex: 500, pageSize: 20 } },
      { name: 'very deep: page 25,000 of 20', list, filter: {}, page: { pageIndex: 25_000, pageSize: 20 } },
    );
  }
  return cases;
}

const seeded = await seedLedger({ rounds: Number(values.rounds), log: (line) => console.log(line) });
const db = new Database(join(seeded.dir, 'raspa.sqlite'), { readonly: true });
const captured: RecordedStatement[] = [];
const recorded = recordingDb(db, captured);
const ledger = createLedgerRepo(createSqliteExec(recorded), createLedgerCounts(recorded));
const selected = values.only?.toLowerCase();

const results = [];
const table: Record<string, Record<string, string | number>> = {};
for (const item of casesFor(seeded)) {
  const label = `${item.list}: ${item.name}`;
  if (selected && !label.toLowerCase().includes(selected)) continue;
  const filter: LedgerFilter = {
    clientId: seeded.clientId,
    profileId: null,
    playerId: null,
    roundId: null,
    type: null,
    status: null,
    from: null,
    before: null,
    ...item.filter,
  };
  const page = item.page ?? { pageIndex: 1, pageSize: 20 };
  const call = () =>
    item.list === 'rounds' ? ledger.listRounds(filter, page) : ledger.listTransactions(filter, page);
  let answer: Awaited<ReturnType<typeof call>> | undefined;
  try {
    answer = await call();
  } catch (error) {
    // A refused page (the paging bound) is a result too.
    table[label] = { error: error instanceof Error ? error.message.slice(0, 60) : String(error) };
    continue;
  }
  const samples: number[] = [];
  const deadline = performance.now() + 20_000; // a slow case gets fewer runs, never more than 20 s
  for (let run = 0; run < runs && performance.now() < deadline; run++) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  captured.length = 0;
  await call();
  const statements = captured.map((recorded) => {
    const { sql, params } = recorded;
    const statement = db.prepare(sql);
    const times: number[] = [];
    for (let run = 0; run < Math.min(runs, 5); run++) {
      const started = performance.now();
      statement.all(...params);
      times.push(performance.now() - started);
    }
    const plan = queryPlan(db, recorded);
    return { sql: sql.replace(/\s+/g, ' ').trim(), ms: latency(times).p50, plan };
  });
  const timing = latency(samples);
  results.push({ list: item.list, name: item.name, totalCount: answer.totalCount, ms: timing, statements });
  table[label] = {
    totalCount: answer.totalCount,
    'p50 ms': timing.p50,
    'p99 ms': timing.p99,
    'max ms': timing.max,
    'statements ms': statements.map((statement) => statement.ms).join(' + '),
  };
  if (!values.quiet) {
    console.log(`\n${label}: p50 ${timing.p50} ms`);
    for (const statement of statements) {
      console.log(`  ${statement.ms} ms  ${statement.sql.slice(0, 160)}`);
      for (const line of statement.plan) console.log(`      ${line}`);
    }
  }
}
db.close();
report(
  'ledger-queries',
  `node --import tsx apps/server/bench/ledger-queries.ts --rounds ${values.rounds} --runs ${runs}`,
  { rounds: seeded.rounds, transactions: seeded.transactions, migrations: seeded.migrations, cases: results },
  table,
);
