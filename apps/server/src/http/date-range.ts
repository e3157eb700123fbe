import type { z } from 'zod';
import { dateOnly } from '../schemas/paging.ts';

/** dateStart/dateEnd filters: whole UTC days, both inclusive (the spec's webhook log filters). */
export const dateRangeFields = {
  dateStart: dateOnly
    .optional()
    .meta({ description: 'First UTC day included (YYYY-MM-DD)', example: '2026-03-01' }),
  dateEnd: dateOnly
    .optional()
    .meta({ description: 'Last UTC day included (YYYY-MM-DD)', example: '2026-03-31' }),
};

/** Refuses a range that ends before it starts, naming dateStart. */
export function checkDateOrder(
  value: { dateStart?: string | undefined; dateEnd?: string | undefined },
  context: z.RefinementCtx,
): void {
  if (value.dateStart && value.dateEnd && value.dateStart > value.dateEnd) {
    context.addIssue({ code: 'custom', path: ['dateStart'], message: 'must not be after dateEnd' });
  }
}
