import { z } from 'zod';
import { successStatus } from './common.ts';

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

/**
 * How deep the round and transaction lists page: OFFSET walks every record before the page, so a
 * page must start within the newest LIST_REACH records of its list (filters reach older ones).
 */
export const LIST_REACH = 10_000;

/** Refuses a pageIndex past the reach, naming the last one that pageSize allows. */
export function checkPageReach(
  value: { pageIndex: number; pageSize: number },
  context: z.RefinementCtx,
): void {
  const last = Math.ceil(LIST_REACH / value.pageSize);
  if (value.pageIndex > last) {
    context.addIssue({
      code: 'custom',
      path: ['pageIndex'],
      message:
        `must be at most ${last} with pageSize ${value.pageSize}: a list pages through its newest ` +
        `${LIST_REACH.toLocaleString('en')} records; narrow it (dateStart, dateEnd, profileId, userId, type) to reach older ones`,
    });
  }
}

export const paginationSchema = z
  .object({ pageIndex: z.number().int(), pageSize: z.number().int(), totalCount: z.number().int() })
  .meta({ id: 'Pagination' });

/** The success body of a paged list of `item`. */
export const pageOf = <S extends z.ZodType>(item: S) =>
  z.object({ status: successStatus, data: z.array(item), pagination: paginationSchema });

/** YYYY-MM-DD, as the spec's webhook log filters; also used by the round and transaction lists. */
export const dateOnly = z.iso.date('must be a date as YYYY-MM-DD');
