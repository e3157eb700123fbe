import type { FreeCardsState } from '@raspa/core';
import type { I18n } from '../i18n/i18n.ts';
import type { StringKey } from '../i18n/strings.ts';

/**
 * What the page says about the player's free cards (docs/promotions.md, "The page"): the buy
 * button's label and the line under the status. Pure: the state, the clock and the time format
 * come in, so every case is tested without a browser.
 */

/** Free cards expiring sooner than this get their expiry time in the line after each card. */
export const EXPIRY_SOON_MS = 24 * 3_600_000;

/** A "one"/"other" pair of keys, chosen by the language's plural rules (CLDR, through Intl). */
function plural(i18n: I18n, count: number, one: StringKey, other: StringKey): StringKey {
  return new Intl.PluralRules(i18n.lang).select(count) === 'one' ? one : other;
}

/** The buy button: free with how many are held, else the price ("Buy a card · R$ 2,00"). */
export function buyLabel(i18n: I18n, freeCount: number, another: boolean, price: string): string {
  if (freeCount > 0) {
    return i18n.t(plural(i18n, freeCount, 'freeBuyOne', 'freeBuyOther'), { count: i18n.count(freeCount) });
  }
  return i18n.t(another ? 'buyAnother' : 'buy', { price });
}

export interface FreeCardsNoteInput {
  freeCards: FreeCardsState;
  /** The card on the page (in play or just finished) was a free one. */
  lastRoundFree: boolean;
  now: number;
  /** An ISO time as the player reads it (ui/local-time.ts). */
  time(iso: string): string;
}

/**
 * The line shown with the buy button: how many free cards are left and, when the first of them
 * expires within EXPIRY_SOON_MS, until when; "that was your last" once the last one was played;
 * nothing for a player who never had any.
 */
export function freeCardsNote(i18n: I18n, input: FreeCardsNoteInput): string {
  const { count, expireAt } = input.freeCards;
  if (count === 0) return input.lastRoundFree ? i18n.t('freeLastUsed') : '';
  const left = i18n.t(plural(i18n, count, 'freeLeftOne', 'freeLeftOther'), { count: i18n.count(count) });
  const expires = expireAt === null ? Number.NaN : Date.parse(expireAt);
  if (!(expires - input.now < EXPIRY_SOON_MS) || expireAt === null) return left;
  const until = i18n.t(plural(i18n, count, 'freeExpiresOne', 'freeExpiresOther'), {
    time: input.time(expireAt),
  });
  return `${left} ${until}`;
}
