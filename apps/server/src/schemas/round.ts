import { toMajor } from '@raspa/core';
import { z } from 'zod';
import {
  ROUND_STATUSES,
  type RoundDetail,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  type TransactionRecord,
} from '../store/records.ts';
import { isoTime } from './common.ts';
import { roundPromotionField } from './promotion.ts';

/**
 * The spec's Round payload and Transaction object, defined once: the round and transaction lists
 * and the webhook events (and their delivery log) all show these shapes.
 */

export const transactionType = z
  .enum(TRANSACTION_TYPES, 'must be bet, prize, rollback or deposit')
  .meta({ id: 'TransactionType' });

export const transactionStatus = z
  .enum(TRANSACTION_STATUSES, 'must be pending, completed, declined or failed')
  .meta({
    id: 'TransactionStatus',
    description:
      '`completed` once the wallet has confirmed it (a bet it never answered: once its rollback is ' +
      'confirmed, the pair netting to zero); `pending` while it is being sent; `failed` a bet with no ' +
      'definite answer whose rollback is not confirmed yet, or a prize given up; `declined` a definite no. ' +
      'Only `completed` ones moved money: see docs/reconciliation.md',
  });

export const roundStatus = z
  .enum(ROUND_STATUSES, 'must be pending, open, closing, closed, declined or voided')
  .meta({
    id: 'RoundStatus',
    description:
      '`open` once the card is bought, until it is fully revealed; then `closing` while its prize is sent, ' +
      'and `closed`. `pending` while the bet is sent; `declined` when the wallet refused the bet; `voided` ' +
      'when the bet had no definite answer and was rolled back',
  });

const money = (description: string) => z.number().meta({ description: `${description}, in major units` });

export const transactionSchema = z
  .object({
    _id: z.string(),
    amount: money('Negative for a bet, positive for a prize, a rollback or a deposit'),
    type: transactionType,
    currency: z.string().meta({ description: 'ISO 4217' }),
    balanceBefore: money('The balance the wallet reported before it (null until it has answered)').nullable(),
    balanceAfter: money('The balance the wallet reported after it (null until it has answered)').nullable(),
    status: transactionStatus,
  })
  .meta({ id: 'Transaction' });

export const roundUserSchema = z
  .object({
    _id: z.string(),
    credential: z.string().meta({ description: 'The player’s login credential' }),
    credentialType: z.enum(['email', 'username', 'phone', 'external']),
    balance: money('The last balance the wallet reported in the round’s currency (0 if it never did)'),
    betWins: z.number().int(),
    totalBets: z.number().int(),
  })
  .meta({ id: 'RoundUser' });

export const roundSchema = z
  .object({
    _id: z.string(),
    user: roundUserSchema,
    prize: money('Prize of the round (0 when it won nothing)'),
    paidPrice: money('Amount paid for the round'),
    status: roundStatus,
    transactions: z.array(transactionSchema).meta({ description: 'Oldest first: the bet, then the prize' }),
    createdAt: isoTime,
    endAt: isoTime.nullable().meta({ description: 'When the round closed; null while open' }),
    ...roundPromotionField,
    test: z.literal(true).optional().meta({
      description:
        'Only on a round of a test profile (docs/certification.md): left out of the report; absent otherwise',
    }),
  })
  .meta({ id: 'Round' });

export const transactionListItem = transactionSchema
  .extend({ roundId: z.string(), userId: z.string(), profileId: z.string(), createdAt: isoTime })
  .meta({ id: 'TransactionListItem' });

export const roundListItem = roundSchema
  .extend({ profileId: z.string(), gameId: z.string() })
  .meta({ id: 'RoundListItem' });

export type TransactionView = z.infer<typeof transactionSchema>;
export type RoundView = z.infer<typeof roundSchema>;

const majorOrNull = (minor: number | null, currency: string) =>
  minor === null ? null : toMajor(minor, currency);

export function transactionView(transaction: TransactionRecord): TransactionView {
  return {
    _id: transaction.id,
    amount: toMajor(transaction.amountMinor, transaction.currency),
    type: transaction.type,
    currency: transaction.currency,
    balanceBefore: majorOrNull(transaction.balanceBeforeMinor, transaction.currency),
    balanceAfter: majorOrNull(transaction.balanceAfterMinor, transaction.currency),
    status: transaction.status,
  };
}

export function roundView(round: RoundDetail): RoundView {
  const { player } = round;
  return {
    _id: round.id,
    user: {
      _id: player.id,
      credential: player.credential,
      credentialType: player.credentialType,
      balance: toMajor(player.balanceMinor, player.balanceCurrency),
      betWins: player.betWins,
      totalBets: player.totalBets,
    },
    prize: toMajor(round.prizeMinor, round.currency),
    paidPrice: toMajor(round.paidMinor, round.currency),
    status: round.status,
    transactions: round.transactions.map(transactionView),
    createdAt: round.createdAt,
    endAt: round.endAt,
    promotionId: round.promotionId,
    // Absent on a real round, so a real round's payload is as it always was.
    ...(round.test && { test: true as const }),
  };
}

export function transactionListView(transaction: TransactionRecord): z.infer<typeof transactionListItem> {
  return {
    ...transactionView(transaction),
    roundId: transaction.roundId,
    userId: transaction.playerId,
    profileId: transaction.profileId,
    createdAt: transaction.createdAt,
  };
}

export function roundListView(round: RoundDetail): z.infer<typeof roundListItem> {
  return { ...roundView(round), profileId: round.profileId, gameId: round.gameId };
}
