// postgres-only: PostgreSQL's commit order of sequence values, already run on the cluster in the server project
/**
 * Issue 22 item 1, at the drain and the store: on PostgreSQL an event's `seq` is taken from the
 * identity sequence when it is inserted but is seen only once its transaction commits, so events
 * commit out of seq order. Here a round's open-round is inserted in a unit that commits only after
 * a later event was read and sent; the round's close-round is queued after that commit (as the
 * reveal does after the buy). The drain must still send the open-round first, and the close-round
 * only once the open-round was answered.
 */
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { silentLogger } from '../src/logger.ts';
import { createSecretBox } from '../src/security/secrets.ts';
import type { OutboxEvent } from '../src/store/records.ts';
import { createWebhookDrain } from '../src/webhooks/drain.ts';
import { usePostgresStore } from './postgres-database.ts';
import {
  at,
  outboxEvent,
  seedPlayerAt,
  seedRound,
  seedSeat,
  seedWebhook,
} from './store-contract/fixtures.ts';

const opened = usePostgresStore();

/** A promise and the function that settles it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

it('sends an open-round that committed after a later event was read before its close-round', async () => {
  const { store } = opened;
  const seat = await seedSeat(store);
  const other = await seedPlayerAt(store, seat);
  const early = await seedRound(store, seat, { status: 'open' });
  const late = await seedRound(store, other, { status: 'open' });
  const webhook = await seedWebhook(store, seat.client.id);
  const queue = (roundId: string, eventType: 'open-round' | 'close-round') =>
    outboxEvent(webhook.id, roundId, { eventType, nextAttemptAt: at(0) });

  // The receiver: each attempt is noted when it is sent and answered (2xx) when the test says.
  const sent: string[] = [];
  const answers = new Map<string, () => void>();
  let answerAtOnce = false;
  const arrived: Array<() => void> = [];
  const attempt = async (_to: unknown, event: OutboxEvent) => {
    sent.push(`${event.eventType} ${event.roundId}`);
    if (!answerAtOnce) {
      const answer = gate();
      answers.set(event.id, answer.open);
      for (const tell of arrived.splice(0)) tell();
      await answer.opened;
    }
    await store.outbox.markDelivered(event.id, event.attempts + 1);
    return true;
  };
  const nextArrival = () => new Promise<void>((resolve) => arrived.push(resolve));
  const drain = createWebhookDrain({
    store,
    clock: () => new Date(at(10)),
    secrets: createSecretBox(randomBytes(32)),
    logger: silentLogger,
    sender: { forget: () => {} },
    attempt,
    batch: () => Promise.reject(new Error('no batch webhook here')),
    perWebhook: 8,
    stopping: () => false,
    onFault: () => {},
  });

  // 1. The early round's open-round takes its seq in a unit that has not committed yet.
  const inserted = gate();
  const commit = gate();
  const earlyOpen = queue(early.id, 'open-round');
  const unit = store.transaction(async (tx) => {
    await tx.outbox.insert(earlyOpen);
    inserted.open();
    await commit.opened;
  });
  await inserted.opened;
  // 2. Another round's open-round takes a later seq and commits first; the drain reads and sends it.
  await store.outbox.insert(queue(late.id, 'open-round'));
  const arrival = nextArrival();
  const draining = drain(webhook.id);
  await arrival;
  expect(sent).toEqual([`open-round ${late.id}`]);
  // 3. The early unit commits; its round is revealed, which queues its close-round.
  commit.open();
  await unit;
  const earlyOpenSeq = (await store.outbox.findById(earlyOpen.id))?.seq as number;
  const earlyClose = queue(early.id, 'close-round');
  await store.outbox.insert(earlyClose);
  expect((await store.outbox.findById(earlyClose.id))?.seq).toBeGreaterThan(earlyOpenSeq);
  // 4. The receiver answers the late round's open-round; from now on it answers at once.
  answerAtOnce = true;
  for (const answer of answers.values()) answer();
  await draining;
  // Whatever one drain left queued, the next one sends (the dispatcher starts another).
  await drain(webhook.id);

  expect(sent).toEqual([`open-round ${late.id}`, `open-round ${early.id}`, `close-round ${early.id}`]);
  for (const id of [earlyOpen.id, earlyClose.id])
    expect((await store.outbox.findById(id))?.status).toBe('delivered');
});
