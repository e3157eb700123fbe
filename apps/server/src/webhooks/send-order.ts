import type { OutboxEvent } from '../store/records.ts';

/**
 * Which of a webhook's queued events may be sent now (docs/contract.md §7), as one drain of the
 * dispatcher sees them:
 * - the in-flight limit: one event at a time until the receiver has answered a 2xx, then up to
 *   `perWebhook` at once;
 * - seq order: events are taken oldest first, and a retry not yet due holds back everything after it
 *   (a drain reads from the queue's head each time, never past a seq that may still commit);
 * - a round's events never overlap: its close-round goes only once its open-round has been answered,
 *   so an event whose round is in flight waits, "held", while later rounds may go ahead of it (so do
 *   a webhook's anchor events among themselves: `orderKey`).
 * Rules only; the dispatcher keeps the state and does the reading and sending.
 */

/** Only what the rules look at, so they can be tested without whole events. */
export type Queued = Pick<OutboxEvent, 'seq' | 'roundId' | 'nextAttemptAt'>;

/** The key of a webhook's anchor events: no round id has a space. */
const ANCHORS = 'anchor chain';

/**
 * Events with the same key never overlap: a round's events, and a webhook's `anchor` events,
 * which have no round and go one after another in seq order (an operator's copy of the chain
 * arrives in its order). The sets named `roundsInFlight` hold these keys.
 */
export const orderKey = (event: Pick<Queued, 'roundId'>): string => event.roundId ?? ANCHORS;

/** How many more events may start now; 0 or less: none. */
export function sendRoom(state: { healthy: boolean; inFlight: number; perWebhook: number }): number {
  return (state.healthy ? state.perWebhook : 1) - state.inFlight;
}

/**
 * How many more queued events to read from the store; 0: read none. Held events that could go now
 * take room first, and no more are read while `perWebhook` are held (their rounds are busy).
 */
export function readSize(state: {
  room: number;
  held: readonly Queued[];
  roundsInFlight: ReadonlySet<string>;
  perWebhook: number;
}): number {
  const free = state.room - state.held.filter((event) => !state.roundsInFlight.has(orderKey(event))).length;
  return free > 0 && state.held.length < state.perWebhook ? free : 0;
}

/**
 * Whether a drain reads its queue now: always when nothing is in flight, else only once a quarter
 * of its window is free. Answers come one by one; a read for each would cost about one statement
 * per event, most of them for a single row (issue 23: ≤ 1.5 statements per delivered event).
 * Held events that may go are sent without a read.
 */
export function worthReading(state: { healthy: boolean; inFlight: number; perWebhook: number }): boolean {
  const window = state.healthy ? state.perWebhook : 1;
  return state.inFlight === 0 || window - state.inFlight >= Math.ceil(window / 4);
}

export interface SendChoice<E extends Queued> {
  /** To start now, in this order. */
  send: E[];
  /** To keep for later, oldest first. */
  held: E[];
}

/**
 * `held`: events read before and not sent; `read`: the queue's head as the store gave it now,
 * oldest first, leaving out every event this drain holds or has in flight (an answered one is
 * recorded before it leaves the in-flight set: see drain.ts); `room`: from `sendRoom`;
 * `now`: ISO, compared as the store writes `nextAttemptAt`. Read from the head, not after a
 * cursor: on PostgreSQL a seq is taken at insert and seen at commit, so an event can appear below
 * seqs already read (docs/store.md, "A drain reads its webhook's queue from the head"). Held and
 * due events go oldest first, as long as there is room and their round is not in flight (nor
 * taken just before in this same choice). A round's later event is queued only after its earlier
 * one committed, so the earlier one is always read with, or before, the later one.
 */
export function chooseSends<E extends Queued>(input: {
  held: readonly E[];
  read: readonly E[];
  roundsInFlight: ReadonlySet<string>;
  room: number;
  now: string;
}): SendChoice<E> {
  // A retry not yet due holds back everything after it: those are read again later.
  const stop = input.read.findIndex((event) => event.nextAttemptAt > input.now);
  const due = stop === -1 ? input.read : input.read.slice(0, stop);
  const candidates = [...input.held, ...due].sort((x, y) => x.seq - y.seq);
  const busy = new Set(input.roundsInFlight);
  const send: E[] = [];
  const held: E[] = [];
  for (const event of candidates) {
    // Held (in seq order) if its round is in flight, or if the room is taken.
    if (send.length >= input.room || busy.has(orderKey(event))) held.push(event);
    else {
      send.push(event);
      busy.add(orderKey(event));
    }
  }
  return { send, held };
}
