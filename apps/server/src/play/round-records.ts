import type { Ladder, PlayRound } from '@raspa/core';
import type { GameRecord, LedgerTransaction, PlayerRecord, RoundRecord } from '../store/records.ts';
import type { WalletMovement } from '../wallet/wallet.ts';

/**
 * Pure builders of the play loop's records (no I/O: ids and times come in). A wallet call is its
 * ledger transaction: it is committed `pending` before it is sent (docs/contract.md §6).
 */

/** The round of a buy, `pending` until the wallet answers its bet: no ticket drawn yet. */
export function newRound(
  game: GameRecord,
  ids: { roundId: string; playerId: string; sessionId: string },
  now: string,
  /** A round of a test profile (docs/certification.md). */
  test = false,
): RoundRecord {
  return {
    id: ids.roundId,
    clientId: game.clientId,
    profileId: game.profileId,
    gameId: game.id,
    playerId: ids.playerId,
    sessionId: ids.sessionId,
    status: 'pending',
    currency: game.currency,
    paidMinor: game.betMinor,
    prizeMinor: 0,
    createdAt: now,
    endAt: null,
    poolId: null,
    drawIndex: null,
    level: null,
    cardJson: null,
    lastActionAt: now,
    reconciliation: false,
    prizeTransactionId: null,
    promotionId: null,
    test,
  };
}

/** A wallet call of a round, before it is sent. */
function walletCall(
  round: RoundRecord,
  fields: Pick<
    LedgerTransaction,
    'id' | 'type' | 'amountMinor' | 'createdAt' | 'originalTransactionId' | 'attempts' | 'nextAttemptAt'
  >,
): LedgerTransaction {
  return {
    roundId: round.id,
    clientId: round.clientId,
    profileId: round.profileId,
    playerId: round.playerId,
    currency: round.currency,
    balanceBeforeMinor: null,
    balanceAfterMinor: null,
    status: 'pending',
    lastError: null,
    completedAt: null,
    ...fields,
  };
}

/**
 * A wallet call whose first attempt its creator makes at once (a buy's bet, a reveal's prize): it
 * counts as made, and the retrier leaves it alone until `inFlightUntil`.
 */
function sentAtOnce(
  round: RoundRecord,
  type: 'bet' | 'prize',
  amountMinor: number,
  id: string,
  now: string,
  inFlightUntil: string,
): LedgerTransaction {
  return walletCall(round, {
    id,
    type,
    amountMinor,
    createdAt: now,
    originalTransactionId: null,
    attempts: 1,
    nextAttemptAt: inFlightUntil,
  });
}

/** The bet of a new round: the ticket price, taken. */
export const newBet = (round: RoundRecord, id: string, now: string, inFlightUntil: string) =>
  sentAtOnce(round, 'bet', -round.paidMinor, id, now, inFlightUntil);

/**
 * The prize of a round that won, under the transactionId fixed when the round opened (so every
 * sender of it sends the same one, docs/store.md cut 6). A round opened without one (by a process
 * of the version before, during a rolling upgrade) takes the id migration 013/008 gives the won
 * rounds open at the upgrade: derived from the round, so every sender agrees on it too.
 */
export function newPrize(round: RoundRecord, now: string, inFlightUntil: string): LedgerTransaction {
  const id = round.prizeTransactionId ?? `${round.id}.prize`;
  return sentAtOnce(round, 'prize', round.prizeMinor, id, now, inFlightUntil);
}

/** The rollback of a bet that got no definite answer: due at once, given back in full. */
export function newRollback(
  round: RoundRecord,
  bet: LedgerTransaction,
  id: string,
  now: string,
): LedgerTransaction {
  return walletCall(round, {
    id,
    type: 'rollback',
    amountMinor: round.paidMinor,
    createdAt: now,
    originalTransactionId: bet.id,
    attempts: 0,
    nextAttemptAt: now,
  });
}

/** The ticket a round draws when its bet is taken (the card is cosmetic: the level decides). */
export interface Ticket {
  /** Null for a test session's forced card: it comes from no pool (forced-cards.ts). */
  poolId: string | null;
  drawIndex: number | null;
  level: number;
  cardJson: string;
  prizeMinor: number;
}

/** A level's prize; level 0 (and a level the ladder lacks) wins nothing. */
export function prizeOfLevel(ladder: Pick<Ladder, 'levels'>, level: number): number {
  return level > 0 ? (ladder.levels[level - 1]?.prize ?? 0) : 0;
}

/** What a wallet call carries (docs/contract.md §6): amounts positive, the direction is the route. */
export function walletMovement(
  transaction: LedgerTransaction,
  round: RoundRecord,
  player: Pick<PlayerRecord, 'id' | 'credential'>,
  game: Pick<GameRecord, 'id' | 'gameModel'>,
): WalletMovement {
  return {
    transactionId: transaction.id,
    roundId: round.id,
    sessionId: round.sessionId,
    userId: player.id,
    credential: player.credential,
    currency: round.currency,
    amountMinor: Math.abs(transaction.amountMinor),
    gameId: game.id,
    gameModel: game.gameModel,
    // A free card's prize says which promotion paid it (its round sent no bet); a bet never does.
    ...(transaction.type === 'prize' && round.promotionId !== null && { promotionId: round.promotionId }),
  };
}

/** The round as the player's page sees it; null while it has no card (pending, declined, voided). */
export function playRoundOf(round: RoundRecord): PlayRound | null {
  if (!round.cardJson || round.level === null) return null;
  return {
    roundId: round.id,
    status: round.status,
    card: JSON.parse(round.cardJson),
    level: round.level,
    prize: round.prizeMinor,
    price: round.paidMinor,
    createdAt: round.createdAt,
    endAt: round.endAt,
    prizePending: round.status === 'closing',
  };
}
