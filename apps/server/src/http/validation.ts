import type { z } from 'zod';
import { ApiError } from '../services/api-error.ts';

/** One readable sentence per bad field, naming the field (docs/contract.md §1): the first problem of each. */
export function issueMessages(issues: readonly z.core.$ZodIssue[], input: unknown, where: string): string[] {
  const byField = new Map<string, string>();
  for (const issue of issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : where;
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
  const result = schema.safeParse(value);
  if (!result.success)
    throw new ApiError('VALIDATION_ERROR', issueMessages(result.error.issues, value, where));
  return result.data;
}
