import { id } from '../../schemas/common.ts';
import {
  roundListItem,
  roundListView,
  transactionListItem,
  transactionListView,
  transactionType,
} from '../../schemas/round.ts';
import { checkDateOrder, dateRangeFields } from '../date-range.ts';
import { okPage } from '../envelope.ts';
import { checkPageReach, LIST_REACH, pageOf, pageQuery } from '../paging-schema.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';

const ledgerQuery = pageQuery
  .extend({
    profileId: id.optional().meta({ description: 'Only this profile (yours: another client’s is a 403)' }),
    userId: id.optional().meta({ description: 'Only this player' }),
    roundId: id.optional().meta({ description: 'Only this round' }),
    type: transactionType.optional().meta({
      description: 'Transactions of this type; on the round list, rounds having a transaction of this type',
    }),
    ...dateRangeFields,
  })
  .superRefine((value, context) => {
    checkDateOrder(value, context);
    checkPageReach(value, context);
  });

const LIST_NOTES =
  'Newest first. Filters combine (AND); dateStart and dateEnd are whole UTC days, both included. ' +
  'A profileId, userId or roundId of another API client is a 403, an unknown one a 404. ' +
  `Pages reach the newest ${LIST_REACH.toLocaleString('en')} records of a list: pageIndex may be at most ` +
  `ceil(${LIST_REACH} / pageSize); narrow the list (e.g. dateStart and dateEnd) to reach older ones.`;

export function listRoutes({ services }: RouteKit): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/transaction',
      tag: 'Rounds and transactions',
      summary: 'List the transactions of the API client',
      description: `${LIST_NOTES} Amounts are in major units: a bet is negative, a prize positive.`,
      auth: 'bearer',
      query: ledgerQuery,
      success: { status: 200, schema: pageOf(transactionListItem) },
      errors: [400, 401, 403, 404, 500],
      handle: async ({ auth, query }) => {
        const { pageIndex, pageSize, ...filters } = query;
        const page = await services.lists.transactions(auth, filters, { pageIndex, pageSize });
        return okPage(page.items.map(transactionListView), {
          pageIndex,
          pageSize,
          totalCount: page.totalCount,
        });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/round',
      tag: 'Rounds and transactions',
      summary: 'List the rounds of the API client, each with its transactions',
      description: `${LIST_NOTES} type keeps the rounds that have a transaction of that type (rollback: voided bets).`,
      auth: 'bearer',
      query: ledgerQuery,
      success: { status: 200, schema: pageOf(roundListItem) },
      errors: [400, 401, 403, 404, 500],
      handle: async ({ auth, query }) => {
        const { pageIndex, pageSize, ...filters } = query;
        const page = await services.lists.rounds(auth, filters, { pageIndex, pageSize });
        return okPage(page.items.map(roundListView), { pageIndex, pageSize, totalCount: page.totalCount });
      },
    }),
  ];
}
