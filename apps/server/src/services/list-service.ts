import type { Deps } from '../deps.ts';
import type { PageRequest } from '../store/paging.ts';
import type {
  LedgerFilter,
  ListCursor,
  ReportGroup,
  RoundStatus,
  TransactionStatus,
  TransactionType,
} from '../store/records.ts';
import type { AuthContext } from './auth-context.ts';
import { dayBounds } from './day-bounds.ts';
import { owned } from './ownership.ts';

/** The filters of `GET /v1/round` and `GET /v1/transaction` (docs/contract.md §3), all optional. */
export interface LedgerQuery {
  profileId?: string | undefined;
  userId?: string | undefined;
  roundId?: string | undefined;
  type?: TransactionType | undefined;
  /** A round status on the round list, a transaction status on the transaction list. */
  status?: RoundStatus | TransactionStatus | undefined;
  dateStart?: string | undefined;
  dateEnd?: string | undefined;
}

/**
 * The round and transaction lists. A profile, user or round named in a filter must be the
 * caller's: unknown, or another client's, is the same 404 (docs/contract.md §1), so a list never reveals
 * another client's records nor that they exist.
 */
export function createListService(deps: Deps) {
  const { store } = deps;

  async function filterFor(auth: AuthContext, query: LedgerQuery): Promise<LedgerFilter> {
    const { profileId, userId, roundId } = query;
    if (profileId !== undefined)
      owned(await store.profiles.findById(profileId), auth.clientId, `profile ${profileId}`);
    if (userId !== undefined)
      owned(await store.ledger.findPlayerRef(userId), auth.clientId, `user ${userId}`);
    if (roundId !== undefined)
      owned(await store.ledger.findRoundRef(roundId), auth.clientId, `round ${roundId}`);
    return {
      clientId: auth.clientId,
      profileId: profileId ?? null,
      playerId: userId ?? null,
      roundId: roundId ?? null,
      type: query.type ?? null,
      status: query.status ?? null,
      ...dayBounds(query),
    };
  }

  /**
   * Every record of a list in batches of `batchSize`, newest first (keyset paging, so a batch costs
   * the same wherever it is and rows added meanwhile do not shift it): the caller holds one batch
   * at a time. The filter is checked (404) before the first batch.
   */
  async function* batches<T extends ListCursor>(
    filter: LedgerFilter,
    next: (filter: LedgerFilter, after: ListCursor | null, limit: number) => Promise<T[]>,
    batchSize: number,
  ): AsyncGenerator<T[]> {
    let after: ListCursor | null = null;
    for (;;) {
      const batch = await next(filter, after, batchSize);
      if (batch.length > 0) yield batch;
      const last = batch.at(-1);
      if (!last || batch.length < batchSize) return;
      after = { createdAt: last.createdAt, id: last.id };
    }
  }

  return {
    /** The whole round list for a filter, in batches (the CSV export); the filter is checked first. */
    async allRounds(auth: AuthContext, query: LedgerQuery, batchSize: number) {
      return batches(
        await filterFor(auth, query),
        (filter, after, limit) => store.ledger.roundsAfter(filter, after, limit),
        batchSize,
      );
    },
    async allTransactions(auth: AuthContext, query: LedgerQuery, batchSize: number) {
      return batches(
        await filterFor(auth, query),
        (filter, after, limit) => store.ledger.transactionsAfter(filter, after, limit),
        batchSize,
      );
    },
    async rounds(auth: AuthContext, query: LedgerQuery, page: PageRequest) {
      return store.ledger.listRounds(await filterFor(auth, query), page);
    },
    async transactions(auth: AuthContext, query: LedgerQuery, page: PageRequest) {
      return store.ledger.listTransactions(await filterFor(auth, query), page);
    },
    /**
     * The GGR report over the same filter as the transaction list (no type: it sums every type; no
     * status: it sums the completed ones).
     */
    async report(auth: AuthContext, query: Omit<LedgerQuery, 'type' | 'status'>, groupBy: ReportGroup) {
      return store.ledger.report(
        await filterFor(auth, { ...query, type: undefined, status: undefined }),
        groupBy,
      );
    },
  };
}

export type ListService = ReturnType<typeof createListService>;
