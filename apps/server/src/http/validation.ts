import type { z } from 'zod';
import { ApiError } from '../services/api-error.ts';
import { pathsWhere } from './value-paths.ts';

/** A field's name in a message: its path, or where the value came from for the value itself. */
const fieldOf = (path: readonly PropertyKey[], where: string) =>
  path.length > 0 ? path.map(String).join('.').replaceAll('\u0000', '\\u0000') : where;

const holdsNul = (leaf: unknown) => typeof leaf === 'string' && leaf.includes('\u0000');

/**
 * One sentence per string (or key) of a request value that holds U+0000. No id, name or text of the
 * API has a use for it, and PostgreSQL's text cannot store it (`invalid byte sequence for encoding
 * "UTF8": 0x00`, a 500), while SQLite would: so it is refused here, where every path parameter, query
 * and body is read, the same on both databases (docs/api.md).
 */
export function nulMessages(input: unknown, where: string): string[] {
  return pathsWhere(input, holdsNul).map(
    (path) => `${fieldOf(path, where)}: must not contain the NUL character (U+0000)`,
  );
}

/** One readable sentence per bad field, naming the field (docs/contract.md §1): the first problem of each. */
export function issueMessages(issues: readonly z.core.$ZodIssue[], input: unknown, where: string): string[] {
  const byField = new Map<string, string>();
  for (const issue of issues) {
    const field = fieldOf(issue.path, where);
    if (byField.has(field)) continue;
    // An enum (z.enum) reports a missing value as invalid_value, a plain type as invalid_type.
    const missingValue = issue.code === 'invalid_type' || issue.code === 'invalid_value';
    if (missingValue && valueAt(input, issue.path) === undefined) {
      byField.set(field, `${field} is required`);
    } else if (issue.code === 'unrecognized_keys') {
      byField.set(field, `${field}: unknown field(s) ${issue.keys.join(', ')}`);
    } else {
      byField.set(field, `${field}: ${issue.message}`);
    }
  }
  return [...byField.values()];
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const nul = nulMessages(value, where);
  if (nul.length > 0) throw new ApiError('VALIDATION_ERROR', nul);
  const result = schema.safeParse(value);
  if (!result.success)
    throw new ApiError('VALIDATION_ERROR', issueMessages(result.error.issues, value, where));
  return result.data;
}
