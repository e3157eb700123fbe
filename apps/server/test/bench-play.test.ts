// sqlite-only: runs the play-loop bench as a fresh clone does, on its default embedded file (the bench does not read the harness's choice of database); bench:floor starts its own PostgreSQL cluster
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `pnpm bench` must keep working from a fresh clone: a small play-loop run (its three processes,
 * real HTTP wallet and webhook receiver) must finish, with no errors and every webhook delivered.
 * Figures are not checked here: speed is measured by the benches, not by tests.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const results = mkdtempSync(join(tmpdir(), 'raspa-bench-test-'));
afterAll(() => rmSync(results, { recursive: true, force: true }));

/** Runs a bench file with `args` to its end; returns the `result` of the JSON it wrote. */
function runBench(file: string, name: string, args: string[], timeout: number) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', `apps/server/bench/${file}`, ...args], {
    cwd: root,
    env: { ...process.env, BENCH_RESULTS_DIR: results },
    encoding: 'utf8',
    timeout,
  });
  expect(run.status, `${run.error ?? ''} ${run.stderr}`).toBe(0);
  const [written] = readdirSync(results).filter((each) => each.startsWith(`${name}-`));
  return JSON.parse(readFileSync(join(results, written ?? ''), 'utf8')).result;
}

describe('the play-loop bench', () => {
  it('runs a short loop to the end and writes its figures', () => {
    const result = runBench(
      'play-loop.ts',
      'play-loop',
      ['--players', '4', '--seconds', '1', '--workers', '1', '--statements'],
      90_000,
    );
    expect(result).toMatchObject({ players: 4, errors: 0, webhooks: { attemptsFailed: 0 } });
    expect(result.rounds).toBeGreaterThan(0);
    // --statements: the service counted its SQL (a round writes at least its round and its bet).
    expect(result.statementsPerRound.statements).toBeGreaterThan(2);
    expect(result.statementsPerRound.top[0]).toMatchObject({
      sql: expect.any(String),
      calls: expect.any(Number),
    });
    // And webhook delivery's own statements, per event the receiver got during the run.
    expect(result.deliveryStatementsPerEvent.perEvent).toBeGreaterThan(0);
    // One CPU reading per service process (one here: WORKERS=1).
    expect(result.serviceProcessCpu).toHaveLength(result.serviceProcesses);
    expect(result.webhooks.drainMs).not.toBeNull();
    expect(result.webhooks.attemptsSucceeded).toBe(result.webhooks.expected);
    // A lone process has no other process to send anything to.
    expect(result.crossProcessMessages).toEqual({
      push: 0,
      presence: 0,
      session_end: 0,
      heartbeat: 0,
      other: 0,
      perRound: 0,
    });
  }, 120_000);

  it('bench:floor runs pgbench and the loop on both databases and writes the three ratios', () => {
    const result = runBench(
      'floor.ts',
      'floor',
      [
        ...['--players', '4', '--seconds', '1'],
        ...['--pgbench-clients', '2', '--pgbench-seconds', '1', '--pgbench-scale', '1', '--pg-statements'],
      ],
      240_000,
    );
    expect(result.pgbench.runs).toHaveLength(3);
    for (const ratio of Object.values(result.ratios)) expect(ratio).toEqual(expect.any(Number));
    expect(result.sqlite).toMatchObject({ database: 'sqlite', errors: 0 });
    expect(result.postgres).toMatchObject({ database: 'postgres', errors: 0 });
    // --pg-statements: each statement of a round, with pg_stat_statements' counters.
    expect(result.postgres.statementProfile.statements[0]).toMatchObject({
      sql: expect.any(String),
      calls: expect.any(Number),
      planMs: expect.any(Number),
      walRecords: expect.any(Number),
    });
  }, 300_000);
});
