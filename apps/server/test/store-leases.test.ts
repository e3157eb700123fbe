// sqlite-only: leases raced by several processes on one SQLite file
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { at, seedRound, seedSeat, seedTransaction, seedWebhook } from './store-contract/fixtures.ts';

/**
 * Leases across processes, on one SQLite file: several real processes race for the same due
 * wallet calls and webhook queues at once; each is won by exactly one of them.
 */
const serverDir = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'raspa-leases-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function racer(file: string, owner: string, job: object) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/lease-racer.ts', file, owner, JSON.stringify(job)],
    {
      cwd: serverDir,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  let ready = () => {};
  const opened = new Promise<void>((resolve) => (ready = resolve));
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => {
    err += chunk;
    if (err.includes('ready\n')) ready();
  });
  const done = new Promise<{ calls: string[]; webhooks: string[] }>((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`racer ${owner}: ${err}`)),
    );
  });
  return { opened, go: () => child.stdin.end('go\n'), done };
}

describe('leases on one SQLite file shared by several processes', () => {
  it('gives each due wallet call and each webhook queue to exactly one process', async () => {
    const file = join(dir, 'raspa.sqlite');
    const store = openSqliteStore(file);
    const seat = await seedSeat(store);
    const round = await seedRound(store, seat);
    const calls: string[] = [];
    for (let i = 0; i < 60; i++)
      calls.push((await seedTransaction(store, round, { nextAttemptAt: at(0) })).id);
    const webhooks: string[] = [];
    for (let i = 0; i < 20; i++) webhooks.push((await seedWebhook(store, seat.client.id)).id);
    await store.close();

    const job = { calls, webhooks, now: at(10), until: at(40) };
    const racers = ['process-a', 'process-b', 'process-c'].map((owner) => racer(file, owner, job));
    // Each opens the file first; "go" then starts them together.
    await Promise.race([Promise.all(racers.map(({ opened }) => opened)), ...racers.map(({ done }) => done)]);
    for (const { go } of racers) go();
    const results = await Promise.all(racers.map(({ done }) => done));

    for (const kind of ['calls', 'webhooks'] as const) {
      const won = results.flatMap((result) => result[kind]);
      expect(won.sort(), kind).toEqual((kind === 'calls' ? calls : webhooks).toSorted());
    }
  }, 120_000);
});
