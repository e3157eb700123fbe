import type { PlayRound, SessionFigures } from '@raspa/core';
import { clockOffsetMs } from './buy-pace.ts';

/**
 * The session's elapsed time and net position (GB: RTS 13C and 2E). The server's figures in
 * `state` (the session's own, by the reality check's definitions) are the base, replaced at each
 * load, reconnect and resync; between them the page adds its own cards. Wagered counts each bought
 * card's price once (a free card's is 0); won counts a card's prize once it is paid (`closed`), and
 * only for cards whose price is counted, so both figures cover the same cards. Without the server's
 * figures (a jurisdiction that does not show them) the count starts when the page opened.
 */
export interface SessionPosition {
  /** On the page's clock. */
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

/**
 * The server's figures as the page's base. `startedAt` moves onto the page's clock by the offset
 * seen in `asOf` (read at `localNow`, the answer's arrival), so the elapsed time is the server's
 * whatever the page's clock says. The round in play, if any, has its price in `wagered` and not
 * yet its prize: its prize counts once its news says paid. Any other round's news adds nothing
 * (the figures already hold it).
 */
export function fromServer(
  figures: SessionFigures,
  openRound: PlayRound | null,
  localNow: number,
): SessionPosition {
  const offset = clockOffsetMs(figures.asOf, localNow);
  const started = Date.parse(figures.startedAt);
  // Its bet confirmed, its prize not paid: in `wagered`, not in `won` (core realityCheckFigures).
  const inPlay = openRound && (openRound.status === 'open' || openRound.status === 'closing');
  return {
    startedAt: Number.isNaN(started) ? localNow : Math.min(started - offset, localNow),
    wagered: figures.wagered,
    won: figures.won,
    bets: new Set(inPlay ? [openRound.roundId] : []),
    prizes: new Set(),
  };
}

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
