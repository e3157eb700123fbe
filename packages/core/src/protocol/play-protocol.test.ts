import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PLAY_REQUESTS, parsePlayRequest } from './play-protocol.ts';

const events = Object.values(PLAY_REQUESTS) as string[];
const anything = fc.anything();
const nothing = fc.constantFrom(undefined, null, {});
const validRoundId = fc.string({ minLength: 1, maxLength: 100 });
/** One payload that is not "nothing": any value but undefined, null and an empty plain object. */
const something = fc
  .anything()
  .filter(
    (value) =>
      value !== undefined &&
      value !== null &&
      !(typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0),
  );

describe('parsePlayRequest', () => {
  it('refuses every unknown event, whatever its arguments', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), anything).filter((event) => !events.includes(event as string)),
        fc.array(anything, { maxLength: 4 }),
        (event, args) => {
          expect(parsePlayRequest(event, args)).toBeUndefined();
        },
      ),
    );
  });

  /** The requests that carry nothing, by event name, and the type each is read as. */
  const EMPTY = {
    state: 'state',
    buy: 'buy',
    history: 'history',
    'reality-check-ack': 'realityCheckAck',
  } as const;
  const emptyEvents = Object.keys(EMPTY) as (keyof typeof EMPTY)[];

  it('reads state, buy, history and reality-check-ack with no payload, {} or null', () => {
    fc.assert(
      fc.property(fc.constantFrom(...emptyEvents), fc.boolean(), nothing, (event, bare, payload) => {
        expect(parsePlayRequest(event, bare ? [] : [payload])).toEqual({ type: EMPTY[event] });
      }),
    );
  });

  it('refuses state, buy, history and reality-check-ack with any other payload, or with more than one argument', () => {
    fc.assert(
      fc.property(fc.constantFrom(...emptyEvents), something, (event, payload) => {
        expect(parsePlayRequest(event, [payload])).toBeUndefined();
      }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...emptyEvents),
        fc.array(anything, { minLength: 2, maxLength: 4 }),
        (e, a) => {
          expect(parsePlayRequest(e, a)).toBeUndefined();
        },
      ),
    );
  });

  it('reads reveal with exactly one {roundId} of 1 to 100 characters', () => {
    fc.assert(
      fc.property(validRoundId, (roundId) => {
        expect(parsePlayRequest('reveal', [{ roundId }])).toEqual({ type: 'reveal', roundId });
      }),
    );
  });

  it('refuses reveal with no payload, extra arguments, or a payload without a valid roundId', () => {
    expect(parsePlayRequest('reveal', [])).toBeUndefined();
    expect(parsePlayRequest('reveal', [{ roundId: '' }])).toBeUndefined();
    expect(parsePlayRequest('reveal', [{ roundId: 'x'.repeat(101) }])).toBeUndefined();
    // A control character anywhere in it, a NUL above all (PostgreSQL's text cannot hold one).
    fc.assert(
      fc.property(
        fc.string({ maxLength: 49 }),
        fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)),
        fc.string({ maxLength: 50 }),
        (before, control, after) => {
          expect(parsePlayRequest('reveal', [{ roundId: before + control + after }])).toBeUndefined();
        },
      ),
    );
    fc.assert(
      fc.property(validRoundId, fc.array(anything, { minLength: 1, maxLength: 3 }), (roundId, extra) => {
        expect(parsePlayRequest('reveal', [{ roundId }, ...extra])).toBeUndefined();
      }),
    );
    fc.assert(
      fc.property(
        anything.filter(
          (value) =>
            typeof (value as { roundId?: unknown } | null)?.roundId !== 'string' ||
            !(
              (value as { roundId: string }).roundId.length >= 1 &&
              (value as { roundId: string }).roundId.length <= 100
            ),
        ),
        (payload) => {
          expect(parsePlayRequest('reveal', [payload])).toBeUndefined();
        },
      ),
    );
  });
});
