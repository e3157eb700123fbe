// sqlite-only: runs the play-loop bench as a fresh clone does, on its default embedded file (the bench does not read the harness's choice of database)
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

describe('the play-loop bench', () => {
  it('runs a short loop to the end and writes its figures', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'apps/server/bench/play-loop.ts',
        '--players',
        '4',
        '--seconds',
        '1',
        '--workers',
        '1',
        '--statements',
      ],
      { cwd: root, env: { ...process.env, BENCH_RESULTS_DIR: results }, encoding: 'utf8', timeout: 90_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const [file] = readdirSync(results).filter((name) => name.startsWith('play-loop-'));
    const { result } = JSON.parse(readFileSync(join(results, file ?? ''), 'utf8'));
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
});
