import type { HeldRound, RoundDetail, RoundPlayer, RoundRecord, TransactionRecord } from './records.ts';

/** A round as both adapters read it for the lists: the round's columns and its player's, flat. */
export type RoundDetailRow = Omit<RoundDetail, 'player' | 'transactions' | 'test'> &
  Omit<RoundPlayer, 'id'> & {
    playerId: string;
    /** SQLite gives a flag back as 1/0, PostgreSQL as a boolean. */
    test: boolean | number;
  };

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
    test,
    ...round
  }: RoundDetailRow,
  transactions: TransactionRecord[],
): RoundDetail {
  return {
    ...round,
    test: test === true || test === 1,
    player: { id: playerId, credential, credentialType, balanceMinor, balanceCurrency, betWins, totalBets },
    transactions,
  };
}

/** A round row with its player's figures and its calls, as both adapters read it (findHeldRound). */
export type HeldRoundRow = Pick<
  RoundPlayer,
  'credential' | 'credentialType' | 'balanceMinor' | 'betWins' | 'totalBets'
> & {
  calls: TransactionRecord[];
};

/** The held round from its parts: the player's balance is in the round's currency. */
export function heldRound(
  round: RoundRecord,
  { credential, credentialType, balanceMinor, betWins, totalBets, calls }: HeldRoundRow,
): HeldRound {
  return {
    round,
    calls,
    player: {
      id: round.playerId,
      credential,
      credentialType,
      balanceMinor,
      balanceCurrency: round.currency,
      betWins,
      totalBets,
    },
  };
}
