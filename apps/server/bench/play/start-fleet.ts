import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchChild, forkChild } from '../kit/child.ts';
import { startServiceOnFreePort } from '../kit/processes.ts';
import type { BenchDatabase } from './bench-database.ts';
import type { OperatorAddress } from './set-up.ts';
import type { Fleet } from './stop-fleet.ts';

export const BENCH_API_KEY = 'rsp_bench-api-key-0123456789abcdef';

export interface FleetOptions {
  instances: number;
  /** Processes per instance (the WORKERS setting). */
  workers: number;
  /** PostgreSQL for every instance; none: each on its own SQLite file. */
  database?: BenchDatabase | undefined;
  /**
   * Where the instances write their statement counts (the STATEMENT_STATS setting, a file per
   * process), in the first instance's folder; none: not counted.
   */
  statementsFile?: (dataDir: string) => string | undefined;
  nodeFlags?: string[];
}

/** A started fleet: what stopFleet stops, and where to reach it. */
export interface StartedFleet extends Fleet {
  operator: BenchChild;
  address: OperatorAddress;
  services: ChildProcess[];
  urls: string[];
  statementsFile: string | undefined;
}

/**
 * The play benches' fleet, before any player: the operator (wallet and webhook receiver) in its own
 * process, and N instances of the service on 127.0.0.1, sharing the database and the key of its
 * sealed tokens and seeds. On a failure part-way, what started is in `into` for stopFleet.
 */
export async function startFleet(options: FleetOptions, into: Fleet): Promise<StartedFleet> {
  const operator = forkChild(new URL('./operator-process.ts', import.meta.url));
  into.operator = operator;
  const address = await operator.ask<OperatorAddress>('address');
  const { database } = options;
  const secretKey = randomBytes(32).toString('hex');
  const urls: string[] = [];
  let statementsFile: string | undefined;
  for (let i = 0; i < options.instances; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'raspa-bench-'));
    into.dataDirs.push(dataDir);
    if (i === 0) statementsFile = options.statementsFile?.(dataDir);
    const started = await startServiceOnFreePort({
      dataDir,
      apiKey: BENCH_API_KEY,
      // The bench operator's wallet and receiver are on 127.0.0.1.
      env: {
        OUTBOUND_ALLOW_PRIVATE: 'true',
        WORKERS: String(options.workers),
        ...(database && { DATABASE_URL: database.url, SECRET_KEY: secretKey }),
        ...(statementsFile && { STATEMENT_STATS: statementsFile }),
      },
      nodeFlags: options.nodeFlags ?? [],
    });
    into.services.push(started.child);
    urls.push(`http://127.0.0.1:${started.port}`);
  }
  return { ...into, operator, address, services: into.services, urls, statementsFile };
}
