import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { BIN } from '../../test/postgres-cluster.ts';
import { sleep } from '../kit/processes.ts';
import { type BenchDatabase, cpuBetween, processKind } from '../play/bench-database.ts';

/**
 * pgbench's TPC-B-like transaction on the bench's own cluster (issue 34 item 1): what PostgreSQL
 * itself costs per durable transaction of 5 data statements, on this machine, in this run. Its
 * database sits beside the service's; nothing else runs on the cluster while it is measured.
 */
export interface PgbenchRun {
  transactions: number;
  tps: number;
  /** PostgreSQL's CPU per transaction (its backends, exited ones included, and its workers). */
  cpuMsPerTransaction: number;
  walRecordsPerTransaction: number;
  walBytesPerTransaction: number;
}

export interface PgbenchOptions {
  clients: number;
  seconds: number;
  /** Rows of pgbench_branches; at least `clients`, so clients do not queue on one branch row. */
  scale: number;
}

/** Runs pgbench with `args`, resolving with its standard output (it fails loudly). */
function pgbench(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(BIN, 'pgbench'), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`pgbench ${args.join(' ')} failed (${code}): ${err}`)),
    );
  });
}

/** The cluster's backends now (pgbench's leave after it exits: their CPU is counted once they have). */
function backends(database: BenchDatabase): number {
  return [...(database.cpu()?.keys() ?? [])].filter((pid) => processKind(pid) === 'backend').length;
}

/** Creates pgbench's database and tables (`pgbench -i`); returns a runner of measured runs. */
export async function preparePgbench(database: BenchDatabase, options: PgbenchOptions) {
  const url = await database.createDatabase('raspa_pgbench');
  await pgbench(['-i', '-q', '-s', String(options.scale), url]);

  /** One measured run: `-M prepared -c clients` for `seconds`, no vacuum before it (`-n`). */
  return async function run(): Promise<PgbenchRun> {
    const idle = backends(database);
    const cpuBefore = database.cpu();
    const walBefore = await database.wal();
    const out = await pgbench([
      '-n',
      '-M',
      'prepared',
      '-c',
      String(options.clients),
      '-j',
      '2',
      '-T',
      String(options.seconds),
      url,
    ]);
    // Its backends end just after it: their CPU joins the postmaster's reaped children, and their
    // WAL counters reach pg_stat_wal, as they exit.
    const deadline = Date.now() + 10_000;
    while (backends(database) > idle && Date.now() < deadline) await sleep(20);
    await sleep(200);
    const walAfter = await database.wal();
    const cpu = cpuBetween(cpuBefore, database.cpu());
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1]);
    const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
    if (!(transactions > 0) || cpu === null) throw new Error(`pgbench measured nothing:\n${out}`);
    const per = (value: number, digits: number) =>
      Math.round((value / transactions) * 10 ** digits) / 10 ** digits;
    return {
      transactions,
      tps: Math.round(tps),
      cpuMsPerTransaction: per(cpu * 1000, 3),
      walRecordsPerTransaction: per(walAfter.records - walBefore.records, 2),
      walBytesPerTransaction: per(walAfter.bytes - walBefore.bytes, 0),
    };
  };
}
