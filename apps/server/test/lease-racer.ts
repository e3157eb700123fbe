/**
 * One of several processes racing for the same leases on one SQLite file (store-leases test):
 * waits for the parent's "go" on stdin, tries to take every wallet call and webhook lease named in
 * argv, and prints the ones it won as JSON. Stops by itself.
 */
import { createInterface } from 'node:readline';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';

const [file, owner, job] = process.argv.slice(2);
if (!file || !owner || !job)
  throw new Error('usage: lease-racer FILE OWNER {"calls","webhooks","now","until"}');
const { calls, webhooks, now, until }: { calls: string[]; webhooks: string[]; now: string; until: string } =
  JSON.parse(job);
const store = openSqliteStore(file);
process.stderr.write('ready\n');

await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
const won = { calls: [] as string[], webhooks: [] as string[] };
// Each in its own unit, as the retrier and the dispatcher take them, in a shuffled order.
const order = <T>(items: T[]) =>
  items.map((item) => [Math.random(), item] as const).sort((a, b) => a[0] - b[0]);
await Promise.all([
  ...order(calls).map(async ([, id]) => {
    const claimed = await store.transaction((tx) => tx.rounds.claimDue(id, owner, now, until));
    if (claimed) won.calls.push(id);
  }),
  ...order(webhooks).map(async ([, id]) => {
    if (await store.outbox.claimWebhook(id, owner, now, until)) won.webhooks.push(id);
  }),
]);
await store.close();
process.stdout.write(`${JSON.stringify(won)}\n`);
