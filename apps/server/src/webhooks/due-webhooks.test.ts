import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OutboxHead } from '../store/records.ts';
import { dueWebhooks, nextPassIn } from './due-webhooks.ts';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const NOW = iso(T0);
const head = (webhookId: string, dueIn = 0): OutboxHead => ({
  webhookId,
  eventId: `event-${webhookId}`,
  nextAttemptAt: iso(T0 + dueIn),
});
const none = new Set<string>();

describe('dueWebhooks', () => {
  it('starts the webhooks whose oldest event is due, in head order', () => {
    const heads = [head('a'), head('b', 5000), head('c', -5000)];
    expect(dueWebhooks(heads, NOW, { busy: none, paused: none, room: 16 })).toEqual(['a', 'c']);
  });

  it('skips a webhook with a drain under way, or paused after a fault', () => {
    const heads = [head('a'), head('b'), head('c')];
    expect(dueWebhooks(heads, NOW, { busy: new Set(['a']), paused: new Set(['c']), room: 16 })).toEqual([
      'b',
    ]);
  });

  it('starts no more than the room', () => {
    const heads = [head('a'), head('b'), head('c')];
    expect(dueWebhooks(heads, NOW, { busy: none, paused: none, room: 2 })).toEqual(['a', 'b']);
    expect(dueWebhooks(heads, NOW, { busy: none, paused: none, room: 0 })).toEqual([]);
  });

  it('takes a Map of drains as the busy set', () => {
    const busy = new Map([['a', Promise.resolve()]]);
    expect(dueWebhooks([head('a'), head('b')], NOW, { busy, paused: none, room: 16 })).toEqual(['b']);
  });

  const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
  const situation = fc.record({
    heads: fc.array(
      fc.record({ id: fc.constantFrom(...ids), dueIn: fc.integer({ min: -60_000, max: 60_000 }) }),
      { maxLength: 10 },
    ),
    busy: fc.subarray(ids),
    paused: fc.subarray(ids),
    room: fc.integer({ min: -1, max: 8 }),
  });

  it('for any heads: due, free, unpaused webhooks only, each once, in head order, as many as there is room for', () => {
    fc.assert(
      fc.property(situation, (s) => {
        const heads = s.heads.map(({ id, dueIn }) => head(id, dueIn));
        const busy = new Set(s.busy);
        const paused = new Set(s.paused);
        const start = dueWebhooks(heads, NOW, { busy, paused, room: s.room });
        const eligible = heads
          .filter((h) => h.nextAttemptAt <= NOW && !busy.has(h.webhookId) && !paused.has(h.webhookId))
          .map((h) => h.webhookId);
        const once = [...new Set(eligible)];
        expect(start).toEqual(once.slice(0, Math.max(0, s.room)));
      }),
    );
  });
});

describe('nextPassIn', () => {
  const serving = { busy: none, room: 16, pauseLeft: new Map<string, number>(), pollMs: 30_000 };

  it('sleeps pollMs when nothing waits', () => {
    expect(nextPassIn([], T0, serving)).toBe(30_000);
  });

  it('wakes when the next waiting head is due', () => {
    expect(nextPassIn([head('a', 20_000), head('b', 5_000)], T0, serving)).toBe(5_000);
  });

  it('at once for a head already due (its drain has just ended), never below 0', () => {
    expect(nextPassIn([head('a', -5_000)], T0, serving)).toBe(0);
  });

  it('no later than pollMs, so a moved clock or another process’s event is noticed', () => {
    expect(nextPassIn([head('a', 3_600_000)], T0, serving)).toBe(30_000);
  });

  it('for a paused webhook, when its pause ends, whatever its head says', () => {
    const pauseLeft = new Map([['a', 12_000]]);
    expect(nextPassIn([head('a', -5_000)], T0, { ...serving, pauseLeft })).toBe(12_000);
  });

  it('ignores webhooks with a drain under way (each that ends starts a pass)', () => {
    expect(nextPassIn([head('a', 1_000)], T0, { ...serving, busy: new Set(['a']) })).toBe(30_000);
  });

  it('with every drain taken, only pollMs', () => {
    expect(nextPassIn([head('a', 1_000)], T0, { ...serving, room: 0 })).toBe(30_000);
  });

  it('for any heads: between 0 and pollMs, and no later than any free head is due', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ id: fc.constantFrom('a', 'b', 'c'), dueIn: fc.integer({ min: -1e6, max: 1e6 }) }),
        ),
        fc.subarray(['a', 'b', 'c']),
        fc.nat(100_000),
        (raw, busyIds, pollMs) => {
          const heads = raw.map(({ id, dueIn }) => head(id, dueIn));
          const busy = new Set(busyIds);
          const delay = nextPassIn(heads, T0, { ...serving, busy, pollMs });
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(pollMs);
          for (const h of heads) {
            if (!busy.has(h.webhookId)) {
              expect(delay).toBeLessThanOrEqual(Math.max(0, Date.parse(h.nextAttemptAt) - T0));
            }
          }
        },
      ),
    );
  });
});
