import { PROMOTION_LIMITS, promotionTimeProblems } from '@raspa/core';
import type { ParsedPlayerIds } from './player-ids.ts';

/**
 * The promotion form's checks, by the service's own limits (PROMOTION_LIMITS and promotionTimeProblems
 * of @raspa/core), before anything is sent: a promotion created with half its players is worse than
 * one refused. Times are typed in UTC (datetime-local fields, no zone).
 */

export interface PromotionDraft {
  name: string;
  cardsPerPlayer: string;
  /** `YYYY-MM-DDTHH:mm` in UTC; empty: now. */
  startAt: string;
  expireAt: string;
  ids: ParsedPlayerIds;
}

export type DraftProblem =
  | { kind: 'name' }
  | { kind: 'cards' }
  | { kind: 'no-ids' }
  | { kind: 'id-lines' }
  | { kind: 'bad-time'; field: 'startAt' | 'expireAt' }
  | { kind: 'time'; rule: 'future' | 'order' | 'long' | 'other'; message: string };

export interface CheckedDraft {
  name: string;
  cardsPerPlayer: number;
  startAt?: string;
  expireAt: string;
  players: string[];
}

/** A datetime-local value read as UTC, as an ISO time; undefined when it is not one. */
export function utcInputToIso(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return undefined;
  const time = Date.parse(`${value}Z`);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

// The core's messages, to say them in the panel's language.
const TIME_RULES: Record<string, 'future' | 'order' | 'long'> = {
  'must be in the future': 'future',
  'must be after startAt': 'order',
  'must be at most 366 days after startAt': 'long',
};

export function checkPromotionDraft(
  draft: PromotionDraft,
  now: number,
): { ok: true; value: CheckedDraft } | { ok: false; problems: DraftProblem[] } {
  const problems: DraftProblem[] = [];
  const name = draft.name.trim();
  const { nameLength, cardsPerPlayer: cardsRange } = PROMOTION_LIMITS;
  if (name.length < nameLength.min || name.length > nameLength.max) problems.push({ kind: 'name' });
  const cards = Number(draft.cardsPerPlayer);
  if (
    draft.cardsPerPlayer.trim() === '' ||
    !Number.isInteger(cards) ||
    cards < cardsRange.min ||
    cards > cardsRange.max
  ) {
    problems.push({ kind: 'cards' });
  }
  if (draft.ids.problems.length > 0) problems.push({ kind: 'id-lines' });
  else if (draft.ids.ids.length === 0) problems.push({ kind: 'no-ids' });
  const startAt = draft.startAt.trim() === '' ? undefined : utcInputToIso(draft.startAt);
  const expireAt = utcInputToIso(draft.expireAt);
  if (draft.startAt.trim() !== '' && startAt === undefined)
    problems.push({ kind: 'bad-time', field: 'startAt' });
  if (expireAt === undefined) problems.push({ kind: 'bad-time', field: 'expireAt' });
  else if (draft.startAt.trim() === '' || startAt !== undefined) {
    const found = promotionTimeProblems(
      { startAt: startAt === undefined ? null : Date.parse(startAt), expireAt: Date.parse(expireAt) },
      now,
    );
    for (const { message } of found)
      problems.push({ kind: 'time', rule: TIME_RULES[message] ?? 'other', message });
  }
  if (problems.length > 0 || expireAt === undefined) return { ok: false, problems };
  return {
    ok: true,
    value: {
      name,
      cardsPerPlayer: cards,
      ...(startAt !== undefined && { startAt }),
      expireAt,
      players: draft.ids.ids,
    },
  };
}
