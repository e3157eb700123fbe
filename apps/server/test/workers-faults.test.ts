// sqlite-only: WORKERS=2 on one SQLite file, a worker killed; the same on PostgreSQL instances is instances-faults.postgres.test.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processTree } from '../bench/kit/cpu.ts';
import { fleetSettings, playThroughAKill, startHangingOperator } from './fleet-scenario.ts';
import { eventually } from './play-fixtures.ts';
import { RETRY_ONCE_IN_CI, type ServiceProcess, startServiceProcess } from './service-process.ts';
import type { TestOperator } from './test-operator.ts';

/**
 * Several processes on one database (issue 12): fleet-scenario.ts with WORKERS=2 on one SQLite
 * file, 100 players spread over both workers by the cluster's round-robin. The primary starts
 * another worker in place of the killed one; the dead worker's leases expire (30 s for a wallet
 * call, 60 s for a webhook's queue) and the other finishes its work.
 */
const API_KEY = 'rsp_workers-faults-api-key-0123456789';
const PLAYERS = 100;
/** Players with two tabs asking to buy at once, on both workers. */
const TWO_TAB_PLAYERS = 20;
const ROUNDS_EACH = 3;

let operator: TestOperator;
let dataDir: string;
let service: ServiceProcess | undefined;

beforeAll(async () => {
  operator = await startHangingOperator();
  dataDir = mkdtempSync(join(tmpdir(), 'raspa-workers-faults-'));
});
afterAll(async () => {
  if (service?.child.exitCode === null) service.child.kill('SIGKILL');
  await operator.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('WORKERS=2 on one SQLite file, a worker killed mid-burst', RETRY_ONCE_IN_CI, () => {
  it('ends every round, sends each wallet call under one transactionId, keeps the balances and delivers every event as logged', async () => {
    const running = await startServiceProcess({
      WORKERS: '2',
      DATA_DIR: dataDir,
      ...fleetSettings(API_KEY),
    });
    service = running;
    const pids = running.workerPids();
    expect(new Set(pids).size).toBe(2);
    await playThroughAKill(
      {
        url: running.url,
        call: running.call,
        apiKey: API_KEY,
        killOne() {
          // Nothing stopped before the kill: a worker that died by itself would leave the scenario
          // with tabs gone for another reason than the kill.
          expect(running.errors()).toEqual([]);
          process.kill(pids[0] as number, 'SIGKILL');
        },
        errors: running.errors,
        // The primary starts another worker: two workers again, one of them new.
        async replaced() {
          await eventually(() => running.logs().includes('a worker stopped; starting another'));
          const workers = await eventually(() => {
            const tree = processTree(running.child.pid).slice(1);
            return tree.length === 2 && !tree.includes(pids[0] as number) && tree;
          });
          expect(workers.filter((pid) => !pids.includes(pid))).toHaveLength(1);
        },
      },
      operator,
      { players: PLAYERS, twoTabPlayers: TWO_TAB_PLAYERS, roundsEach: ROUNDS_EACH },
    );
    // The primary outlived the kill (a message to the dead worker once stopped it, and every
    // worker with it): the one error logged is the killed worker's stop.
    const errors = running.errors().map((line) => (line.startsWith('{') ? JSON.parse(line).msg : line));
    expect(errors).toEqual(['a worker stopped; starting another']);
    expect(await running.stop()).toBe(0);
  }, 400_000);
});
