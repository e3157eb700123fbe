import type { PlayRound } from '@raspa/core';
import type { I18n } from '../i18n/i18n.ts';
import type { StringKey } from '../i18n/strings.ts';

/** One line of the history list, as shown (every text in the player's language). */
export interface HistoryRow {
  roundId: string;
  time: string;
  /** The price paid, or "Free card" for a promotion's card (a round with price 0). */
  price: string;
  prize: string;
  status: string;
  free: boolean;
  won: boolean;
  /**
   * Whether choosing it draws its card: not for a round still in play (another tab's), whose card
   * the list must not scratch for the player; it is played where it is open.
   */
  choosable: boolean;
}

/**
 * A round's status as the player reads it. `pending` and `declined` rounds have no card and are
 * never listed (docs/play-protocol.md, `history`); they read as in play and voided if one ever is.
 */
const STATUS: { readonly [S in PlayRound['status']]: StringKey } = {
  pending: 'historyOpen',
  open: 'historyOpen',
  closing: 'historyClosing',
  closed: 'historyClosed',
  declined: 'historyVoided',
  voided: 'historyVoided',
};

/** The `history` answer's rounds (newest first) as the list shows them, in the same order. */
export function historyRows(
  rounds: readonly PlayRound[],
  i18n: I18n,
  time: (iso: string) => string,
): HistoryRow[] {
  return rounds.map((round) => {
    const free = round.price === 0;
    const won = round.level > 0;
    return {
      roundId: round.roundId,
      time: time(round.createdAt),
      price: free ? i18n.t('historyFree') : i18n.money(round.price),
      prize: won ? i18n.money(round.prize) : i18n.t('historyNoPrize'),
      status: i18n.t(round.prizePending ? 'historyClosing' : STATUS[round.status]),
      free,
      won,
      choosable: round.status !== 'open' && round.status !== 'pending',
    };
  });
}
