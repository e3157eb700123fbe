import type { PlayRound, PlayStateRules, SessionFigures, SummaryRound } from '@raspa/core';
import { playRulesOf, realityCheckFigures } from '@raspa/core';
import type { GameRecord, HistoryRoundRow, ProfileRecord } from '../store/records.ts';

/**
 * Pure: what the page is told of the player's protection and past play (CONTRACT §13). No I/O;
 * play-service.ts reads the records and the rounds.
 */

/** The rules of the session's profile's jurisdiction, with the game's RTP and the profile's link. */
export function playStateRulesOf(game: GameRecord, profile: ProfileRecord): PlayStateRules {
  return {
    ...playRulesOf(profile.jurisdiction),
    rtp: game.rtpPpm / 1_000_000,
    responsibleGamingUrl: profile.responsibleGamingUrl,
  };
}

/** Whether the page shows the session's figures, so whether `state` reads them (a statement). */
export const showsSessionFigures = (rules: PlayStateRules): boolean =>
  rules.showElapsedTime || rules.showNetPosition;

/**
 * The session's figures for `state`: the reality check's own sums (realityCheckFigures) over the
 * same rounds (`sessionRounds`), so the page's net position and a reality check's never disagree.
 */
export function sessionFiguresOf(
  rounds: readonly SummaryRound[],
  startedAt: string,
  asOf: string,
): SessionFigures {
  const { wagered, won, net } = realityCheckFigures(rounds, Date.parse(startedAt), Date.parse(asOf));
  return { startedAt, asOf, wagered, won, net };
}

/** A past round as the page draws it: the same shape as any round, its card scratched by the page. */
export function historyRoundOf(row: HistoryRoundRow): PlayRound {
  return {
    roundId: row.id,
    status: row.status,
    card: JSON.parse(row.cardJson),
    level: row.level,
    prize: row.prizeMinor,
    price: row.paidMinor,
    createdAt: row.createdAt,
    endAt: row.endAt,
    prizePending: row.status === 'closing',
  };
}
