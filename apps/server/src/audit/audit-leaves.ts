/**
 * What a record's leaf is (contract §16): the canonical JSON (§2) of an ended round with its wallet
 * calls and ticket, or of an audit entry. Fields that change after a round ends for operational
 * reasons (its reconciliation flag, a call's retry state) are left out, so a leaf changes only
 * when what was played or paid changes. The anchoring and every verifier use these two functions.
 */
import { canonicalJson } from '@raspa/core';
import type { AuditLeaf } from '@raspa/core/audit';
import type { AuditRecord, RoundRecord, TransactionRecord } from '../store/records.ts';

/** Round statuses whose rounds are leaves; a declined round moved no money and is not one. */
const LEAF_STATUSES: ReadonlySet<string> = new Set(['closed', 'voided']);
const LIVE_STATUSES: ReadonlySet<string> = new Set(['pending', 'open', 'closing']);

export const roundLabel = (id: string): string => `round ${id}`;
export const entryLabel = (id: string): string => `entry ${id}`;

export function roundLeaf(round: RoundRecord, calls: readonly TransactionRecord[]): AuditLeaf {
  const record = {
    kind: 'round',
    round: {
      id: round.id,
      clientId: round.clientId,
      profileId: round.profileId,
      gameId: round.gameId,
      playerId: round.playerId,
      sessionId: round.sessionId,
      status: round.status,
      currency: round.currency,
      paidMinor: round.paidMinor,
      prizeMinor: round.prizeMinor,
      createdAt: round.createdAt,
      endAt: round.endAt,
      poolId: round.poolId,
      drawIndex: round.drawIndex,
      level: round.level,
      ticket: round.cardJson,
      prizeTransactionId: round.prizeTransactionId ?? null,
      promotionId: round.promotionId ?? null,
      // A test round is left out of the reports (docs/certification.md): turning a real round into
      // one would hide it from GGR, so the mark is in the leaf (absent on real rounds, as in events).
      ...(round.test && { test: true }),
    },
    transactions: calls.map((call) => ({
      id: call.id,
      type: call.type,
      amountMinor: call.amountMinor,
      currency: call.currency,
      balanceBeforeMinor: call.balanceBeforeMinor,
      balanceAfterMinor: call.balanceAfterMinor,
      status: call.status,
      createdAt: call.createdAt,
    })),
  };
  return { label: roundLabel(round.id), leaf: canonicalJson(record) };
}

export function entryLeaf(entry: AuditRecord): AuditLeaf {
  const { id, clientId, actor, operation, targetId, ip, at } = entry;
  return {
    label: entryLabel(id),
    leaf: canonicalJson({ kind: 'entry', entry: { id, clientId, actor, operation, targetId, ip, at } }),
  };
}

/** Whether a round is a leaf once it is ready. */
export const isLeafRound = (round: RoundRecord): boolean => LEAF_STATUSES.has(round.status);

/**
 * Whether a round has reached its final state: not live, and no wallet call of it is still
 * waiting for an answer (a voided round's rollback is sent after the round ends).
 */
export const isSettledRound = (round: RoundRecord, calls: readonly TransactionRecord[]): boolean =>
  !LIVE_STATUSES.has(round.status) && calls.every((call) => call.status !== 'pending');

/** The calls of each round, by round id. */
export function callsByRound(calls: readonly TransactionRecord[]): Map<string, TransactionRecord[]> {
  const byRound = new Map<string, TransactionRecord[]>();
  for (const call of calls) {
    const list = byRound.get(call.roundId);
    if (list) list.push(call);
    else byRound.set(call.roundId, [call]);
  }
  return byRound;
}
