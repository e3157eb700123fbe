/**
 * The leaves of a client's records by ranges (docs/audit.md, "Which records an anchor covers"):
 * an anchor covers the ended rounds created in (previous round mark, its round mark], in
 * (created_at, id) order, then the audit entries in (previous entry mark, its entry mark], in
 * (at, id) order. Both the anchoring job (what is new) and verify-audit (what an anchor covers
 * now) read them here, so they cannot disagree on the rule.
 */
import type { AuditLeaf } from '@raspa/core/audit';
import type { AuditAnchorsRepo, LeafMark } from '../store/repos/audit-anchors-repo.ts';
import { callsByRound, entryLeaf, isLeafRound, isSettledRound, roundLeaf } from './audit-leaves.ts';

/** Above every id: ids are ASCII. */
const AFTER_EVERY_ID = '\u{10FFFF}';
/** Rows read from a source at a time by a verifier. */
const PAGE = 5_000;

export interface NewLeaves {
  leaves: AuditLeaf[];
  roundMark: LeafMark;
  entryMark: LeafMark;
}

/**
 * The leaves ended since the marks, up to `cap` of them: rounds created before `cutoff` in order,
 * stopping at the first one not yet settled (it holds the client's later rounds back until it
 * is), then audit entries written before `cutoff`. The marks move past what was taken (and past a
 * declined round, which is not a leaf).
 */
export async function newLeaves(
  repo: AuditAnchorsRepo,
  clientId: string,
  from: { roundMark: LeafMark; entryMark: LeafMark },
  cutoff: string,
  cap: number,
): Promise<NewLeaves> {
  const upTo = { at: cutoff, id: AFTER_EVERY_ID };
  const rounds = await repo.rounds({ clientId, after: from.roundMark, upTo, limit: cap });
  const last = rounds.at(-1);
  const calls = last
    ? callsByRound(
        await repo.roundCalls({ clientId, after: from.roundMark, upTo: { at: last.createdAt, id: last.id } }),
      )
    : new Map();
  const leaves: AuditLeaf[] = [];
  let roundMark = from.roundMark;
  for (const round of rounds) {
    const own = calls.get(round.id) ?? [];
    if (!isSettledRound(round, own)) break;
    if (isLeafRound(round)) leaves.push(roundLeaf(round, own));
    roundMark = { at: round.createdAt, id: round.id };
  }
  let entryMark = from.entryMark;
  if (leaves.length < cap) {
    for (const entry of await repo.entries({
      clientId,
      after: from.entryMark,
      upTo,
      limit: cap - leaves.length,
    })) {
      leaves.push(entryLeaf(entry));
      entryMark = { at: entry.at, id: entry.id };
    }
  }
  return { leaves, roundMark, entryMark };
}

/** Every leaf the records give now in an anchor's ranges (after, upTo], read a page at a time. */
export async function leavesInRanges(
  repo: AuditAnchorsRepo,
  clientId: string,
  after: { roundMark: LeafMark; entryMark: LeafMark },
  upTo: { roundMark: LeafMark; entryMark: LeafMark },
): Promise<AuditLeaf[]> {
  const leaves: AuditLeaf[] = [];
  for (let mark = after.roundMark; ; ) {
    const rounds = await repo.rounds({ clientId, after: mark, upTo: upTo.roundMark, limit: PAGE });
    const last = rounds.at(-1);
    if (!last) break;
    const lastMark = { at: last.createdAt, id: last.id };
    const calls = callsByRound(await repo.roundCalls({ clientId, after: mark, upTo: lastMark }));
    for (const round of rounds)
      if (isLeafRound(round)) leaves.push(roundLeaf(round, calls.get(round.id) ?? []));
    if (rounds.length < PAGE) break;
    mark = lastMark;
  }
  for (let mark = after.entryMark; ; ) {
    const entries = await repo.entries({ clientId, after: mark, upTo: upTo.entryMark, limit: PAGE });
    for (const entry of entries) leaves.push(entryLeaf(entry));
    const last = entries.at(-1);
    if (!last || entries.length < PAGE) break;
    mark = { at: last.at, id: last.id };
  }
  return leaves;
}
