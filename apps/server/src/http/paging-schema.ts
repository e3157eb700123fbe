import { z } from 'zod';

/** pageIndex from 1 (default 1), pageSize 1–100 (default 20: the spec leaves it "not shown"). */
export const pageQuery = z.object({
  pageIndex: z.coerce.number().int('must be a whole number').min(1, 'must be 1 or more').default(1),
  pageSize: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be between 1 and 100')
    .max(100, 'must be between 1 and 100')
    .default(20),
});

export const paginationSchema = z
  .object({ pageIndex: z.number().int(), pageSize: z.number().int(), totalCount: z.number().int() })
  .meta({ id: 'Pagination' });

/** YYYY-MM-DD, as the spec's webhook log filters; also used by the round and transaction lists. */
export const dateOnly = z.iso.date('must be a date as YYYY-MM-DD');
