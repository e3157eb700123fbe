import { expect } from 'vitest';
import type { Answer } from './harness.ts';

/**
 * Another API client's id must be answered exactly as an unknown one (docs/api.md, OWASP: reveal
 * nothing of records a caller may not see): the same status and the same body, but for the id it
 * names.
 */
export function expectAnsweredAsUnknown(
  theirs: Pick<Answer, 'status' | 'body'>,
  unknown: Pick<Answer, 'status' | 'body'>,
  ids: { theirs: string; unknown: string },
): void {
  const named = (answer: Pick<Answer, 'body'>, id: string) =>
    JSON.stringify(answer.body).replaceAll(id, '{id}');
  expect([theirs.status, named(theirs, ids.theirs)]).toEqual([unknown.status, named(unknown, ids.unknown)]);
}
