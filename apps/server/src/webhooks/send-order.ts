import type { OutboxEvent } from '../store/records.ts';

/**
 * Which of a webhook's queued events may be sent now (docs/contract.md §7), as one drain of the
 * dispatcher sees them:
 * - the in-flight limit: one event at a time until the receiver has answered a 2xx, then up to
 *   `perWebhook` at once;
 * - seq order: events are taken oldest first, and a retry not yet due holds back everything after it;
 * - a round's events never overlap: its close-round goes only once its open-round has been answered,
 *   so an event whose round is in flight waits, "held", while later rounds may go ahead of it.
 * Rules only; the dispatcher keeps the state and does the reading and sending.
 */

/** Only what the rules look at, so they can be tested without whole events. */
export type Queued = Pick<OutboxEvent, 'seq' | 'roundId' | 'nextAttemptAt'>;

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
  const free = state.room - state.held.filter((event) => !state.roundsInFlight.has(event.roundId)).length;
  return free > 0 && state.held.length < state.perWebhook ? free : 0;
}

export interface SendChoice<E extends Queued> {
  /** To start now, in this order. */
  send: E[];
  /** To keep for later, oldest first. */
  held: E[];
  /** The seq of the last event read that is now sent or held: the next read starts after it. */
  lastSeq: number;
}

/**
 * `held`: events read before and not sent, oldest first; `read`: the next queued events from the
 * store, oldest first, all after `held`; `room`: from `sendRoom`; `now`: ISO, compared as the
 * store writes `nextAttemptAt`. Held events go first (they are older), then those read, as long as
 * there is room and their round is not in flight (nor taken just before in this same choice).
 */
export function chooseSends<E extends Queued>(input: {
  held: readonly E[];
  read: readonly E[];
  roundsInFlight: ReadonlySet<string>;
  room: number;
  now: string;
  lastSeq: number;
}): SendChoice<E> {
  const busy = new Set(input.roundsInFlight);
  const send: E[] = [];
  const held: E[] = [];
  const take = (event: E) => {
    // Held (in seq order) if its round is in flight, or if the room is taken.
    if (send.length >= input.room || busy.has(event.roundId)) held.push(event);
    else {
      send.push(event);
      busy.add(event.roundId);
    }
  };
  for (const event of input.held) take(event);
  let lastSeq = input.lastSeq;
  for (const event of input.read) {
    // A retry not yet due holds back everything after it: those are read again later.
    if (event.nextAttemptAt > input.now) break;
    lastSeq = event.seq;
    take(event);
  }
  return { send, held, lastSeq };
}
