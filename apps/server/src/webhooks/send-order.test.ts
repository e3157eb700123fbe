import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseSends, orderKey, type Queued, readSize, sendRoom, worthReading } from './send-order.ts';

const NOW = '2030-01-01T00:00:10.000Z';
const EARLIER = '2030-01-01T00:00:00.000Z';
const LATER = '2030-01-01T00:00:20.000Z';

/** An event of round `roundId` (null: an anchor event), due unless told otherwise. */
const ev = (seq: number, roundId: string | null, nextAttemptAt = EARLIER): Queued => ({
  seq,
  roundId,
  nextAttemptAt,
});
const seqs = (events: readonly Queued[]) => events.map((event) => event.seq);
const sorted = (numbers: readonly number[]) => [...numbers].sort((x, y) => x - y);

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
    chooseSends<Queued>({ held: [], roundsInFlight: new Set(), room: 32, now: NOW, ...over });

  it('sends due events oldest first, up to the room; those past it are held', () => {
    const read = [ev(1, 'a'), ev(2, 'b'), ev(3, 'c')];
    const choice = choose({ read, room: 2 });
    expect(seqs(choice.send)).toEqual([1, 2]);
    expect(seqs(choice.held)).toEqual([3]);
  });

  it('holds a close-round while its open-round is in flight, and lets later rounds go ahead', () => {
    const read = [ev(2, 'r1'), ev(3, 'r2'), ev(4, 'r2')];
    const choice = choose({ read, roundsInFlight: new Set(['r1']) });
    expect(seqs(choice.send)).toEqual([3]);
    expect(seqs(choice.held)).toEqual([2, 4]);
  });

  it('sends a webhook’s anchor events one after another, as a round’s, while rounds go ahead', () => {
    const read = [ev(1, null), ev(2, 'r1'), ev(3, null)];
    const first = choose({ read });
    expect(seqs(first.send)).toEqual([1, 2]);
    expect(seqs(first.held)).toEqual([3]);
    expect(
      seqs(choose({ read: [ev(3, null)], roundsInFlight: new Set([orderKey(ev(1, null))]) }).send),
    ).toEqual([]);
  });

  it('sends a held close-round once its round is answered, before anything read after it', () => {
    const held = [ev(2, 'r1'), ev(4, 'r2')];
    const read = [ev(5, 'r3')];
    const choice = choose({ held, read, roundsInFlight: new Set(['r2']), room: 1 });
    expect(seqs(choice.send)).toEqual([2]);
    expect(seqs(choice.held)).toEqual([4, 5]);
  });

  it('takes an event that committed late, below those held, in its seq order', () => {
    // seq 3 was taken before 5 and 6 but committed after them (PostgreSQL): read now from the head.
    const choice = choose({ held: [ev(5, 'r2')], read: [ev(3, 'r1'), ev(6, 'r3')], room: 2 });
    expect(seqs(choice.send)).toEqual([3, 5]);
    expect(seqs(choice.held)).toEqual([6]);
  });

  it('a retry not yet due holds back everything read after it (they are read again later)', () => {
    const choice = choose({ read: [ev(1, 'a'), ev(2, 'b', LATER), ev(3, 'c')] });
    expect(seqs(choice.send)).toEqual([1]);
    expect(choice.held).toEqual([]);
    expect(choose({ read: [ev(2, 'b', LATER)] })).toEqual({ send: [], held: [] });
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
    const held = [ev(2, 'a')];
    const read = [ev(1, 'b')];
    const roundsInFlight = new Set(['x']);
    choose({ held, read, roundsInFlight });
    expect(seqs(held)).toEqual([2]);
    expect(seqs(read)).toEqual([1]);
    expect([...roundsInFlight]).toEqual(['x']);
  });

  // ---- for any queue

  const TIMES = [EARLIER, NOW, LATER];
  /** held and read events, each in seq order but interleaved (late commits), a few rounds, some not due. */
  const situation = fc
    .record({
      events: fc.array(
        // null: an anchor event (no round); anchors go one after another as a round's events do.
        fc.record({ round: fc.constantFrom('a', 'b', 'c', 'd', null), at: fc.nat(2), wasHeld: fc.boolean() }),
        { maxLength: 14 },
      ),
      busy: fc.subarray(['a', 'b', 'c', 'd', orderKey({ roundId: null })]),
      room: fc.integer({ min: -2, max: 8 }),
    })
    .map(({ events, busy, room }) => {
      const all = events.map(({ round, at, wasHeld }, i) => ({
        event: ev(10 + i, round, TIMES[at]),
        wasHeld,
      }));
      // Held events were due when read: only those read now may be not due.
      const held = all.filter((e) => e.wasHeld).map((e) => ({ ...e.event, nextAttemptAt: EARLIER }));
      const read = all.filter((e) => !e.wasHeld).map((e) => e.event);
      return { held, read, roundsInFlight: new Set(busy), room, now: NOW };
    });
  /** The events read that are taken (sent or held): those before the first not due. */
  const taken = (read: readonly Queued[]) => {
    const stop = read.findIndex((event) => event.nextAttemptAt > NOW);
    return stop === -1 ? read : read.slice(0, stop);
  };

  it('loses and repeats nothing: sent and held are the held and the due events read, each in seq order', () => {
    fc.assert(
      fc.property(situation, (input) => {
        const { send, held } = chooseSends(input);
        const candidates = [...input.held, ...taken(input.read)];
        expect(sorted([...seqs(send), ...seqs(held)])).toEqual(sorted(seqs(candidates)));
        expect(seqs(send)).toEqual(sorted(seqs(send)));
        expect(seqs(held)).toEqual(sorted(seqs(held)));
      }),
    );
  });

  it('sends no more than the room, and nothing of a round in flight or twice of one round', () => {
    fc.assert(
      fc.property(situation, (input) => {
        const { send } = chooseSends(input);
        expect(send.length).toBeLessThanOrEqual(Math.max(0, input.room));
        for (const event of send) expect(input.roundsInFlight.has(orderKey(event))).toBe(false);
        expect(new Set(send.map(orderKey)).size).toBe(send.length);
      }),
    );
  });

  it('keeps each round in order: nothing is sent while an earlier event of its round waits', () => {
    fc.assert(
      fc.property(situation, (input) => {
        const { send, held } = chooseSends(input);
        for (const event of send) {
          expect(held.some((h) => orderKey(h) === orderKey(event) && h.seq < event.seq)).toBe(false);
        }
      }),
    );
  });

  it('holds an event only for want of room or because its round is busy', () => {
    fc.assert(
      fc.property(situation, (input) => {
        const { send, held } = chooseSends(input);
        if (send.length >= input.room) return;
        const busy = new Set([...input.roundsInFlight, ...send.map(orderKey)]);
        for (const event of held) expect(busy.has(orderKey(event))).toBe(true);
      }),
    );
  });
});

describe('a drain run on these rules alone, with events committing in any order (issue 22)', () => {
  type Event = Queued & { roundId: string; kind: 'open' | 'close'; committed: boolean; delivered: boolean };

  /**
   * A webhook's queue as PostgreSQL keeps it: an event takes its seq at insert and is seen once
   * committed, so commits land in any order; a round's close-round is inserted only after its
   * open-round committed (the reveal follows the buy's answer). A drain, as drain.ts runs
   * it, reads from the head leaving out what it holds or has in flight; a read sees the commits
   * made before it began, while answers and commits go on until it ends; the receiver answers
   * any event in flight (2xx); a drain may end once idle, and the next begins afresh.
   */
  function run(steps: readonly number[], perWebhook: number, rounds: number) {
    const events: Event[] = [];
    const answered = new Set<number>();
    const started: number[] = [];
    let inFlight: Event[] = [];
    let held: Event[] = [];
    let healthy = false;
    let reading: Event[] | undefined;
    let opened = 0;
    const visible = () => events.filter((e) => e.committed && !e.delivered);
    const insert = (roundId: string, kind: Event['kind']) =>
      events.push({
        seq: events.length,
        roundId,
        nextAttemptAt: EARLIER,
        kind,
        committed: false,
        delivered: false,
      });
    const closable = () =>
      events.filter(
        (e) =>
          e.kind === 'open' &&
          e.committed &&
          !events.some((c) => c.kind === 'close' && c.roundId === e.roundId),
      );
    const beginRead = () => {
      const room = sendRoom({ healthy, inFlight: inFlight.length, perWebhook });
      const roundsInFlight = new Set(inFlight.map((e) => orderKey(e)));
      const size = room > 0 ? readSize({ room, held, roundsInFlight, perWebhook }) : 0;
      const skip = new Set([...inFlight, ...held].map((e) => e.seq));
      reading = visible()
        .filter((e) => !skip.has(e.seq))
        .sort((x, y) => x.seq - y.seq)
        .slice(0, size);
    };
    const endRead = () => {
      const room = sendRoom({ healthy, inFlight: inFlight.length, perWebhook });
      const roundsInFlight = new Set(inFlight.map((e) => orderKey(e)));
      const choice = chooseSends({ held, read: reading ?? [], roundsInFlight, room, now: NOW });
      reading = undefined;
      held = choice.held;
      for (const event of choice.send) {
        if (event.kind === 'close') {
          const opening = events.find((e) => e.roundId === event.roundId && e.kind === 'open');
          expect(answered.has(opening?.seq as number), `close-round of ${event.roundId}`).toBe(true);
        }
        started.push(event.seq);
        inFlight.push(event);
      }
      expect(inFlight.length).toBeLessThanOrEqual(healthy ? perWebhook : 1);
    };
    const answer = (pick: number) => {
      const done = inFlight[pick % inFlight.length] as Event;
      inFlight = inFlight.filter((e) => e !== done);
      done.delivered = true;
      answered.add(done.seq);
      healthy = true;
    };

    for (const step of steps) {
      const pick = Math.floor(step / 7);
      const uncommitted = events.filter((e) => !e.committed);
      switch (step % 7) {
        case 0:
          if (opened < rounds) insert(`r${opened++}`, 'open');
          break;
        case 1:
          if (uncommitted.length > 0) (uncommitted[pick % uncommitted.length] as Event).committed = true;
          break;
        case 2: {
          const open = closable();
          if (open.length > 0) insert((open[pick % open.length] as Event).roundId, 'close');
          break;
        }
        case 3:
          if (!reading) beginRead();
          break;
        case 4:
          if (reading) endRead();
          break;
        case 5:
          if (inFlight.length > 0) answer(pick);
          break;
        default:
          // The drain ends once idle; the next one starts with nothing held, one event at a time.
          if (!reading && inFlight.length === 0) {
            held = [];
            healthy = false;
          }
      }
    }
    // Then every round is revealed and every unit commits, and drains run until the queue is empty.
    if (reading) endRead();
    for (const event of events) event.committed = true;
    for (const open of closable()) insert(open.roundId, 'close');
    for (const event of events) event.committed = true;
    for (let turn = 0; turn < 1000 && (visible().length > 0 || inFlight.length > 0); turn++) {
      beginRead();
      endRead();
      while (inFlight.length > 0) answer(0);
    }
    return { events, started };
  }

  it('sends every event once, and a close-round only after its open-round was answered, within the limits', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(7 * 64), { maxLength: 120 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 8 }),
        (steps, perWebhook, rounds) => {
          const { events, started } = run(steps, perWebhook, rounds);
          expect(sorted(started)).toEqual(seqs(events));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the case of the issue: an open-round committed after a later seq was read', () => {
    // r0 opens (seq 0, not committed), r1 opens (seq 1) and commits, the drain reads and sends it,
    // r0 commits and is revealed (seq 2), then the receiver answers r1.
    const [OPEN, COMMIT, CLOSE, BEGIN, END, ANSWER] = [0, 1, 2, 3, 4, 5];
    const commitSecond = COMMIT + 7; // pick 1: the second uncommitted event (r1's open-round)
    const steps = [OPEN, OPEN, commitSecond, BEGIN, END, COMMIT, CLOSE, COMMIT, ANSWER, BEGIN, END];
    const { started } = run(steps, 4, 2);
    // r0's open-round, then its close-round once that was answered (r1's, queued at the end, went
    // meanwhile); run() checks each close-round's open-round was answered when it was sent.
    expect(started).toEqual([1, 0, 3, 2]);
  });
});

describe('worthReading', () => {
  it('reads when nothing is in flight, else once a quarter of the window is free', () => {
    expect(worthReading({ healthy: false, inFlight: 0, perWebhook: 32 })).toBe(true);
    expect(worthReading({ healthy: false, inFlight: 1, perWebhook: 32 })).toBe(false);
    expect(worthReading({ healthy: true, inFlight: 25, perWebhook: 32 })).toBe(false);
    expect(worthReading({ healthy: true, inFlight: 24, perWebhook: 32 })).toBe(true);
    expect(worthReading({ healthy: true, inFlight: 0, perWebhook: 1 })).toBe(true);
  });

  it('never stalls: with nothing in flight it always reads; with a free window it reads', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.integer({ min: 1, max: 64 }), (healthy, perWebhook) => {
        expect(worthReading({ healthy, inFlight: 0, perWebhook })).toBe(true);
        // A read is due before the window is empty: at least one free slot triggers it at some point.
        const window = healthy ? perWebhook : 1;
        const firstReading = [...Array(window).keys()]
          .reverse()
          .find((inFlight) => worthReading({ healthy, inFlight, perWebhook }));
        expect(firstReading).toBeDefined();
        expect(firstReading).toBeLessThan(window);
      }),
    );
  });
});
