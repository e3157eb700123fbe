import type { CsvCellKind, CsvColumns } from '@raspa/core';
import { z } from 'zod';

/**
 * The CSV columns of a flat response schema, in its order: a field whose schema is a number
 * (nullable or optional included) is a `number` column, any other a `text` one. Taken from the
 * schema that shapes the JSON answer, so the CSV cannot drift from it.
 */
export function csvColumnsOf(schema: z.ZodObject): CsvColumns {
  return Object.fromEntries(
    Object.entries(schema.shape).map(([name, field]) => [name, cellKind(field as z.ZodType)]),
  );
}

function cellKind(field: z.ZodType): CsvCellKind {
  let inner = field;
  while (inner instanceof z.ZodNullable || inner instanceof z.ZodOptional)
    inner = inner.unwrap() as z.ZodType;
  return inner instanceof z.ZodNumber ? 'number' : 'text';
}
