import type { PlayRound } from '@raspa/core';

/**
 * The session's elapsed time and net position as the page counts them (GB: RTS 13C and 2E), from
 * when the page was opened: RTS 13C's guidance lets the elapsed time start when the game is opened.
 * Wagered counts each bought card's price once (a free card's is 0); won counts a card's prize once
 * it is paid (`closed`), and only for cards this page counted the price of, so both figures cover
 * the same cards. A reload starts again (docs/player-protection.md, "Not built yet").
 */
export interface SessionPosition {
  readonly startedAt: number;
  readonly wagered: number;
  readonly won: number;
  /** The rounds whose price is counted, and those whose prize is. */
  readonly bets: ReadonlySet<string>;
  readonly prizes: ReadonlySet<string>;
}

export const openPosition = (now: number): SessionPosition => ({
  startedAt: now,
  wagered: 0,
  won: 0,
  bets: new Set(),
  prizes: new Set(),
});

/** After a card bought in this page: its price counted once. */
export function withBet(position: SessionPosition, round: PlayRound): SessionPosition {
  if (position.bets.has(round.roundId)) return position;
  return {
    ...position,
    wagered: position.wagered + round.price,
    bets: new Set(position.bets).add(round.roundId),
  };
}

/** After a round's news (reveal answer, push): its prize counted once it is paid. */
export function withPrize(position: SessionPosition, round: PlayRound): SessionPosition {
  if (round.status !== 'closed' || !position.bets.has(round.roundId) || position.prizes.has(round.roundId))
    return position;
  return {
    ...position,
    won: position.won + round.prize,
    prizes: new Set(position.prizes).add(round.roundId),
  };
}

/** Won − wagered: negative when the player is down (RTS 2E's "net position"). */
export const netOf = (position: SessionPosition): number => position.won - position.wagered;
