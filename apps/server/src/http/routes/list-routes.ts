import { once } from 'node:events';
import { type CsvColumns, csvHeader, csvLines, promoReportFigures, toCsv, toMajor } from '@raspa/core';
import type { Response } from 'express';
import { z } from 'zod';
import { id, successStatus } from '../../schemas/common.ts';
import { checkPageReach, LIST_REACH, pageOf, pageQuery } from '../../schemas/paging.ts';
import {
  roundListItem,
  roundListView,
  roundStatus,
  transactionListItem,
  transactionListView,
  transactionStatus,
  transactionType,
} from '../../schemas/round.ts';
import { REPORT_GROUPS, type ReportRow } from '../../store/records.ts';
import { csvColumnsOf } from '../csv-columns.ts';
import { sendCsv } from '../csv-response.ts';
import { checkDateOrder, dateRangeFields } from '../date-range.ts';
import { ok, okPage } from '../envelope.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';

const format = z
  .enum(['json', 'csv'], 'must be json or csv')
  .default('json')
  .meta({
    description:
      'csv: text/csv (RFC 4180, a header line), nested fields left out. On the round and transaction lists ' +
      'it is the whole list matching the filters (every page, newest first; pageIndex and pageSize are ignored), ' +
      'streamed; on the report, its rows. A text cell starting with =, +, -, @, a tab or a carriage return ' +
      "gets a ' in front and stays quoted (OWASP, CSV injection); amounts and counts stay numbers.",
  });

const ledgerFields = pageQuery.extend({
  format,
  profileId: id.optional().meta({ description: 'Only this profile (yours: another client’s is a 404)' }),
  userId: id.optional().meta({ description: 'Only this player' }),
  roundId: id.optional().meta({ description: 'Only this round' }),
  type: transactionType.optional().meta({
    description: 'Transactions of this type; on the round list, rounds having a transaction of this type',
  }),
  ...dateRangeFields,
});

/** A list's query: the shared filters and `status`, which takes the statuses of that list's records. */
const ledgerQuery = <S extends typeof roundStatus | typeof transactionStatus>(status: S, what: string) =>
  ledgerFields
    .extend({ status: status.optional().meta({ description: `Only ${what} of this status` }) })
    .superRefine((value, context) => {
      checkDateOrder(value, context);
      checkPageReach(value, context);
    });

export const transactionQuery = ledgerQuery(transactionStatus, 'transactions');
export const roundQuery = ledgerQuery(roundStatus, 'rounds');

const LIST_NOTES =
  'Newest first. Filters combine (AND); dateStart and dateEnd are whole UTC days, both included. ' +
  'An unknown profileId, userId or roundId, or another API client’s, is the same 404. ' +
  `Pages reach the newest ${LIST_REACH.toLocaleString('en')} records of a list: pageIndex may be at most ` +
  `ceil(${LIST_REACH} / pageSize); narrow the list (e.g. dateStart and dateEnd) to reach older ones.`;

export const reportQuery = z
  .object({
    profileId: id.optional().meta({ description: 'Only this profile (yours: another client’s is a 404)' }),
    groupBy: z.enum(REPORT_GROUPS, 'must be day, game, currency or player').default('day'),
    format,
    ...dateRangeFields,
  })
  .superRefine(checkDateOrder);

export const reportRowSchema = z
  .object({
    key: z.string().meta({ description: 'The UTC day (YYYY-MM-DD), game id, currency or player id' }),
    currency: z.string(),
    rounds: z.number().int().meta({ description: 'Rounds whose completed bet is in the row (bought cards)' }),
    players: z.number().int().meta({ description: 'Players who placed those bets' }),
    bets: z.number().meta({ description: 'Completed bets, in major units (positive)' }),
    prizes: z.number().meta({ description: 'Completed prizes of bought cards, in major units' }),
    rollbacks: z.number().meta({ description: 'Completed rollbacks (bets given back), in major units' }),
    promoRounds: z
      .number()
      .int()
      .meta({
        description:
          'Free cards played: rounds opened with a promotion’s card (docs/promotions.md), by the day the round ' +
          'opened; a free card has no bet, so it is not in `rounds`',
      }),
    promoPrizes: z.number().meta({
      description: 'Completed prizes of free cards, in major units: what the promotions cost',
    }),
    ggr: z.number().meta({ description: 'bets − prizes − rollbacks − promoPrizes, in major units' }),
    rtp: z.number().nullable().meta({
      description: 'prizes / bets of bought cards (free cards have no bet); null when there are no bets',
    }),
  })
  .meta({ id: 'ReportRow' });

type ReportRowView = z.infer<typeof reportRowSchema>;
const REPORT_COLUMNS = csvColumnsOf(reportRowSchema);

function reportRowView(row: ReportRow): ReportRowView {
  const major = (minor: number) => toMajor(minor, row.currency);
  const { ggrMinor, rtp } = promoReportFigures(row);
  return {
    key: row.key,
    currency: row.currency,
    rounds: row.rounds,
    players: row.players,
    bets: major(row.betsMinor),
    prizes: major(row.prizesMinor),
    rollbacks: major(row.rollbacksMinor),
    promoRounds: row.promoRounds,
    promoPrizes: major(row.promoPrizesMinor),
    ggr: major(ggrMinor),
    rtp,
  };
}

const TRANSACTION_COLUMNS = csvColumnsOf(transactionListItem);
/** A round flattened: the list's fields without its nested user and transactions, plus the player's. */
const ROUND_COLUMNS = {
  _id: 'text',
  profileId: 'text',
  gameId: 'text',
  userId: 'text',
  credential: 'text',
  status: 'text',
  paidPrice: 'number',
  prize: 'number',
  createdAt: 'text',
  endAt: 'text',
  promotionId: 'text',
} as const satisfies CsvColumns;

/** Records read per batch of a whole-list CSV export: the memory it holds at once. */
const EXPORT_BATCH = 500;

/**
 * Streams a whole list as text/csv, one batch at a time, waiting for the client to take each
 * (bounded memory whatever the list's length). The filter was checked before the first byte; a
 * failure after it cuts the answer short (the client sees an incomplete download, never a
 * half-file that looks whole: there is no Content-Length and the connection is reset).
 */
async function streamCsv<T>(
  response: Response,
  name: string,
  columns: CsvColumns,
  batches: AsyncIterable<T[]>,
  view: (record: T) => Record<string, unknown>,
) {
  response
    .status(200)
    .type('text/csv; charset=utf-8')
    .set('Content-Disposition', `attachment; filename="${name}.csv"`)
    .set('Cache-Control', 'no-store');
  try {
    if (!response.write(csvHeader(columns))) await once(response, 'drain');
    for await (const batch of batches) {
      if (response.destroyed) return undefined as never;
      if (!response.write(csvLines(columns, batch.map(view)))) await once(response, 'drain');
    }
    response.end();
  } catch (error) {
    response.destroy();
    throw error;
  }
  return undefined as never;
}

const roundCsvRow = (round: Parameters<typeof roundListView>[0]) => {
  const view = roundListView(round);
  return { ...view, userId: view.user._id, credential: view.user.credential };
};

export function listRoutes({ services }: RouteKit): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/transaction',
      tag: 'Rounds and transactions',
      summary: 'List the transactions of the API client',
      description: `${LIST_NOTES} Amounts are in major units: a bet is negative, a prize positive.`,
      auth: 'bearer',
      query: transactionQuery,
      success: { status: 200, schema: pageOf(transactionListItem) },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, query, response }) => {
        const { pageIndex, pageSize, format: as, ...filters } = query;
        if (as === 'csv') {
          const all = await services.lists.allTransactions(auth, filters, EXPORT_BATCH);
          return streamCsv(response, 'transactions', TRANSACTION_COLUMNS, all, transactionListView);
        }
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
      query: roundQuery,
      success: { status: 200, schema: pageOf(roundListItem) },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, query, response }) => {
        const { pageIndex, pageSize, format: as, ...filters } = query;
        if (as === 'csv') {
          const all = await services.lists.allRounds(auth, filters, EXPORT_BATCH);
          return streamCsv(response, 'rounds', ROUND_COLUMNS, all, roundCsvRow);
        }
        const page = await services.lists.rounds(auth, filters, { pageIndex, pageSize });
        return okPage(page.items.map(roundListView), { pageIndex, pageSize, totalCount: page.totalCount });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/report',
      tag: 'Back office',
      summary: 'GGR report by day, game, currency or player',
      description:
        'Sums the `completed` bet, prize and rollback transactions of GET /v1/transaction over the same ' +
        'filter (docs/reconciliation.md), one row per (key, currency), by key then currency: each row equals ' +
        'the sums of that list. A day is the transaction’s UTC day; dateStart and dateEnd are whole UTC days, ' +
        'both included. format=csv answers the rows as text/csv.',
      auth: 'bearer',
      query: reportQuery,
      success: { status: 200, schema: z.object({ status: successStatus, data: z.array(reportRowSchema) }) },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, query, response }) => {
        const { groupBy, format: as, ...filters } = query;
        const rows = (await services.lists.report(auth, filters, groupBy)).map(reportRowView);
        if (as === 'csv') return sendCsv(response, `report-${groupBy}`, toCsv(REPORT_COLUMNS, rows));
        return ok(rows);
      },
    }),
  ];
}
