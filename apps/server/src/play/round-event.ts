import { type RoundView, roundView } from '../schemas/round.ts';
import { eventCall } from '../store/ledger-columns.ts';
import type { RoundDetail, RoundPlayer, RoundRecord, TransactionRecord } from '../store/records.ts';
import type { LedgerChanges } from './wallet-outcomes.ts';

/**
 * A round's webhook payload (the spec's Round, docs/contract.md §7) from what the unit that
 * changed the round holds (issue 23): no read of the round's detail. Pure.
 */

/** Oldest first, as the store orders a round's calls (`ORDER BY created_at, id`, byte order). */
const oldestFirst = (a: TransactionRecord, b: TransactionRecord) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** The round's calls once a unit's changes are written: each change applied, the new call added. */
export function callsAfter(calls: readonly TransactionRecord[], changes: LedgerChanges): TransactionRecord[] {
  const changed = new Map(calls.map((call) => [call.id, eventCall(call)]));
  for (const { id, change } of changes.transactions ?? []) {
    const call = changed.get(id);
    // A change to a call the unit does not hold leaves the event without it: a bug in the flow.
    if (!call) throw new Error(`call ${id} changed but not held`);
    changed.set(id, eventCall({ ...call, ...change }));
  }
  if (changes.insert) changed.set(changes.insert.id, eventCall(changes.insert));
  return [...changed.values()].sort(oldestFirst);
}

/** The round's detail as the lists read it (store/round-detail.ts), from the held parts. */
export function heldDetail(
  round: RoundRecord,
  calls: readonly TransactionRecord[],
  player: RoundPlayer,
): RoundDetail {
  return {
    id: round.id,
    clientId: round.clientId,
    profileId: round.profileId,
    gameId: round.gameId,
    sessionId: round.sessionId,
    status: round.status,
    currency: round.currency,
    paidMinor: round.paidMinor,
    prizeMinor: round.prizeMinor,
    createdAt: round.createdAt,
    endAt: round.endAt,
    promotionId: round.promotionId,
    test: round.test,
    player,
    transactions: [...calls].sort(oldestFirst),
  };
}

/** The event's payload: the round as the unit left it, its calls and its player after the unit. */
export function roundEventPayload(
  round: RoundRecord,
  calls: readonly TransactionRecord[],
  player: RoundPlayer,
): RoundView {
  return roundView(heldDetail(round, calls, player));
}
