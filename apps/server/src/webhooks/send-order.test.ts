import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseSends, type Queued, readSize, sendRoom } from './send-order.ts';

const NOW = '2030-01-01T00:00:10.000Z';
const EARLIER = '2030-01-01T00:00:00.000Z';
const LATER = '2030-01-01T00:00:20.000Z';

/** An event of round `roundId`, due unless told otherwise. */
const ev = (seq: number, roundId: string, nextAttemptAt = EARLIER): Queued => ({
  seq,
  roundId,
  nextAttemptAt,
});
const seqs = (events: readonly Queued[]) => events.map((event) => event.seq);

describe('sendRoom', () => {
  it('one at a time until a 2xx, then up to perWebhook', () => {
    expect(sendRoom({ healthy: false, inFlight: 0, perWebhook: 32 })).toBe(1);
    expect(sendRoom({ healthy: false, inFlight: 1, perWebhook: 32 })).toBe(0);
    expect(sendRoom({ healthy: true, inFlight: 0, perWebhook: 32 })).toBe(32);
    expect(sendRoom({ healthy: true, inFlight: 31, perWebhook: 32 })).toBe(1);
    expect(sendRoom({ healthy: true, inFlight: 32, perWebhook: 32 })).toBe(0);
    expect(sendRoom({ healthy: true, inFlight: 0, perWebhook: 1 })).toBe(1);
  });

  it('is the limit less those in flight, for any state', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.nat(64),
        fc.integer({ min: 1, max: 64 }),
        (healthy, inFlight, perWebhook) => {
          expect(sendRoom({ healthy, inFlight, perWebhook })).toBe((healthy ? perWebhook : 1) - inFlight);
        },
      ),
    );
  });
});

describe('readSize', () => {
  const none = new Set<string>();

  it('reads as many as there is room for', () => {
    expect(readSize({ room: 3, held: [], roundsInFlight: none, perWebhook: 32 })).toBe(3);
    expect(readSize({ room: 0, held: [], roundsInFlight: none, perWebhook: 32 })).toBe(0);
    expect(readSize({ room: -1, held: [], roundsInFlight: none, perWebhook: 32 })).toBe(0);
  });

  it('held events that could go now take room first; those whose round is busy do not', () => {
    const held = [ev(1, 'a'), ev(2, 'b')];
    expect(readSize({ room: 3, held, roundsInFlight: none, perWebhook: 32 })).toBe(1);
    expect(readSize({ room: 2, held, roundsInFlight: none, perWebhook: 32 })).toBe(0);
    expect(readSize({ room: 3, held, roundsInFlight: new Set(['a', 'b']), perWebhook: 32 })).toBe(3);
    expect(readSize({ room: 3, held, roundsInFlight: new Set(['a']), perWebhook: 32 })).toBe(2);
  });

  it('reads none while perWebhook are held', () => {
    const held = [ev(1, 'a'), ev(2, 'b')];
    expect(readSize({ room: 3, held, roundsInFlight: new Set(['a', 'b']), perWebhook: 2 })).toBe(0);
  });

  it('is never negative nor more than the room', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -4, max: 40 }),
        fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 10 }),
        fc.subarray(['a', 'b', 'c', 'd']),
        fc.integer({ min: 1, max: 40 }),
        (room, rounds, busy, perWebhook) => {
          const held = rounds.map((round, i) => ev(i, round));
          const size = readSize({ room, held, roundsInFlight: new Set(busy), perWebhook });
          expect(size).toBeGreaterThanOrEqual(0);
          expect(size).toBeLessThanOrEqual(Math.max(0, room));
          if (held.length >= perWebhook) expect(size).toBe(0);
        },
      ),
    );
  });
});

describe('chooseSends', () => {
  type Input = Parameters<typeof chooseSends<Queued>>[0];
  const choose = (over: Partial<Input> & Pick<Input, 'read'>) =>
    chooseSends<Queued>({ held: [], roundsInFlight: new Set(), room: 32, now: NOW, lastSeq: -1, ...over });

  it('sends due events oldest first, up to the room; those past it are held', () => {
    const read = [ev(1, 'a'), ev(2, 'b'), ev(3, 'c')];
    const choice = choose({ read, room: 2 });
    expect(seqs(choice.send)).toEqual([1, 2]);
    expect(seqs(choice.held)).toEqual([3]);
    expect(choice.lastSeq).toBe(3);
  });

  it('holds a close-round while its open-round is in flight, and lets later rounds go ahead', () => {
    const read = [ev(2, 'r1'), ev(3, 'r2'), ev(4, 'r2')];
    const choice = choose({ read, roundsInFlight: new Set(['r1']) });
    expect(seqs(choice.send)).toEqual([3]);
    expect(seqs(choice.held)).toEqual([2, 4]);
    expect(choice.lastSeq).toBe(4);
  });

  it('sends a held close-round once its round is answered, before anything read after it', () => {
    const held = [ev(2, 'r1'), ev(4, 'r2')];
    const read = [ev(5, 'r3')];
    const choice = choose({ held, read, roundsInFlight: new Set(['r2']), room: 1, lastSeq: 4 });
    expect(seqs(choice.send)).toEqual([2]);
    expect(seqs(choice.held)).toEqual([4, 5]);
    expect(choice.lastSeq).toBe(5);
  });

  it('a retry not yet due holds back everything after it (they are read again later)', () => {
    const read = [ev(1, 'a'), ev(2, 'b', LATER), ev(3, 'c')];
    const choice = choose({ read, lastSeq: 0 });
    expect(seqs(choice.send)).toEqual([1]);
    expect(choice.held).toEqual([]);
    expect(choice.lastSeq).toBe(1);
    expect(choose({ read: [ev(2, 'b', LATER)], lastSeq: 1 })).toEqual({ send: [], held: [], lastSeq: 1 });
  });

  it('an event due exactly now is due', () => {
    expect(seqs(choose({ read: [ev(1, 'a', NOW)] }).send)).toEqual([1]);
  });

  it('with no room, sends nothing and holds what it read', () => {
    const choice = choose({ held: [ev(1, 'a')], read: [ev(2, 'b')], room: 0 });
    expect(choice.send).toEqual([]);
    expect(seqs(choice.held)).toEqual([1, 2]);
  });

  it('leaves its inputs as they were', () => {
    const held = [ev(1, 'a')];
    const read = [ev(2, 'b')];
    const roundsInFlight = new Set(['x']);
    choose({ held, read, roundsInFlight });
    expect(seqs(held)).toEqual([1]);
    expect(seqs(read)).toEqual([2]);
    expect([...roundsInFlight]).toEqual(['x']);
  });

  // ---- for any queue

  const TIMES = [EARLIER, NOW, LATER];
  /** held (older) and read (newer) events in seq order, a few rounds, some not due. */
  const situation = fc
    .record({
      events: fc.array(fc.record({ round: fc.constantFrom('a', 'b', 'c', 'd', 'e'), at: fc.nat(2) }), {
        maxLength: 14,
      }),
      split: fc.nat(14),
      busy: fc.subarray(['a', 'b', 'c', 'd', 'e']),
      room: fc.integer({ min: -2, max: 8 }),
    })
    .map(({ events, split, busy, room }) => {
      const all = events.map(({ round, at }, i) => ev(10 + i, round, TIMES[at]));
      const cut = Math.min(split, all.length);
      // Held events were due when read: only those read now may be not due.
      const held = all.slice(0, cut).map((event) => ({ ...event, nextAttemptAt: EARLIER }));
      const read = all.slice(cut);
      const lastSeq = cut > 0 ? 9 + cut : 9;
      return { held, read, roundsInFlight: new Set(busy), room, now: NOW, lastSeq };
    });
  /** The events read that are taken (sent or held): those before the first not due. */
  const taken = (read: readonly Queued[]) => {
    const stop = read.findIndex((event) => event.nextAttemptAt > NOW);
    return stop === -1 ? read : read.slice(0, stop);
  };

  it('loses and repeats nothing: sent and held are the held and the due events read, in seq order', () => {
    fc.assert(
      fc.property(situation, (input) => {
        const { send, held, lastSeq } = chooseSends(input);
        const candidates = [...input.held, ...taken(input.read)];
        expect([...seqs(send), ...seqs(held)].sort((x, y) => x - y)).toEqual(seqs(candidates));
        expect(seqs(send)).toEqual([...seqs(send)].sort((x, y) => x - y));
        expect(seqs(held)).toEqual([...seqs(held)].sort((x, y) => x - y));
        expect(lastSeq).toBe(taken(input.read).at(-1)?.seq ?? input.lastSeq);
      }),
    );
  });

  it('sends no more than the room, and nothing of a round in flight or twice of one round', () => {
    fc.assert(
      fc.property(situation, (input) => {
        const { send } = chooseSends(input);
        expect(send.length).toBeLessThanOrEqual(Math.max(0, input.room));
        for (const event of send) expect(input.roundsInFlight.has(event.roundId)).toBe(false);
        expect(new Set(send.map((event) => event.roundId)).size).toBe(send.length);
      }),
    );
  });

  it('keeps each round in order: nothing is sent while an earlier event of its round waits', () => {
    fc.assert(
      fc.property(situation, (input) => {
        const { send, held } = chooseSends(input);
        for (const event of send) {
          expect(held.some((h) => h.roundId === event.roundId && h.seq < event.seq)).toBe(false);
        }
      }),
    );
  });

  it('holds an event only for want of room or because its round is busy', () => {
    fc.assert(
      fc.property(situation, (input) => {
        const { send, held } = chooseSends(input);
        if (send.length >= input.room) return;
        const busy = new Set([...input.roundsInFlight, ...send.map((event) => event.roundId)]);
        for (const event of held) expect(busy.has(event.roundId)).toBe(true);
      }),
    );
  });
});

describe('a drain run on these rules alone (answers in any order, all 2xx)', () => {
  /** A queue of rounds, each an open-round then (maybe) a close-round later on; seq = position. */
  const queue = fc
    .array(fc.record({ round: fc.nat(5), closes: fc.boolean() }), { minLength: 1, maxLength: 12 })
    .map((opens) => {
      const events: (Queued & { kind: 'open' | 'close' })[] = [];
      const open = new Set<string>();
      opens.forEach(({ round, closes }, i) => {
        const roundId = `r${i}`;
        events.push({ seq: events.length, roundId, nextAttemptAt: EARLIER, kind: 'open' });
        open.add(roundId);
        // Close some open round (maybe this one), as rounds interleave in a real queue.
        const pick = [...open][round % open.size] as string;
        if (closes) {
          events.push({ seq: events.length, roundId: pick, nextAttemptAt: EARLIER, kind: 'close' });
          open.delete(pick);
        }
      });
      return events;
    });

  it('sends every event once, a close-round only after its open-round was answered, within the limits', () => {
    fc.assert(
      fc.property(
        queue,
        fc.integer({ min: 1, max: 5 }),
        fc.infiniteStream(fc.nat()),
        (events, perWebhook, picks) => {
          const answered = new Set<number>();
          const started: number[] = [];
          let inFlight: (typeof events)[number][] = [];
          let held: (typeof events)[number][] = [];
          let lastSeq = -1;
          let healthy = false;
          const pick = picks[Symbol.iterator]();
          for (let turn = 0; turn < 1000; turn++) {
            const roundsInFlight = new Set(inFlight.map((event) => event.roundId));
            const room = sendRoom({ healthy, inFlight: inFlight.length, perWebhook });
            if (room > 0) {
              const size = readSize({ room, held, roundsInFlight, perWebhook });
              const read = events.filter((event) => event.seq > lastSeq).slice(0, size);
              const choice = chooseSends({ held, read, roundsInFlight, room, now: NOW, lastSeq });
              held = choice.held;
              lastSeq = choice.lastSeq;
              for (const event of choice.send) {
                if (event.kind === 'close') {
                  const opening = events.find((e) => e.roundId === event.roundId && e.kind === 'open');
                  expect(answered.has(opening?.seq as number)).toBe(true);
                }
                started.push(event.seq);
                inFlight.push(event);
              }
              expect(inFlight.length).toBeLessThanOrEqual(healthy ? perWebhook : 1);
            }
            if (inFlight.length === 0) break;
            // The receiver answers any one of those in flight.
            const done = inFlight[(pick.next().value as number) % inFlight.length] as (typeof events)[number];
            inFlight = inFlight.filter((event) => event !== done);
            answered.add(done.seq);
            healthy = true;
          }
          expect([...started].sort((x, y) => x - y)).toEqual(seqs(events));
          expect(held).toEqual([]);
        },
      ),
    );
  });
});
