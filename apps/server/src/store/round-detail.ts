import type { RoundDetail, RoundPlayer, TransactionRecord } from './records.ts';

/** A round as both adapters read it for the lists: the round's columns and its player's, flat. */
export type RoundDetailRow = Omit<RoundDetail, 'player' | 'transactions'> &
  Omit<RoundPlayer, 'id'> & { playerId: string };

/** A round row with its player's columns, as the lists show it. */
export function roundDetail(
  {
    playerId,
    credential,
    credentialType,
    balanceMinor,
    balanceCurrency,
    betWins,
    totalBets,
    ...round
  }: RoundDetailRow,
  transactions: TransactionRecord[],
): RoundDetail {
  return {
    ...round,
    player: { id: playerId, credential, credentialType, balanceMinor, balanceCurrency, betWins, totalBets },
    transactions,
  };
}
