import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundView } from '../schemas/round.ts';
import {
  ROUND_STATUSES,
  type RoundPlayer,
  type RoundRecord,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  type TransactionRecord,
} from '../store/records.ts';
import { type RoundDetailRow, roundDetail } from '../store/round-detail.ts';
import { callsAfter, roundEventPayload } from './round-event.ts';
import type { LedgerChanges } from './wallet-outcomes.ts';

const currencies = ['BRL', 'USD', 'JPY', 'KWD'] as const;
const iso = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString());
// Few distinct times and ids, so ties in created_at are common and the id breaks them.
const time = fc.constantFrom(
  '2026-03-01T12:00:00.000Z',
  '2026-03-01T12:00:00.001Z',
  '2026-03-01T12:00:01.000Z',
);
const minor = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

const call = (roundId: string) =>
  fc.record({
    id: fc.stringMatching(/^[0-9a-f]{1,4}$/),
    roundId: fc.constant(roundId),
    clientId: fc.constant('client'),
    profileId: fc.constant('profile'),
    playerId: fc.constant('player'),
    type: fc.constantFrom(...TRANSACTION_TYPES),
    amountMinor: minor,
    currency: fc.constantFrom(...currencies),
    balanceBeforeMinor: fc.option(minor, { nil: null }),
    balanceAfterMinor: fc.option(minor, { nil: null }),
    status: fc.constantFrom(...TRANSACTION_STATUSES),
    createdAt: time,
  });

const round: fc.Arbitrary<RoundRecord> = fc.record({
  id: fc.constant('round'),
  clientId: fc.constant('client'),
  profileId: fc.constant('profile'),
  gameId: fc.constant('game'),
  playerId: fc.constant('player'),
  sessionId: fc.constant('session'),
  status: fc.constantFrom(...ROUND_STATUSES),
  currency: fc.constantFrom(...currencies),
  paidMinor: fc.nat(),
  prizeMinor: fc.nat(),
  createdAt: iso,
  endAt: fc.option(iso, { nil: null }),
  poolId: fc.option(fc.constant('pool'), { nil: null }),
  drawIndex: fc.option(fc.nat(), { nil: null }),
  level: fc.option(fc.nat(), { nil: null }),
  cardJson: fc.option(fc.constant('{"cells":[]}'), { nil: null }),
  lastActionAt: iso,
  reconciliation: fc.boolean(),
  prizeTransactionId: fc.constantFrom(null, 'prize'),
  promotionId: fc.constantFrom(null, 'promotion'),
  test: fc.boolean(),
});

const player = (currency: string): fc.Arbitrary<RoundPlayer> =>
  fc.record({
    id: fc.constant('player'),
    credential: fc.string(),
    credentialType: fc.constantFrom('email', 'username', 'phone', 'external'),
    balanceMinor: minor,
    balanceCurrency: fc.constant(currency),
    betWins: fc.nat(),
    totalBets: fc.nat(),
  });

const uniqueCalls = fc.uniqueArray(call('round'), { selector: (c) => c.id, maxLength: 4 });

/** The store's order of a round's calls: `ORDER BY created_at, id`, both byte-ordered ("C"). */
const storeOrder = (calls: TransactionRecord[]) =>
  calls.toSorted((a, b) =>
    Buffer.compare(Buffer.from(`${a.createdAt} ${a.id}`), Buffer.from(`${b.createdAt} ${b.id}`)),
  );

describe('roundEventPayload', () => {
  it('is, byte for byte, what the read-based builder gave for the round’s detail row', () => {
    fc.assert(
      fc.property(
        round.chain((r) => fc.tuple(fc.constant(r), uniqueCalls, player(r.currency))),
        ([held, calls, figures]) => {
          // The old path: the detail row the store read, its calls in the store's order, roundView.
          const row: RoundDetailRow = {
            ...held,
            playerId: figures.id,
            credential: figures.credential,
            credentialType: figures.credentialType,
            balanceMinor: figures.balanceMinor,
            balanceCurrency: figures.balanceCurrency,
            betWins: figures.betWins,
            totalBets: figures.totalBets,
          };
          const read = roundView(roundDetail(row, storeOrder(calls)));
          expect(JSON.stringify(roundEventPayload(held, calls, figures))).toBe(JSON.stringify(read));
          // A free card's round says so in its webhook payload (docs/promotions.md).
          expect(read.promotionId).toBe(held.promotionId);
        },
      ),
    );
  });
});

describe('callsAfter', () => {
  const changesOf = (calls: TransactionRecord[]) =>
    fc.record({
      transactions: fc.array(
        fc.record({
          id: fc.constantFrom(...calls.map((c) => c.id)),
          change: fc.record(
            {
              status: fc.constantFrom(...TRANSACTION_STATUSES),
              balanceAfterMinor: fc.option(minor, { nil: null }),
              lastError: fc.option(fc.string(), { nil: null }),
              createdAt: time,
            },
            { requiredKeys: [] },
          ),
        }),
        { maxLength: 4 },
      ),
      insert: fc.option(
        call('round').filter((c) => !calls.some((held) => held.id === c.id)),
        { nil: undefined },
      ),
    });

  it('applies every change, the last one last, adds the new call, and keeps the store’s order', () => {
    fc.assert(
      fc.property(
        uniqueCalls
          .filter((calls) => calls.length > 0)
          .chain((calls) => fc.tuple(fc.constant(calls), changesOf(calls))),
        ([calls, changes]) => {
          const after = callsAfter(calls, changes as LedgerChanges);
          const model = new Map(calls.map((c) => [c.id, { ...c }]));
          for (const { id, change } of changes.transactions) Object.assign(model.get(id) ?? {}, change);
          const expected = [...model.values()];
          if (changes.insert) expected.push(changes.insert);
          // Only the fields the event shows: the retry state (lastError…) is left out.
          const shown = expected.map(
            ({ lastError: _, ...c }: TransactionRecord & { lastError?: unknown }) => c,
          );
          expect(after).toEqual(storeOrder(shown));
        },
      ),
    );
  });

  it('refuses a change to a call the unit does not hold (its event would leave it out)', () => {
    expect(() =>
      callsAfter([], { transactions: [{ id: 'unheld', change: { status: 'completed' } }] }),
    ).toThrow('call unheld changed but not held');
  });
});
