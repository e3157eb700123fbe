import type { LadderLevel } from '@raspa/core';
import { describe, expect, it } from 'vitest';
import type { GameRecord } from '../store/records.ts';
import {
  newBet,
  newPrize,
  newRollback,
  newRound,
  playRoundOf,
  prizeOfLevel,
  walletMovement,
} from './round-records.ts';

const NOW = '2026-03-01T12:00:00.000Z';
const LATER = '2026-03-01T12:00:30.000Z';

const level = (n: number, prize: number): LadderLevel => ({
  level: n,
  winners: 1,
  totalPrize: prize,
  prize,
  percentage: 0,
});

const game = {
  id: 'game-1',
  clientId: 'client-1',
  profileId: 'profile-1',
  gameModel: 'model-1',
  currency: 'BRL',
  betMinor: 200,
  ladder: { levels: [level(1, 100), level(2, 500)] },
} as unknown as GameRecord;

const round = newRound(game, { roundId: 'round-1', playerId: 'player-1', sessionId: 'session-1' }, NOW);

describe('round records', () => {
  it('a new round waits on its bet: pending, no ticket, the game’s price and currency', () => {
    expect(round).toEqual({
      id: 'round-1',
      clientId: 'client-1',
      profileId: 'profile-1',
      gameId: 'game-1',
      playerId: 'player-1',
      sessionId: 'session-1',
      status: 'pending',
      currency: 'BRL',
      paidMinor: 200,
      prizeMinor: 0,
      createdAt: NOW,
      endAt: null,
      poolId: null,
      drawIndex: null,
      level: null,
      cardJson: null,
      lastActionAt: NOW,
      reconciliation: false,
      prizeTransactionId: null,
      promotionId: null,
      test: false,
    });
  });

  it('a bet is the negative price, pending, its first attempt made and held until its in-flight time', () => {
    expect(newBet(round, 'bet-1', NOW, LATER)).toEqual({
      id: 'bet-1',
      roundId: 'round-1',
      clientId: 'client-1',
      profileId: 'profile-1',
      playerId: 'player-1',
      type: 'bet',
      amountMinor: -200,
      currency: 'BRL',
      balanceBeforeMinor: null,
      balanceAfterMinor: null,
      status: 'pending',
      createdAt: NOW,
      originalTransactionId: null,
      attempts: 1,
      nextAttemptAt: LATER,
      lastError: null,
      completedAt: null,
    });
  });

  it('a prize is the round’s prize, pending, held until its in-flight time, its first attempt the reveal’s', () => {
    const prize = newPrize({ ...round, prizeMinor: 500, prizeTransactionId: 'prize-1' }, NOW, LATER);
    expect(prize).toMatchObject({
      id: 'prize-1',
      type: 'prize',
      amountMinor: 500,
      status: 'pending',
      attempts: 1,
      nextAttemptAt: LATER,
      originalTransactionId: null,
    });
  });

  it('a round opened without a prize id (before the upgrade) takes the one its migration gives', () => {
    expect(newPrize({ ...round, prizeMinor: 500 }, NOW, LATER).id).toBe('round-1.prize');
  });

  it('a rollback gives the price back, names its bet and is due at once', () => {
    const bet = newBet(round, 'bet-1', NOW, LATER);
    expect(newRollback(round, bet, 'rb-1', NOW)).toMatchObject({
      id: 'rb-1',
      type: 'rollback',
      amountMinor: 200,
      originalTransactionId: 'bet-1',
      status: 'pending',
      attempts: 0,
      nextAttemptAt: NOW,
    });
  });

  it('a level’s prize comes from the ladder; level 0 and unknown levels win nothing', () => {
    expect(prizeOfLevel(game.ladder, 0)).toBe(0);
    expect(prizeOfLevel(game.ladder, 1)).toBe(100);
    expect(prizeOfLevel(game.ladder, 2)).toBe(500);
    expect(prizeOfLevel(game.ladder, 3)).toBe(0);
  });

  it('a wallet call carries a positive amount, the round’s currency and the player’s credential', () => {
    const bet = newBet(round, 'bet-1', NOW, LATER);
    expect(walletMovement(bet, round, { id: 'player-1', credential: 'joana' }, game)).toEqual({
      transactionId: 'bet-1',
      roundId: 'round-1',
      sessionId: 'session-1',
      userId: 'player-1',
      credential: 'joana',
      currency: 'BRL',
      amountMinor: 200,
      gameId: 'game-1',
      gameModel: 'model-1',
    });
  });

  it('a free card’s prize names its promotion; its bet-less round’s other calls and a bought card’s do not', () => {
    const player = { id: 'player-1', credential: 'joana' };
    const free = { ...round, paidMinor: 0, prizeMinor: 500, promotionId: 'promo-1' };
    const bought = { ...free, promotionId: null };
    expect(walletMovement(newPrize(free, NOW, LATER), free, player, game)).toMatchObject({
      amountMinor: 500,
      promotionId: 'promo-1',
    });
    expect(walletMovement(newPrize(bought, NOW, LATER), bought, player, game)).not.toHaveProperty(
      'promotionId',
    );
    const rollback = newRollback(free, newBet(free, 'bet-1', NOW, LATER), 'rollback-1', NOW);
    expect(walletMovement(rollback, free, player, game)).not.toHaveProperty('promotionId');
  });

  it('the page sees a round only once it has a card; `closing` is a prize pending', () => {
    expect(playRoundOf(round)).toBeNull();
    const card = { cells: [1, 2, 3] };
    const open = {
      ...round,
      status: 'open' as const,
      cardJson: JSON.stringify(card),
      level: 2,
      prizeMinor: 500,
    };
    expect(playRoundOf(open)).toEqual({
      roundId: 'round-1',
      status: 'open',
      card,
      level: 2,
      prize: 500,
      price: 200,
      createdAt: NOW,
      endAt: null,
      prizePending: false,
    });
    expect(playRoundOf({ ...open, status: 'closing' })?.prizePending).toBe(true);
    expect(playRoundOf({ ...open, level: null })).toBeNull();
  });
});
