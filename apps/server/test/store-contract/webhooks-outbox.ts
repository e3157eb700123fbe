import { describe, expect, it } from 'vitest';
import type { DeliveryFilter, LoggedDelivery, OutboxEvent, QueuedAttempt } from '../../src/store/records.ts';
import {
  at,
  deliveryAttempt,
  deliveryRecord,
  failedAttempt,
  type OpenStore,
  outboxEvent,
  seedClient,
  seedRound,
  seedSeat,
  seedWebhook,
  useStore,
  webhookRecord,
} from './fixtures.ts';

const NO_FILTER: DeliveryFilter = { status: null, from: null, before: null };
const ALL = { pageIndex: 1, pageSize: 100 };

/** WebhooksRepo (webhooks and their delivery log) and OutboxRepo. */
export function describeWebhooksOutboxContract(open: OpenStore): void {
  describe('webhooks', () => {
    const store = useStore(open);

    it('gives an inserted webhook back by id, every field as written', async () => {
      const client = await seedClient(store());
      const webhook = webhookRecord(client.id, {
        eventTriggers: ['close-round'],
        status: 'disabled',
        lastTriggered: at(7),
        successCount: 3,
        failureCount: 2,
      });
      await store().webhooks.insert(webhook);
      expect(await store().webhooks.findById(webhook.id)).toEqual(webhook);
      expect(await store().webhooks.findById('nope')).toBeUndefined();
    });

    it('finds a live webhook by (client, url), not another client’s nor a deleted one', async () => {
      const client = await seedClient(store());
      const other = await seedClient(store());
      const live = await seedWebhook(store(), client.id, { url: 'https://hooks.example.test/a' });
      await seedWebhook(store(), client.id, { url: 'https://hooks.example.test/gone', deletedAt: at(1) });
      expect(await store().webhooks.findLiveByUrl(client.id, live.url)).toEqual(live);
      expect(await store().webhooks.findLiveByUrl(other.id, live.url)).toBeUndefined();
      expect(
        await store().webhooks.findLiveByUrl(client.id, 'https://hooks.example.test/gone'),
      ).toBeUndefined();
    });

    it('lists a client’s live webhooks oldest first', async () => {
      const client = await seedClient(store());
      const second = await seedWebhook(store(), client.id, { createdAt: at(20) });
      const first = await seedWebhook(store(), client.id, { createdAt: at(10) });
      await seedWebhook(store(), client.id, { createdAt: at(5), deletedAt: at(6) });
      await seedWebhook(store(), (await seedClient(store())).id, { createdAt: at(1) });
      expect(await store().webhooks.listLiveByClient(client.id)).toEqual([first, second]);
    });

    it('soft-deletes a live webhook once: true, then false; false for an unknown one', async () => {
      const client = await seedClient(store());
      const webhook = await seedWebhook(store(), client.id);
      expect(await store().webhooks.softDelete(webhook.id, at(50))).toBe(true);
      expect(await store().webhooks.softDelete(webhook.id, at(60))).toBe(false);
      expect(await store().webhooks.softDelete('nope', at(60))).toBe(false);
      expect(await store().webhooks.findById(webhook.id)).toEqual({ ...webhook, deletedAt: at(50) });
      expect(await store().webhooks.listLiveByClient(client.id)).toEqual([]);
    });

    it('keeps one live webhook per (client, url); a deleted one frees its url', async () => {
      const client = await seedClient(store());
      const url = 'https://hooks.example.test/one';
      const first = await seedWebhook(store(), client.id, { url });
      await expect(store().webhooks.insert(webhookRecord(client.id, { url }))).rejects.toThrow();
      await seedWebhook(store(), (await seedClient(store())).id, { url });
      await store().webhooks.softDelete(first.id, at(5));
      const again = await seedWebhook(store(), client.id, { url });
      expect(await store().webhooks.findLiveByUrl(client.id, url)).toEqual(again);
    });

    it('sets the status', async () => {
      const client = await seedClient(store());
      const webhook = await seedWebhook(store(), client.id);
      await store().webhooks.setStatus(webhook.id, 'disabled');
      expect(await store().webhooks.findById(webhook.id)).toEqual({ ...webhook, status: 'disabled' });
      await store().webhooks.setStatus(webhook.id, 'active');
      expect(await store().webhooks.findById(webhook.id)).toEqual(webhook);
    });
  });

  describe('webhook deliveries', () => {
    const store = useStore(open);
    const webhook = async () => seedWebhook(store(), (await seedClient(store())).id);
    /** The log without payloads (these rows have no outbox event; the payload has its own test). */
    const log = async (webhookId: string, filter: Partial<DeliveryFilter> = {}, page = ALL) => {
      const found = await store().webhooks.listDeliveries(webhookId, { ...NO_FILTER, ...filter }, page);
      return { ...found, items: found.items.map(({ payload: _, ...row }) => row) };
    };

    it('writes a log row as given, the webhook’s counters untouched', async () => {
      const hook = await webhook();
      const row = deliveryRecord(hook.id, {
        status: 'pending',
        success: false,
        responseCode: 503,
        retryCount: 4,
      });
      await store().webhooks.insertDelivery(row);
      expect(await log(hook.id)).toEqual({ items: [row], totalCount: 1, successCount: 0, failureCount: 1 });
      expect(await store().webhooks.findById(hook.id)).toEqual(hook);
    });

    it('records a successful attempt: logged as success, counted, lastTriggered set', async () => {
      const hook = await webhook();
      const attempt = deliveryAttempt(hook.id, { timestamp: at(10) });
      const { willRetry, ...fields } = attempt;
      const expected: LoggedDelivery = { ...fields, status: 'success', retryCount: 0 };
      expect(await store().webhooks.recordAttempt(attempt)).toEqual(expected);
      expect(await log(hook.id)).toEqual({
        items: [expected],
        totalCount: 1,
        successCount: 1,
        failureCount: 0,
      });
      expect(await store().webhooks.findById(hook.id)).toEqual({
        ...hook,
        successCount: 1,
        lastTriggered: at(10),
      });
    });

    it('records a failed attempt as pending when a retry is coming, failed when not', async () => {
      const hook = await webhook();
      const retrying = await store().webhooks.recordAttempt(failedAttempt(hook.id, { willRetry: true }));
      const givenUp = await store().webhooks.recordAttempt(failedAttempt(hook.id, { willRetry: false }));
      expect(retrying).toMatchObject({
        status: 'pending',
        success: false,
        responseCode: null,
        retryCount: 0,
      });
      expect(givenUp).toMatchObject({ status: 'failed', success: false, retryCount: 0 });
      expect(await store().webhooks.findById(hook.id)).toMatchObject({ successCount: 0, failureCount: 2 });
    });

    it('shows each row with its event’s payload, stored once in the outbox', async () => {
      const seat = await seedSeat(store());
      const round = await seedRound(store(), seat);
      const hook = await seedWebhook(store(), seat.client.id);
      const event = outboxEvent(hook.id, round.id, {
        payload: { nested: { ok: true, none: null }, n: [1, 2] },
      });
      await store().outbox.insert(event);
      const first = await store().webhooks.recordAttempt(failedAttempt(hook.id, { eventId: event.id }));
      const second = await store().webhooks.recordAttempt(
        deliveryAttempt(hook.id, { eventId: event.id, retryCount: 1, timestamp: at(1) }),
      );
      const listed = await store().webhooks.listDeliveries(hook.id, NO_FILTER, ALL);
      expect(listed.items).toEqual([
        { ...second, payload: event.payload },
        { ...first, status: 'failed', payload: event.payload },
      ]);
      expect(await store().webhooks.deliveriesOfRound(round.id)).toEqual(listed.items.toReversed());
    });

    it('closes an event’s pending row on each retry, logging the retryCount it is given', async () => {
      const hook = await webhook();
      const eventId = 'event-retried';
      const other = await store().webhooks.recordAttempt(
        failedAttempt(hook.id, { eventId: 'event-other', timestamp: at(0) }),
      );
      const first = await store().webhooks.recordAttempt(
        failedAttempt(hook.id, { eventId, timestamp: at(1) }),
      );
      const second = await store().webhooks.recordAttempt(
        failedAttempt(hook.id, { eventId, timestamp: at(2), retryCount: 1 }),
      );
      const third = await store().webhooks.recordAttempt(
        deliveryAttempt(hook.id, { eventId, timestamp: at(3), retryCount: 2 }),
      );
      expect([first, second, third].map((d) => [d.retryCount, d.status])).toEqual([
        [0, 'pending'],
        [1, 'pending'],
        [2, 'success'],
      ]);
      expect(await log(hook.id)).toEqual({
        items: [third, { ...second, status: 'failed' }, { ...first, status: 'failed' }, other],
        totalCount: 4,
        successCount: 1,
        failureCount: 3,
      });
      expect(await store().webhooks.findById(hook.id)).toMatchObject({
        successCount: 1,
        failureCount: 3,
        lastTriggered: at(3),
      });
    });

    it('records a batch of attempts as one recordAttempt each would: rows, closed pending rows, counters', async () => {
      const hook = await webhook();
      const other = await webhook();
      const retried = await store().webhooks.recordAttempt(
        failedAttempt(hook.id, { eventId: 'event-batch-retried', timestamp: at(1), willRetry: true }),
      );
      const queued = (attempt: ReturnType<typeof deliveryAttempt>): QueuedAttempt => ({
        ...attempt,
        retryCount: attempt.retryCount ?? 0,
      });
      const again = queued(
        deliveryAttempt(hook.id, { eventId: 'event-batch-retried', timestamp: at(5), retryCount: 1 }),
      );
      const plain = queued(
        deliveryAttempt(hook.id, { timestamp: at(4), responseCode: 204, responseBody: '' }),
      );
      const elsewhere = queued(deliveryAttempt(other.id, { timestamp: at(3) }));
      const retrying = queued(failedAttempt(other.id, { timestamp: at(2) }));
      const givenUp = queued(failedAttempt(other.id, { timestamp: at(1), willRetry: false }));
      await store().webhooks.recordAttempts([again, plain, elsewhere, retrying, givenUp]);
      await store().webhooks.recordAttempts([]);
      const logged = (
        { willRetry, ...attempt }: QueuedAttempt,
        status: LoggedDelivery['status'],
      ): LoggedDelivery => ({
        ...attempt,
        status,
      });
      expect(await log(hook.id)).toEqual({
        items: [logged(again, 'success'), logged(plain, 'success'), { ...retried, status: 'failed' }],
        totalCount: 3,
        successCount: 2,
        failureCount: 1,
      });
      expect(await log(other.id)).toMatchObject({
        items: [logged(elsewhere, 'success'), logged(retrying, 'pending'), logged(givenUp, 'failed')],
        successCount: 1,
        failureCount: 2,
      });
      expect(await store().webhooks.findById(hook.id)).toMatchObject({
        successCount: 2,
        failureCount: 1,
        lastTriggered: at(5),
      });
      expect(await store().webhooks.findById(other.id)).toMatchObject({
        successCount: 1,
        failureCount: 2,
        lastTriggered: at(3),
      });
    });

    it('counts the event’s earlier rows itself when no retryCount is given (a manual re-send)', async () => {
      const hook = await webhook();
      const eventId = 'event-re-sent';
      await store().webhooks.recordAttempt(deliveryAttempt(hook.id, { eventId, timestamp: at(1) }));
      const { retryCount: _, ...resend } = deliveryAttempt(hook.id, { eventId, timestamp: at(2) });
      expect(await store().webhooks.recordAttempt(resend)).toMatchObject({
        retryCount: 1,
        status: 'success',
      });
      const { retryCount: __, ...again } = failedAttempt(hook.id, { eventId, timestamp: at(3) });
      expect(await store().webhooks.recordAttempt(again)).toMatchObject({ retryCount: 2, status: 'pending' });
    });

    it('never moves lastTriggered back for an attempt that finished earlier', async () => {
      const hook = await webhook();
      await store().webhooks.recordAttempt(deliveryAttempt(hook.id, { timestamp: at(20) }));
      await store().webhooks.recordAttempt(deliveryAttempt(hook.id, { timestamp: at(10) }));
      expect(await store().webhooks.findById(hook.id)).toMatchObject({
        lastTriggered: at(20),
        successCount: 2,
      });
    });

    it('refuses an attempt at an unknown webhook and logs nothing', async () => {
      await expect(store().webhooks.recordAttempt(deliveryAttempt('no-webhook'))).rejects.toThrow();
      expect(await log('no-webhook')).toEqual({ items: [], totalCount: 0, successCount: 0, failureCount: 0 });
    });

    it('lists the log newest first, paged, with the totals of every filtered row', async () => {
      const hook = await webhook();
      const rows = [];
      for (let i = 0; i < 5; i++) {
        const success = i % 2 === 0;
        rows.push(
          await store().webhooks.recordAttempt(
            success
              ? deliveryAttempt(hook.id, { timestamp: at(i) })
              : failedAttempt(hook.id, { timestamp: at(i), willRetry: false }),
          ),
        );
      }
      await store().webhooks.recordAttempt(deliveryAttempt((await webhook()).id, { timestamp: at(3) }));
      const newest = [...rows].reverse();
      expect(await log(hook.id, {}, { pageIndex: 1, pageSize: 2 })).toEqual({
        items: newest.slice(0, 2),
        totalCount: 5,
        successCount: 3,
        failureCount: 2,
      });
      expect(await log(hook.id, {}, { pageIndex: 3, pageSize: 2 })).toEqual({
        items: newest.slice(4),
        totalCount: 5,
        successCount: 3,
        failureCount: 2,
      });
      expect((await log(hook.id, {}, { pageIndex: 4, pageSize: 2 })).items).toEqual([]);
    });

    it('filters the log by status and time: from inclusive, before exclusive', async () => {
      const hook = await webhook();
      const ok1 = await store().webhooks.recordAttempt(deliveryAttempt(hook.id, { timestamp: at(1) }));
      const pending = await store().webhooks.recordAttempt(failedAttempt(hook.id, { timestamp: at(2) }));
      const failed = await store().webhooks.recordAttempt(
        failedAttempt(hook.id, { timestamp: at(3), willRetry: false }),
      );
      const ok2 = await store().webhooks.recordAttempt(deliveryAttempt(hook.id, { timestamp: at(4) }));
      expect(await log(hook.id, { status: 'success' })).toEqual({
        items: [ok2, ok1],
        totalCount: 2,
        successCount: 2,
        failureCount: 0,
      });
      expect(await log(hook.id, { status: 'pending' })).toEqual({
        items: [pending],
        totalCount: 1,
        successCount: 0,
        failureCount: 1,
      });
      expect(await log(hook.id, { status: 'failed' })).toMatchObject({ items: [failed], totalCount: 1 });
      expect(await log(hook.id, { from: at(2), before: at(4) })).toEqual({
        items: [failed, pending],
        totalCount: 2,
        successCount: 0,
        failureCount: 2,
      });
      expect(await log(hook.id, { status: 'success', from: at(2) })).toMatchObject({
        items: [ok2],
        totalCount: 1,
      });
    });

    it('orders attempts of one instant by id, highest first', async () => {
      const hook = await webhook();
      const a = await store().webhooks.recordAttempt(deliveryAttempt(hook.id, { timestamp: at(1) }));
      const b = await store().webhooks.recordAttempt(deliveryAttempt(hook.id, { timestamp: at(1) }));
      expect((await log(hook.id)).items).toEqual([b, a]);
    });

    it('tells since when a webhook fails: null with no attempt or when its last succeeded', async () => {
      const hook = await webhook();
      const since = () => store().webhooks.failingSince(hook.id);
      expect(await since()).toBeNull();
      await store().webhooks.recordAttempt(failedAttempt(hook.id, { timestamp: at(1) }));
      expect(await since()).toBe(at(1));
      await store().webhooks.recordAttempt(failedAttempt(hook.id, { timestamp: at(2) }));
      expect(await since()).toBe(at(1));
      await store().webhooks.recordAttempt(deliveryAttempt(hook.id, { timestamp: at(3) }));
      expect(await since()).toBeNull();
      await store().webhooks.recordAttempt(failedAttempt(hook.id, { timestamp: at(4) }));
      await store().webhooks.recordAttempt(failedAttempt(hook.id, { timestamp: at(5), willRetry: false }));
      expect(await since()).toBe(at(4));
      expect(await store().webhooks.failingSince('nope')).toBeNull();
    });
  });

  describe('outbox', () => {
    const store = useStore(open);

    /** A round and two webhooks of its client, to queue events for. */
    async function setUp() {
      const repos = store();
      const seat = await seedSeat(repos);
      const round = await seedRound(repos, seat);
      const a = await seedWebhook(repos, seat.client.id);
      const b = await seedWebhook(repos, seat.client.id);
      const queue = async (webhookId: string, over: Parameters<typeof outboxEvent>[2] = {}) => {
        const event = outboxEvent(webhookId, round.id, over);
        await store().outbox.insert(event);
        const found = await store().outbox.findById(event.id);
        if (!found) throw new Error(`event ${event.id} was not stored`);
        return found;
      };
      return { seat, round, a, b, queue };
    }

    it('queues an event: status queued, no attempt, its payload as written', async () => {
      const { a, round } = await setUp();
      const event = outboxEvent(a.id, round.id, {
        eventType: 'close-round',
        nextAttemptAt: at(3),
        createdAt: at(2),
      });
      await store().outbox.insert(event);
      expect(await store().outbox.findById(event.id)).toEqual({
        ...event,
        seq: expect.any(Number),
        status: 'queued',
        attempts: 0,
        firstFailureAt: null,
      });
      expect(await store().outbox.findById('nope')).toBeUndefined();
    });

    it('numbers events in insertion order across webhooks', async () => {
      const { a, b, queue } = await setUp();
      const seqs = [];
      for (const webhookId of [a.id, b.id, a.id, b.id]) seqs.push((await queue(webhookId)).seq);
      expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
      expect(new Set(seqs).size).toBe(4);
    });

    it('gives one head per webhook with queued events, due or not: its oldest', async () => {
      const { a, b, seat, queue } = await setUp();
      const idle = await seedWebhook(store(), seat.client.id);
      const aHead = await queue(a.id, { nextAttemptAt: at(900) });
      await queue(a.id, { nextAttemptAt: at(1) });
      const bHead = await queue(b.id, { nextAttemptAt: at(5) });
      await queue(b.id);
      const delivered = await queue(idle.id);
      await store().outbox.markDelivered(delivered.id, 1);
      const heads = await store().outbox.heads();
      expect([...heads].sort((x, y) => x.webhookId.localeCompare(y.webhookId))).toEqual(
        [
          { webhookId: a.id, eventId: aHead.id, nextAttemptAt: at(900) },
          { webhookId: b.id, eventId: bHead.id, nextAttemptAt: at(5) },
        ].sort((x, y) => x.webhookId.localeCompare(y.webhookId)),
      );
    });

    it('gives no head on an empty outbox', async () => {
      expect(await store().outbox.heads()).toEqual([]);
    });

    it('gives a webhook’s queued events from its head, oldest first, up to the limit, less those skipped', async () => {
      const { a, b, queue } = await setUp();
      const e1 = await queue(a.id);
      const e2 = await queue(a.id);
      await queue(b.id);
      const e3 = await queue(a.id);
      const e4 = await queue(a.id);
      await store().outbox.markDelivered(e1.id, 1);
      expect(await store().outbox.queuedHead(a.id, [], 10)).toEqual([e2, e3, e4]);
      expect(await store().outbox.queuedHead(a.id, [], 2)).toEqual([e2, e3]);
      expect(await store().outbox.queuedHead(a.id, [e2.seq], 2)).toEqual([e3, e4]);
      expect(await store().outbox.queuedHead(a.id, [e3.seq, e1.seq], 10)).toEqual([e2, e4]);
      expect(await store().outbox.queuedHead(a.id, [e4.seq, e2.seq, e3.seq], 10)).toEqual([]);
    });

    it('marks an event delivered with its attempts; the next one becomes the head', async () => {
      const { a, queue } = await setUp();
      const first = await queue(a.id);
      const second = await queue(a.id);
      await store().outbox.markDelivered(first.id, 3);
      expect(await store().outbox.findById(first.id)).toEqual({ ...first, status: 'delivered', attempts: 3 });
      expect(await store().outbox.heads()).toEqual([
        { webhookId: a.id, eventId: second.id, nextAttemptAt: second.nextAttemptAt },
      ]);
    });

    it('marks many events delivered in one call, each with its attempts; only queued ones move', async () => {
      const { a, queue } = await setUp();
      const first = await queue(a.id);
      const second = await queue(a.id);
      const third = await queue(a.id);
      await store().outbox.failMany([
        { id: second.id, attempts: 1, firstFailureAt: at(1), nextAttemptAt: null },
      ]);
      await store().outbox.markDeliveredMany([
        { id: first.id, attempts: 1 },
        { id: second.id, attempts: 4 },
      ]);
      await store().outbox.markDeliveredMany([]);
      expect(await store().outbox.findById(first.id)).toEqual({ ...first, status: 'delivered', attempts: 1 });
      expect(await store().outbox.findById(second.id)).toMatchObject({ status: 'failed', attempts: 1 });
      expect(await store().outbox.heads()).toEqual([
        { webhookId: a.id, eventId: third.id, nextAttemptAt: third.nextAttemptAt },
      ]);
    });

    it('schedules a retry: still queued and the head, due later', async () => {
      const { a, queue } = await setUp();
      const event = await queue(a.id, { nextAttemptAt: at(0) });
      await queue(a.id);
      const retry = { attempts: 1, nextAttemptAt: at(60), firstFailureAt: at(1) };
      await store().outbox.failMany([{ id: event.id, ...retry }]);
      expect(await store().outbox.findById(event.id)).toEqual({ ...event, ...retry, status: 'queued' });
      expect(await store().outbox.heads()).toEqual([
        { webhookId: a.id, eventId: event.id, nextAttemptAt: at(60) },
      ]);
    });

    it('marks an event failed: it leaves the queue', async () => {
      const { a, queue } = await setUp();
      const event = await queue(a.id);
      await store().outbox.failMany([
        { id: event.id, attempts: 8, firstFailureAt: at(1), nextAttemptAt: null },
      ]);
      expect(await store().outbox.findById(event.id)).toEqual({
        ...event,
        status: 'failed',
        attempts: 8,
        firstFailureAt: at(1),
      });
      expect(await store().outbox.heads()).toEqual([]);
      expect(await store().outbox.queuedHead(a.id, [], 10)).toEqual([]);
    });

    it('drops every queued event of one webhook, returning how many', async () => {
      const { a, b, queue } = await setUp();
      const delivered = await queue(a.id);
      await store().outbox.markDelivered(delivered.id, 1);
      const q1 = await queue(a.id);
      const q2 = await queue(a.id);
      const theirs = await queue(b.id);
      expect(await store().outbox.dropQueued(a.id)).toBe(2);
      expect(await store().outbox.findById(q1.id)).toEqual({ ...q1, status: 'dropped' });
      expect(await store().outbox.findById(q2.id)).toEqual({ ...q2, status: 'dropped' });
      expect(await store().outbox.findById(delivered.id)).toMatchObject({ status: 'delivered' });
      expect(await store().outbox.findById(theirs.id)).toEqual(theirs);
      expect(await store().outbox.heads()).toEqual([
        { webhookId: b.id, eventId: theirs.id, nextAttemptAt: at(0) },
      ]);
      expect(await store().outbox.dropQueued(a.id)).toBe(0);
    });

    it('leases a webhook’s queue to one owner at a time; renewable by it, taken over once expired', async () => {
      const { a, b } = await setUp();
      const { outbox } = store();
      expect(await outbox.claimWebhook(a.id, 'process-a', at(0), at(30))).toBe(true);
      expect(await outbox.claimWebhook(a.id, 'process-b', at(10), at(40))).toBe(false);
      expect(await outbox.claimWebhook(b.id, 'process-b', at(10), at(40))).toBe(true);
      expect(await outbox.claimWebhook(a.id, 'process-a', at(20), at(50))).toBe(true); // renewed
      expect(await outbox.claimWebhook(a.id, 'process-b', at(49), at(80))).toBe(false);
      expect(await outbox.claimWebhook(a.id, 'process-b', at(50), at(80))).toBe(true); // expired
      await outbox.releaseWebhook(a.id, 'process-a'); // not its lease any more: nothing happens
      expect(await outbox.claimWebhook(a.id, 'process-a', at(51), at(90))).toBe(false);
      await outbox.releaseWebhook(a.id, 'process-b');
      expect(await outbox.claimWebhook(a.id, 'process-a', at(51), at(90))).toBe(true);
    });

    it('ends every lease at once for a start alone on the database', async () => {
      const { a, b } = await setUp();
      const { outbox } = store();
      expect(await outbox.claimWebhook(a.id, 'process-a', at(0), at(60))).toBe(true);
      expect(await outbox.claimWebhook(b.id, 'process-a', at(0), at(60))).toBe(true);
      expect(await outbox.releaseAllWebhooks()).toBe(2);
      expect(await outbox.claimWebhook(a.id, 'process-b', at(1), at(61))).toBe(true);
      expect(await outbox.releaseAllWebhooks()).toBe(1);
    });

    it('gives a free webhook lease to exactly one of several claims at once', async () => {
      const { a } = await setUp();
      const claims = await Promise.all(
        ['x', 'y', 'z'].map((owner) => store().outbox.claimWebhook(a.id, owner, at(0), at(30))),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
    });

    it('moves only queued events: a delivered, failed or dropped one stays as it is', async () => {
      const { a, b, queue } = await setUp();
      const delivered = await queue(a.id);
      await store().outbox.markDelivered(delivered.id, 1);
      const failed = await queue(a.id);
      await store().outbox.failMany([
        { id: failed.id, attempts: 5, firstFailureAt: at(1), nextAttemptAt: null },
      ]);
      const dropped = await queue(b.id);
      await store().outbox.dropQueued(b.id);
      const before: OutboxEvent[] = [];
      for (const event of [delivered, failed, dropped]) {
        const found = await store().outbox.findById(event.id);
        if (found) before.push(found);
      }
      for (const event of before) {
        await store().outbox.markDelivered(event.id, 9);
        await store().outbox.failMany([
          { id: event.id, attempts: 9, nextAttemptAt: at(99), firstFailureAt: at(98) },
          { id: event.id, attempts: 9, nextAttemptAt: null, firstFailureAt: at(98) },
        ]);
        expect(await store().outbox.findById(event.id)).toEqual(event);
      }
    });
  });
}
